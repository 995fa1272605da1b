#pragma once
// Compute pipelines from embedded SPIR-V with push descriptors (no descriptor pools) and push constants.
// A binding is declared once, in GLSL: the set layout, the push-constant size and the workgroup size
// are read from the SPIR-V when the pipeline is created.
#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "sieve/gpu.h"
#include "sieve/plugin.h"
#include "sieve/result.h"

namespace sieve {

// One descriptor, bound at the binding number equal to its position in the list. The descriptor type
// written is the shader's (reflected): storage() and uniform() both give a buffer, storageImage() and
// sampled() an image; a buffer given for an image binding (or the reverse) is written with its own
// type, which the validation layer reports against the reflected layout.
struct Binding {
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    VkDescriptorBufferInfo buffer{};
    VkDescriptorImageInfo image{};

    static Binding storage(BufferRange r) {
        return {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {r.buffer, r.offset, r.size}, {}};
    }
    static Binding uniform(BufferRange r) {
        return {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, {r.buffer, r.offset, r.size}, {}};
    }
    static Binding storageImage(VkImageView view) {
        return {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {}, {VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL}};
    }
    static Binding sampled(VkImageView view, VkSampler sampler, VkImageLayout layout) {
        return {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {}, {sampler, view, layout}};
    }
};

// The descriptors of one dispatch or draw, binding i = element i: a braced list in binding order, or a
// BindingSet filled at the binding numbers a shared header names (e.g. shared/cull_bindings.h), so that
// the order is written once, there, for the GLSL and the C++.
template <size_t N>
using BindingSet = std::array<Binding, N>;

// One descriptor at a binding number, for bindingsAt().
struct BindingAt {
    uint32_t binding;
    Binding descriptor;
};
inline BindingAt bindAt(uint32_t binding, const Binding& descriptor) {
    return {binding, descriptor};
}

// The set of (binding number, descriptor) pairs:
// bindingsAt<SIEVE_X_BINDINGS>({bindAt(SIEVE_X_A, a), bindAt(SIEVE_X_B, b)}).
// A number at or beyond N is a programming error of the caller: left out (the validation layer then
// reports the binding it lacks).
template <size_t N>
BindingSet<N> bindingsAt(std::initializer_list<BindingAt> pairs) {
    BindingSet<N> set{};
    for (const BindingAt& p : pairs)
        if (p.binding < N) set[p.binding] = p.descriptor;
    return set;
}

class BindingList {
public:
    BindingList() = default;
    BindingList(std::initializer_list<Binding> list) : list_(list.begin(), list.size()) {}
    BindingList(std::span<const Binding> list) : list_(list) {}
    template <size_t N>
    BindingList(const BindingSet<N>& set) : list_(set) {}
    const Binding* begin() const { return list_.data(); }
    const Binding* end() const { return list_.data() + list_.size(); }
    size_t size() const { return list_.size(); }

private:
    std::span<const Binding> list_;
};

struct ComputePipelineDesc {
    std::string_view shader;                   // embedded SPIR-V name, e.g. "prim/scan_block.comp"
    uint32_t pushConstantBytes = 0;            // sizeof the C++ push struct; create() fails unless it
                                               // equals the shader's push block (0: the shader has none)
    std::span<const uint32_t> specialization;  // constant_id i = specialization[i]
    uint32_t requiredSubgroupSize = 0;         // 0: driver's choice
};

// What every pipeline of the plugin owns: a push-descriptor set layout, the pipeline layout and the
// pipeline. Move-only; destroys them.
class PipelineHandles {
public:
    PipelineHandles() = default;
    // The push-descriptor set layout of `bindings` (set 0, from reflection) and the pipeline layout with
    // `pushBytes` of push constants for `pushStages`, and `extraSets` as sets 1, 2, ... (not owned); the
    // pipeline itself is the caller's to create (with dev.pipelineCache and dev.allocator, which destroy
    // uses).
    static Result<PipelineHandles> createLayouts(const DeviceInfo& dev,
                                                 std::span<const VkDescriptorSetLayoutBinding> bindings,
                                                 VkShaderStageFlags pushStages, uint32_t pushBytes,
                                                 std::span<const VkDescriptorSetLayout> extraSets = {});
    ~PipelineHandles();
    PipelineHandles(PipelineHandles&& o) noexcept { *this = std::move(o); }
    PipelineHandles& operator=(PipelineHandles&& o) noexcept;
    PipelineHandles(const PipelineHandles&) = delete;
    PipelineHandles& operator=(const PipelineHandles&) = delete;

    VkDevice device = VK_NULL_HANDLE;
    const VkAllocationCallbacks* allocator = nullptr;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    std::vector<VkDescriptorType> types;  // by binding number; VK_DESCRIPTOR_TYPE_MAX_ENUM: not in the layout

    // Pushes `bindings` (binding i = position i) for this layout. Bindings the layout lacks (declared
    // in GLSL but unused, so the compiler removed them) are skipped.
    void pushDescriptors(VkCommandBuffer cmd, VkPipelineBindPoint bindPoint, BindingList bindings) const;

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
    void dispatch(VkCommandBuffer cmd, BindingList bindings, const void* push, uint32_t pushBytes, uint32_t x,
                  uint32_t y = 1, uint32_t z = 1) const;
    template <typename Push>
    requires(!std::is_pointer_v<Push>)  // a pointer here would push the pointer's own bytes
        void dispatch(VkCommandBuffer cmd, BindingList bindings, const Push& push, uint32_t x, uint32_t y = 1,
                      uint32_t z = 1) const {
        dispatch(cmd, bindings, &push, sizeof(Push), x, y, z);
    }
    // Dispatches `groups` workgroups in one dimension, folded into y when x would exceed the device limit.
    // Shaders recover the linear group index with sieve_group_index() (shared/dispatch.h).
    template <typename Push>
    requires(!std::is_pointer_v<Push>) void dispatchLinear(VkCommandBuffer cmd, BindingList bindings, const Push& push,
                                                           uint32_t groups) const {
        dispatchLinear(cmd, bindings, &push, sizeof(Push), groups);
    }
    void dispatchLinear(VkCommandBuffer cmd, BindingList bindings, const void* push, uint32_t pushBytes,
                        uint32_t groups) const;

    // Binds the pipeline, pushes the descriptors and constants, and dispatches the VkDispatchIndirectCommand
    // at `args` (written on the GPU; folded as dispatchLinear folds, within maxGroupsX() per row).
    void dispatchIndirect(VkCommandBuffer cmd, BindingList bindings, const void* push, uint32_t pushBytes,
                          BufferRange args) const;
    // Workgroups per row of dispatchLinear (the device's maxComputeWorkGroupCount[0], or the test hook's).
    uint32_t maxGroupsX() const;

    // The shader's workgroup size (local_size_x/y/z, specialization constants applied).
    const std::array<uint32_t, 3>& localSize() const { return localSize_; }
    // Workgroups that cover `items` invocations along dimension `dim` of the workgroup.
    uint32_t groupsFor(uint64_t items, uint32_t dim = 0) const {
        return uint32_t((items + localSize_[dim] - 1) / localSize_[dim]);
    }

    VkPipeline handle() const { return h_.pipeline; }
    VkPipelineLayout layout() const { return h_.layout; }
    explicit operator bool() const { return h_.pipeline != VK_NULL_HANDLE; }

private:
    PipelineHandles h_;
    uint32_t maxGroupsX_ = 65535;
    std::array<uint32_t, 3> localSize_{1, 1, 1};
};

// The largest power of two <= `wanted` that a one-dimensional workgroup may have on this device
// (maxComputeWorkGroupInvocations, maxComputeWorkGroupSize[0]; the Vulkan minimum is 128): the size the
// plugin's linear shaders are specialized to.
uint32_t fittedGroupSize(const DeviceInfo& dev, uint32_t wanted);

// Test hook: lower the x-dimension group limit used by dispatchLinear (0 restores the device limit).
void overrideMaxGroupsX(uint32_t limit);

}  // namespace sieve
