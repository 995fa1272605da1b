#pragma once
// The plugin's own Vulkan entry points, per device. The plugin is compiled with VK_NO_PROTOTYPES, and every
// Vulkan function it calls is sieve::vkX (never the loader's vkX), so plugin code calls `vkCmdDispatch(...)`
// as usual while the host keeps whatever it uses (the loader's prototypes, volk, its own table).
//
// Each sieve::vkX is a thunk with vkX's exact signature. Every Vulkan function the plugin calls takes a
// dispatchable handle first (VkDevice, VkCommandBuffer, VkQueue; VkPhysicalDevice for the instance-level
// ones), and the first pointer-sized word of a dispatchable handle is the loader's dispatch key: the
// loader writes a pointer to its dispatch table there, one table per VkDevice shared by every object of
// that device, and one per VkInstance shared by its physical devices (the Vulkan-Loader documents,
// LoaderDriverInterface.md "Driver Dispatchable Object Creation"; layers find their per-device data the
// same way). A thunk reads that key from its first argument, finds the table describeDevice() loaded for
// it, and calls through it. So two devices (two hosts, two drivers, two layer stacks) each get their own
// functions in one process.
//
// The tables: describeDevice() is the only place they are loaded (loadEntryPoints below). They live in two
// registries (device functions by the device's key, instance functions by the physical device's key):
// lists that only grow, written under a mutex and read without a lock (one acquire load of the list head,
// a walk to the key, most recently described first, and an acquire load of the table). A table is never
// freed: describing a device again (or a new device whose loader reused the key) publishes a new table for
// the key unless it equals the old one, and the old one stays allocated, so a thread still calling
// through it is safe. The cost is about 0.5 KiB per distinct table, for the life of the process.
//
// A handle whose device was never described (or a null one, or an optional function the device did not
// provide): the thunk calls nothing, returns VK_ERROR_INITIALIZATION_FAILED where the function returns a
// VkResult, counts the call (undescribedCalls()) and prints one line to stderr the first time. Component
// creation checks first (checkDescribed) and fails with a message instead.
//
// Without the loader (a host that links a driver directly), every object may carry the driver's magic
// word instead of a per-device key: then all devices share one table, the last described, as before.
#ifndef VK_NO_PROTOTYPES
#error "passes/ is compiled with VK_NO_PROTOTYPES (passes/CMakeLists.txt); include this header, not the loader's"
#endif
#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <type_traits>

#include "sieve/result.h"

// Instance-level functions (vkGetInstanceProcAddr on the host's instance), called with a VkPhysicalDevice.
#define SIEVE_VK_INSTANCE_FUNCTIONS(X)     \
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

// VK_EXT_debug_utils (instance extension, device-level functions): may be absent (hasFunction()).
#define SIEVE_VK_OPTIONAL_FUNCTIONS(X) \
    X(vkSetDebugUtilsObjectNameEXT)    \
    X(vkCmdBeginDebugUtilsLabelEXT)    \
    X(vkCmdEndDebugUtilsLabelEXT)

// VK_EXT_mesh_shader (device extension): absent unless the host enabled it.
#define SIEVE_VK_OPTIONAL_DEVICE_FUNCTIONS(X) X(vkCmdDrawMeshTasksIndirectEXT)

namespace sieve {
namespace detail {

#define SIEVE_VK_MEMBER(name) PFN_##name name = nullptr;
#define SIEVE_VK_MEMBER2(name, alias) PFN_##name name = nullptr;
struct InstanceTable {
    SIEVE_VK_INSTANCE_FUNCTIONS(SIEVE_VK_MEMBER)
};
struct DeviceTable {
    SIEVE_VK_DEVICE_FUNCTIONS(SIEVE_VK_MEMBER)
    SIEVE_VK_DEVICE_FUNCTIONS_13(SIEVE_VK_MEMBER2)
    SIEVE_VK_OPTIONAL_FUNCTIONS(SIEVE_VK_MEMBER)
    SIEVE_VK_OPTIONAL_DEVICE_FUNCTIONS(SIEVE_VK_MEMBER)
};
#undef SIEVE_VK_MEMBER
#undef SIEVE_VK_MEMBER2

// The loader's dispatch key of a dispatchable handle (null for a null handle).
inline const void* dispatchKey(const void* handle) noexcept {
    return handle ? *static_cast<const void* const*>(handle) : nullptr;
}

// Tables by dispatch key: nodes are only prepended and never unlinked or freed; a node's table pointer
// is replaced (release) when its key is described again.
template <typename Table>
struct RegistryNode {
    const void* key = nullptr;
    std::atomic<const Table*> table{nullptr};
    const RegistryNode* next = nullptr;
};
template <typename Table>
struct Registry {
    std::atomic<const RegistryNode<Table>*> head{nullptr};
    const Table* find(const void* key) const noexcept {
        for (const RegistryNode<Table>* n = head.load(std::memory_order_acquire); n; n = n->next)
            if (n->key == key) return n->table.load(std::memory_order_acquire);
        return nullptr;
    }
};
extern Registry<DeviceTable> gDeviceTables;
extern Registry<InstanceTable> gInstanceTables;

inline const DeviceTable* deviceTable(const void* handle) noexcept {
    return handle ? gDeviceTables.find(dispatchKey(handle)) : nullptr;
}
inline const InstanceTable* instanceTable(const void* handle) noexcept {
    return handle ? gInstanceTables.find(dispatchKey(handle)) : nullptr;
}

// Whether the device of `handle` was described and provides `fn` (the optional functions).
template <typename Pfn>
bool hasFunction(const void* handle, Pfn DeviceTable::*fn) noexcept {
    const DeviceTable* t = deviceTable(handle);
    return t && t->*fn;
}

// A call that found no function: counted, and reported once on stderr. `described`: the device was
// described but lacks the (optional) function.
[[gnu::cold]] void undescribedCall(const char* function, bool described) noexcept;
// How many calls found no function since the process started.
uint64_t undescribedCalls() noexcept;

template <typename R>
R failedCall() noexcept {
    if constexpr (std::is_same_v<R, VkResult>)
        return VK_ERROR_INITIALIZATION_FAILED;
    else if constexpr (!std::is_void_v<R>)
        return R{};
}

// The thunk behind sieve::vkX: finds the table of the first argument's device (or instance) and calls
// its vkX.
template <typename Table, auto Member, const char* Name>
struct Thunk;
template <typename Table, typename R, typename H, typename... A, R (VKAPI_PTR* Table::*Member)(H, A...),
          const char* Name>
struct Thunk<Table, Member, Name> {
    static R VKAPI_CALL call(H handle, A... args) {
        const Table* table = nullptr;
        if constexpr (std::is_same_v<Table, DeviceTable>)
            table = deviceTable(handle);
        else
            table = instanceTable(handle);
        const auto fn = table ? table->*Member : nullptr;
        if (!fn) [[unlikely]] {
            undescribedCall(Name, table != nullptr);
            return failedCall<R>();
        }
        return fn(handle, args...);
    }
};

// Loads every entry point for `device` (instance functions from `instance`, for `physical`) and publishes
// the tables. Names every missing one.
Result<void> loadEntryPoints(PFN_vkGetInstanceProcAddr gipa, VkInstance instance, VkPhysicalDevice physical,
                             VkDevice device);
// An error unless `device` (and `physical`, where given) was described; `who` names the caller.
Result<void> checkDescribed(VkDevice device, VkPhysicalDevice physical, const char* who);

// The device's published table, and replacing it (only the bench's command counter does: it wraps a few
// functions; the table it publishes is kept like any other).
DeviceTable deviceFunctions(VkDevice device);
Result<void> replaceDeviceFunctions(VkDevice device, const DeviceTable& table);

}  // namespace detail

#define SIEVE_VK_THUNK(Table, name)       \
    namespace detail::names {             \
    inline constexpr char name[] = #name; \
    }                                     \
    inline constexpr PFN_##name name = &detail::Thunk<detail::Table, &detail::Table::name, detail::names::name>::call;
#define SIEVE_VK_INSTANCE_THUNK(name) SIEVE_VK_THUNK(InstanceTable, name)
#define SIEVE_VK_DEVICE_THUNK(name) SIEVE_VK_THUNK(DeviceTable, name)
#define SIEVE_VK_DEVICE_THUNK2(name, alias) SIEVE_VK_THUNK(DeviceTable, name)
SIEVE_VK_INSTANCE_FUNCTIONS(SIEVE_VK_INSTANCE_THUNK)
SIEVE_VK_DEVICE_FUNCTIONS(SIEVE_VK_DEVICE_THUNK)
SIEVE_VK_DEVICE_FUNCTIONS_13(SIEVE_VK_DEVICE_THUNK2)
SIEVE_VK_OPTIONAL_FUNCTIONS(SIEVE_VK_DEVICE_THUNK)
SIEVE_VK_OPTIONAL_DEVICE_FUNCTIONS(SIEVE_VK_DEVICE_THUNK)
#undef SIEVE_VK_THUNK
#undef SIEVE_VK_INSTANCE_THUNK
#undef SIEVE_VK_DEVICE_THUNK
#undef SIEVE_VK_DEVICE_THUNK2

}  // namespace sieve
