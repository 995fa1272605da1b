#pragma once
// Small helpers of the plugin's own (in-tree hosts may use them too; not installed): debug names and
// labels, and a nearest sampler. The device description is sieve/device.h.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <utility>

#include "sieve/device.h"
#include "sieve/result.h"

namespace sieve {

// Names a handle for debuggers (RenderDoc, validation messages); a no-op without VK_EXT_debug_utils.
void setDebugName(const DeviceInfo& dev, VkObjectType type, uint64_t handle, const char* name);
template <typename Handle>
void setDebugName(const DeviceInfo& dev, VkObjectType type, Handle handle, const char* name) {
    setDebugName(dev, type, reinterpret_cast<uint64_t>(handle), name);
}

// A nearest, clamp-to-edge sampler for descriptors of images read with texelFetch (the descriptor needs
// one; the reads ignore it). Owns the handle.
class NearestSampler {
public:
    NearestSampler() = default;
    static Result<NearestSampler> create(const DeviceInfo& dev, const char* name);
    ~NearestSampler();
    NearestSampler(NearestSampler&& o) noexcept { *this = std::move(o); }
    NearestSampler& operator=(NearestSampler&& o) noexcept;
    NearestSampler(const NearestSampler&) = delete;
    NearestSampler& operator=(const NearestSampler&) = delete;
    VkSampler handle() const { return sampler_; }

private:
    VkDevice device_ = VK_NULL_HANDLE;
    const VkAllocationCallbacks* allocator_ = nullptr;
    VkSampler sampler_ = VK_NULL_HANDLE;
};

// A debug label around a region of a command buffer (RenderDoc shows it as a marker).
class ScopedLabel {
public:
    ScopedLabel(VkCommandBuffer cmd, const char* name);
    ~ScopedLabel();
    ScopedLabel(const ScopedLabel&) = delete;
    ScopedLabel& operator=(const ScopedLabel&) = delete;

private:
    VkCommandBuffer cmd_;
};

}  // namespace sieve
