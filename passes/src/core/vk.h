#pragma once
// The plugin's own Vulkan entry points. The plugin is compiled with VK_NO_PROTOTYPES and declares every
// function it calls as a pointer in namespace sieve, so plugin code calls `vkCmdDispatch(...)` as usual
// while the host keeps whatever it uses (the loader's prototypes, volk, its own table): the symbols here
// are sieve::vkX, never the loader's vkX. Filled by loadVulkan() (describeDevice) from the host's
// vkGetInstanceProcAddr, for one VkDevice at a time.
#ifndef VK_NO_PROTOTYPES
#error "passes/ is compiled with VK_NO_PROTOTYPES (passes/CMakeLists.txt); include this header, not the loader's"
#endif
#include <vulkan/vulkan.h>

#include "sieve/result.h"

// Instance-level functions (vkGetInstanceProcAddr on the host's instance).
#define SIEVE_VK_INSTANCE_FUNCTIONS(X)     \
    X(vkGetDeviceProcAddr)                 \
    X(vkGetPhysicalDeviceProperties)       \
    X(vkGetPhysicalDeviceProperties2)      \
    X(vkGetPhysicalDeviceFeatures2)        \
    X(vkGetPhysicalDeviceFormatProperties) \
    X(vkEnumerateDeviceExtensionProperties)

// Device-level functions of Vulkan 1.2 core and VK_KHR_push_descriptor: every one must be present.
#define SIEVE_VK_DEVICE_FUNCTIONS(X) \
    X(vkCreateShaderModule)          \
    X(vkDestroyShaderModule)         \
    X(vkCreateComputePipelines)      \
    X(vkCreateGraphicsPipelines)     \
    X(vkDestroyPipeline)             \
    X(vkCreatePipelineLayout)        \
    X(vkDestroyPipelineLayout)       \
    X(vkCreateDescriptorSetLayout)   \
    X(vkDestroyDescriptorSetLayout)  \
    X(vkCreateDescriptorPool)        \
    X(vkDestroyDescriptorPool)       \
    X(vkAllocateDescriptorSets)      \
    X(vkUpdateDescriptorSets)        \
    X(vkCmdBindDescriptorSets)       \
    X(vkCreateSampler)               \
    X(vkDestroySampler)              \
    X(vkCmdBindPipeline)             \
    X(vkCmdPushConstants)            \
    X(vkCmdPushDescriptorSetKHR)     \
    X(vkCmdDispatch)                 \
    X(vkCmdDispatchIndirect)         \
    X(vkCmdFillBuffer)               \
    X(vkCmdUpdateBuffer)             \
    X(vkCmdCopyBuffer)               \
    X(vkCmdSetViewport)              \
    X(vkCmdSetScissor)               \
    X(vkCmdBindVertexBuffers)        \
    X(vkCmdBindIndexBuffer)          \
    X(vkCmdDrawIndexedIndirect)      \
    X(vkCmdDrawIndexedIndirectCount)

// Core in 1.3, KHR extensions on 1.2: loaded under the core name, falling back to the KHR one.
#define SIEVE_VK_DEVICE_FUNCTIONS_13(X)                \
    X(vkCmdPipelineBarrier2, vkCmdPipelineBarrier2KHR) \
    X(vkCmdBeginRendering, vkCmdBeginRenderingKHR)     \
    X(vkCmdEndRendering, vkCmdEndRenderingKHR)

// VK_EXT_debug_utils (instance extension): may be absent; callers check for null.
#define SIEVE_VK_OPTIONAL_FUNCTIONS(X) \
    X(vkSetDebugUtilsObjectNameEXT)    \
    X(vkCmdBeginDebugUtilsLabelEXT)    \
    X(vkCmdEndDebugUtilsLabelEXT)

// VK_EXT_mesh_shader (device extension): null unless the host enabled it.
#define SIEVE_VK_OPTIONAL_DEVICE_FUNCTIONS(X) X(vkCmdDrawMeshTasksIndirectEXT)

namespace sieve {

#define SIEVE_VK_DECLARE(name) extern PFN_##name name;
#define SIEVE_VK_DECLARE2(name, alias) extern PFN_##name name;
SIEVE_VK_INSTANCE_FUNCTIONS(SIEVE_VK_DECLARE)
SIEVE_VK_DEVICE_FUNCTIONS(SIEVE_VK_DECLARE)
SIEVE_VK_DEVICE_FUNCTIONS_13(SIEVE_VK_DECLARE2)
SIEVE_VK_OPTIONAL_FUNCTIONS(SIEVE_VK_DECLARE)
SIEVE_VK_OPTIONAL_DEVICE_FUNCTIONS(SIEVE_VK_DECLARE)
#undef SIEVE_VK_DECLARE
#undef SIEVE_VK_DECLARE2

namespace detail {
// Loads every entry point for `device` (instance functions from `instance`). Names every missing one.
Result<void> loadEntryPoints(PFN_vkGetInstanceProcAddr gipa, VkInstance instance, VkDevice device);
// The device the entry points were last loaded for (VK_NULL_HANDLE before the first load).
VkDevice loadedDevice();
}  // namespace detail

}  // namespace sieve
