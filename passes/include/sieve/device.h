#pragma once
// What the plugin needs from the host's device, and what it learns about it. The host creates the
// instance and the device; it asks requirements() what to enable, then hands the plugin its entry-point
// loader and what it enabled (describeDevice). The plugin loads its own function pointers, per device, from
// the host's vkGetInstanceProcAddr and never touches the host's (loader prototypes, volk or a table).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sieve/result.h"

namespace sieve {

// What a component needs; `create()` of each component checks its own set and names what is missing.
enum class Need : uint32_t {
    PushDescriptor = 1u << 0,             // VK_KHR_push_descriptor (every component)
    Synchronization2 = 1u << 1,           // 1.3 feature or VK_KHR_synchronization2 (every component)
    DynamicRendering = 1u << 2,           // 1.3 feature or VK_KHR_dynamic_rendering (GeometryPass)
    DrawIndirectCount = 1u << 3,          // 1.2 feature, optional (kOptionalNeeds): draws use it where enabled
    MultiDrawIndirect = 1u << 4,          // 1.0 feature (GeometryPass: one indirect call draws a list)
    DrawIndirectFirstInstance = 1u << 5,  // 1.0 feature (draw records carry the instance index)
    ShaderDrawParameters = 1u << 6,       // 1.1 feature (gl_BaseInstance in the default vertex shader)
};
using Needs = uint32_t;
inline constexpr Needs kCullingNeeds = uint32_t(Need::PushDescriptor) | uint32_t(Need::Synchronization2);
inline constexpr Needs kGeometryNeeds = uint32_t(Need::PushDescriptor) | uint32_t(Need::Synchronization2) |
                                        uint32_t(Need::DynamicRendering) | uint32_t(Need::MultiDrawIndirect) |
                                        uint32_t(Need::DrawIndirectFirstInstance) |
                                        uint32_t(Need::ShaderDrawParameters);
inline constexpr Needs kAllNeeds = kCullingNeeds | kGeometryNeeds;
// Used where the host enabled them, never required: with drawIndirectCount the streams are drawn with
// vkCmdDrawIndexedIndirectCount, without it with vkCmdDrawIndexedIndirect over each stream's capacity
// (records past the count draw nothing; sieve::drawStream picks).
inline constexpr Needs kOptionalNeeds = uint32_t(Need::DrawIndirectCount);

// The name a message uses for a need ("VK_KHR_push_descriptor", "drawIndirectCount", ...).
const char* needName(Need need);

// Exactly what to enable for `needs` on a device used as Vulkan `apiVersion` (1.3, or 1.2 where the 1.3
// features come from their KHR extensions). Features the plugin can use but does not need are listed
// apart: enabling them makes it faster, never more correct.
struct Requirements {
    uint32_t minApiVersion = VK_API_VERSION_1_2;
    std::vector<const char*> deviceExtensions;
    std::vector<const char*> features;  // required feature names (for messages and docs)
    // drawIndirectCount (kOptionalNeeds), shaderInt64 + shaderBufferInt64Atomics (packed scan status)
    std::vector<const char*> optionalFeatures;
};
Requirements requirements(uint32_t apiVersion, Needs needs = kAllNeeds);

// Sets to VK_TRUE, in the host's feature structs, every feature `needs` requires. Pass the structs the
// host chains into VkDeviceCreateInfo (f13 null on a 1.2 device, then sync2/rendering are the KHR ones).
struct FeatureStructs {
    VkPhysicalDeviceFeatures2* f2 = nullptr;
    VkPhysicalDeviceVulkan11Features* f11 = nullptr;
    VkPhysicalDeviceVulkan12Features* f12 = nullptr;
    VkPhysicalDeviceVulkan13Features* f13 = nullptr;
    VkPhysicalDeviceSynchronization2Features* sync2 = nullptr;      // 1.2 path only
    VkPhysicalDeviceDynamicRenderingFeatures* rendering = nullptr;  // 1.2 path only
};
void enableRequiredFeatures(const FeatureStructs& features, Needs needs = kAllNeeds);
// Sets to VK_TRUE, in `want`, each optional feature (Requirements::optionalFeatures) that `supported`
// (the same structs filled by vkGetPhysicalDeviceFeatures2) reports.
void enableOptionalFeatures(const FeatureStructs& want, const FeatureStructs& supported);

// Names of what `physical` cannot provide for `needs` (empty: the device can host the plugin). Uses the
// host's loader only for this query; loads nothing.
std::vector<std::string> missingRequirements(PFN_vkGetInstanceProcAddr getInstanceProcAddr, VkInstance instance,
                                             VkPhysicalDevice physical, uint32_t apiVersion, Needs needs = kAllNeeds);

// The host's device as the plugin receives it.
struct DeviceSetup {
    PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;  // the host's loader entry
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t apiVersion = VK_API_VERSION_1_3;  // the version the device is used as
    // What the host passed to vkCreateDevice: its extension names and the head of its feature chain
    // (VkPhysicalDeviceFeatures2 with Vulkan11/12/13 or KHR feature structs behind it). The plugin reads
    // them to check what each component needs; it cannot ask the device what was enabled.
    const char* const* enabledExtensions = nullptr;
    uint32_t enabledExtensionCount = 0;
    const VkPhysicalDeviceFeatures2* enabledFeatures = nullptr;
    // The host's pipeline cache and allocation callbacks: every pipeline the plugin's components create
    // goes through the cache, and every object they create and destroy (shader modules, pipelines,
    // layouts, samplers, descriptor pools) gets the callbacks. Both must outlive those components.
    VkPipelineCache pipelineCache = VK_NULL_HANDLE;
    const VkAllocationCallbacks* allocator = nullptr;
};

struct DeviceInfo {
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkPipelineCache pipelineCache = VK_NULL_HANDLE;    // DeviceSetup::pipelineCache
    const VkAllocationCallbacks* allocator = nullptr;  // DeviceSetup::allocator
    uint32_t vendorId = 0;
    VkPhysicalDeviceType deviceType = VK_PHYSICAL_DEVICE_TYPE_OTHER;
    VkPhysicalDeviceLimits limits{};
    uint32_t subgroupSize = 1;
    // The smallest subgroup a compute dispatch may run in (subgroup size control, core in 1.3; the fixed
    // subgroupSize where the device cannot say). Shared arrays with one entry per subgroup hold
    // workgroup / minSubgroupSize entries.
    uint32_t minSubgroupSize = 1;
    bool subgroupArithmetic = false;  // compute stage supports subgroup arithmetic ops
    // Compute pipelines are created with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR, for the driver's
    // statistics (the host enabled VK_KHR_pipeline_executable_properties' pipelineExecutableInfo and sets
    // it on its own copy; describeDevice leaves it off).
    bool captureStatistics = false;
    bool subgroupBallot = false;
    uint32_t maxComputeWorkGroupCount[3] = {65535, 65535, 65535};
    bool debugNames = false;  // VK_EXT_debug_utils is loaded
    // shaderInt64 and shaderBufferInt64Atomics are enabled: the single-pass scan keeps a tile's status in one
    // word.
    bool bufferInt64Atomics = false;
    // VK_EXT_mesh_shader with its meshShader feature is enabled (the cluster plugin's mesh path), and the
    // device's mesh workgroup limits (maxMeshWorkGroupCount[0], maxMeshWorkGroupTotalCount).
    bool meshShader = false;
    uint32_t maxMeshGroupsX = 0;
    uint32_t maxMeshGroupsTotal = 0;
    Needs enabled = 0;  // what the host enabled (from DeviceSetup)
    // drawIndirectCount is enabled: streams are drawn with vkCmdDrawIndexedIndirectCount; without it the
    // culling plugin writes empty records (instanceCount 0) past each stream's count and streams are drawn
    // with vkCmdDrawIndexedIndirect over their capacity (sieve::drawStream).
    bool drawIndirectCount() const { return (enabled & uint32_t(Need::DrawIndirectCount)) != 0; }
    // The names of what the host did not enable, for `needs`; empty when all are there.
    std::string missing(Needs needs) const;
};

// Loads the plugin's entry points for `setup.device` and reads the device's properties and what the host
// enabled. An error names every entry point the device does not provide. Entry points are kept per device
// (and per instance), so any number of devices may be described and used side by side, from any threads;
// describing a device again reloads its entry points (components already created keep working). Call it
// before creating components for a device: they refuse a device that was never described. What it loads
// stays in memory (about 0.5 KiB a device) until the process ends.
Result<DeviceInfo> describeDevice(const DeviceSetup& setup);

}  // namespace sieve
