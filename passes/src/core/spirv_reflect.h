#pragma once
// What a pipeline needs to know about a shader, read from its SPIR-V so that each fact is declared once,
// in GLSL: the descriptor bindings and their types, the push-constant block's size and the workgroup
// size (literal, or from specialization constants), the capabilities and built-ins it declares. Private to
// the plugin; see spirv_reflect.cpp for the subset of SPIR-V it understands.
#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "sieve/result.h"

namespace sieve::spirv {

struct DescriptorBinding {
    uint32_t set = 0;
    uint32_t binding = 0;
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_MAX_ENUM;
    uint32_t count = 1;  // array length
    VkShaderStageFlags stages = 0;
};

// One workgroup dimension: a literal, or a specialization constant with its default.
struct LocalSizeDim {
    uint32_t value = 1;   // the literal, or the constant's default
    int32_t specId = -1;  // >= 0: SpecId of the constant that overrides `value`
};

struct ShaderInfo {
    VkShaderStageFlagBits stage = VK_SHADER_STAGE_ALL;
    std::vector<DescriptorBinding> bindings;  // sorted by (set, binding); aliases merged
    uint32_t pushConstantBytes = 0;           // end of the push block's last member; 0 without one
    std::array<LocalSizeDim, 3> localSize{};  // compute only
    // What the module declares, each once in the order it first appears: its OpCapability operands
    // (SpvCapability values) and the BuiltIn values it decorates (variables and block members), so that a
    // test can check a shader asks the device for nothing it was not created with.
    std::vector<uint32_t> capabilities;
    std::vector<uint32_t> builtIns;

    // The workgroup size once `specialization[i]` is bound to constant_id i (as ComputePipelineDesc does).
    std::array<uint32_t, 3> resolveLocalSize(std::span<const uint32_t> specialization) const;
};

// Parses the module; an error names the first problem (bad header, truncated instruction, an id out of
// range, a resource type it cannot map). Never reads outside `words`.
Result<ShaderInfo> reflect(std::span<const uint32_t> words);

// Merges the bindings of several stages (a graphics pipeline): stage flags are or-ed; a binding declared
// with two different types or counts is an error naming it.
Result<std::vector<DescriptorBinding>> mergeBindings(std::span<const ShaderInfo* const> stages);

// The push-descriptor set layout of `bindings`: set 0 only (the plugin pushes one set), an error naming
// `shader` otherwise.
Result<std::vector<VkDescriptorSetLayoutBinding>> setLayoutBindings(std::span<const DescriptorBinding> bindings,
                                                                    std::string_view shader);

// The check at pipeline creation: the C++ push struct (`cppBytes` = its sizeof) has the size of the
// shader's push block.
Result<void> checkPushSize(uint32_t shaderBytes, uint32_t cppBytes, std::string_view shader);

}  // namespace sieve::spirv
