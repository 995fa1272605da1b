#pragma once
// Compute pipelines from embedded SPIR-V with push descriptors (no descriptor pools) and push constants.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "sieve/gpu.h"
#include "sieve/plugin.h"
#include "sieve/result.h"

namespace sieve {

// One descriptor, bound at the binding number equal to its position in the list.
struct Binding {
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    VkDescriptorBufferInfo buffer{};
    VkDescriptorImageInfo image{};

    static Binding storage(BufferRange r) { return {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {r.buffer, r.offset, r.size}, {}}; }
    static Binding uniform(BufferRange r) { return {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, {r.buffer, r.offset, r.size}, {}}; }
    static Binding storageImage(VkImageView view) {
        return {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {}, {VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL}};
    }
    static Binding sampled(VkImageView view, VkSampler sampler, VkImageLayout layout) {
        return {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {}, {sampler, view, layout}};
    }
};

struct ComputePipelineDesc {
    std::string_view shader;                       // embedded SPIR-V name, e.g. "prim/scan_block.comp"
    std::span<const VkDescriptorType> bindings;    // binding i has type bindings[i]
    uint32_t pushConstantBytes = 0;
    std::span<const uint32_t> specialization;      // constant_id i = specialization[i]
    uint32_t requiredSubgroupSize = 0;             // 0: driver's choice
};

// What every pipeline of the plugin owns: a push-descriptor set layout, the pipeline layout and the
// pipeline. Move-only; destroys them.
class PipelineHandles {
public:
    PipelineHandles() = default;
    // The set layout (binding i has type types[i], visible to `stages`) and the pipeline layout with
    // `pushBytes` of push constants for `stages`; the pipeline itself is the caller's to create.
    static Result<PipelineHandles> createLayouts(VkDevice device, std::span<const VkDescriptorType> types,
                                                 VkShaderStageFlags stages, uint32_t pushBytes);
    ~PipelineHandles();
    PipelineHandles(PipelineHandles&& o) noexcept { *this = std::move(o); }
    PipelineHandles& operator=(PipelineHandles&& o) noexcept;
    PipelineHandles(const PipelineHandles&) = delete;
    PipelineHandles& operator=(const PipelineHandles&) = delete;

    VkDevice device = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;

private:
    void reset();
};

class ComputePipeline {
public:
    ComputePipeline() = default;
    static Result<ComputePipeline> create(const DeviceInfo& dev, const ComputePipelineDesc& desc);
    // Same, from SPIR-V words the caller provides (shader hot reload).
    static Result<ComputePipeline> createFromSpirv(const DeviceInfo& dev, const ComputePipelineDesc& desc,
                                                   std::span<const uint32_t> spirv);

    // Binds the pipeline, pushes the descriptors and constants, and dispatches.
    void dispatch(VkCommandBuffer cmd, std::initializer_list<Binding> bindings, const void* push, uint32_t pushBytes,
                  uint32_t x, uint32_t y = 1, uint32_t z = 1) const;
    template <typename Push>
        requires(!std::is_pointer_v<Push>)  // a pointer here would push the pointer's own bytes
    void dispatch(VkCommandBuffer cmd, std::initializer_list<Binding> bindings, const Push& push, uint32_t x,
                  uint32_t y = 1, uint32_t z = 1) const {
        dispatch(cmd, bindings, &push, sizeof(Push), x, y, z);
    }
    // Dispatches `groups` workgroups in one dimension, folded into y when x would exceed the device limit.
    // Shaders recover the linear group index with sieve_group_index() (shared/dispatch.h).
    template <typename Push>
        requires(!std::is_pointer_v<Push>)
    void dispatchLinear(VkCommandBuffer cmd, std::initializer_list<Binding> bindings, const Push& push,
                        uint32_t groups) const {
        dispatchLinear(cmd, bindings, &push, sizeof(Push), groups);
    }
    void dispatchLinear(VkCommandBuffer cmd, std::initializer_list<Binding> bindings, const void* push,
                        uint32_t pushBytes, uint32_t groups) const;

    VkPipeline handle() const { return h_.pipeline; }
    VkPipelineLayout layout() const { return h_.layout; }
    explicit operator bool() const { return h_.pipeline != VK_NULL_HANDLE; }

private:
    PipelineHandles h_;
    uint32_t maxGroupsX_ = 65535;
};

// Test hook: lower the x-dimension group limit used by dispatchLinear (0 restores the device limit).
void overrideMaxGroupsX(uint32_t limit);

}  // namespace sieve
