#pragma once
// What the plugin needs to know about the host's device. The host creates the instance and device;
// the plugin only reads properties and creates its own pipelines on that device.
#include <volk.h>

#include <cstdint>
#include <utility>

#include "sieve/result.h"

namespace sieve {

struct DeviceInfo {
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkPhysicalDeviceLimits limits{};
    uint32_t subgroupSize = 1;
    bool subgroupArithmetic = false;  // compute stage supports subgroup arithmetic ops
    bool subgroupBallot = false;
    uint32_t maxComputeWorkGroupCount[3] = {65535, 65535, 65535};
    bool debugNames = false;  // vkSetDebugUtilsObjectNameEXT is loaded
    // The host enabled shaderInt64 and shaderBufferInt64Atomics on the device (describeDevice cannot see
    // enabled features, so the host sets this). Lets the single-pass scan keep a tile's status in one word.
    bool bufferInt64Atomics = false;
};

// For hosts that do not use volk themselves: load Vulkan entry points for this instance and device.
Result<void> loadVulkan(PFN_vkGetInstanceProcAddr getInstanceProcAddr, VkInstance instance, VkDevice device);

// Reads properties (subgroups, limits) of a device the host created.
DeviceInfo describeDevice(VkPhysicalDevice physical, VkDevice device);

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
