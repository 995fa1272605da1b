#pragma once
// A host that watches the plugin's entry points per device. hooks::describe(slot, ctx) describes an engine
// context's device to the plugin through a vkGetInstanceProcAddr of the test's own: for every function the
// plugin loads (the lists in passes/src/core/vk.h) it hands out a wrapper of that slot, which notes the
// dispatch key of the handle it is called with (a call with another device's handle is `foreign`), the
// allocation callbacks and pipeline cache it is given, then calls the real function. Each slot is one
// device, so a plugin that called one device's functions with another device's handles is caught without
// relying on a crash. Use from one thread; restore() describes the device again as the engine did.
#include <gtest/gtest.h>
#include <volk.h>  // the loader's vkGetInstanceProcAddr, which the wrappers forward to

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <type_traits>

#include "core/vk.h"
#include "engine/vk/context.h"
#include "sieve/device.h"

namespace testing_gpu::hooks {

inline constexpr int kSlots = 2;

struct Slot {
    const void* deviceKey = nullptr;    // dispatch key of the slot's VkDevice
    const void* physicalKey = nullptr;  // and of its VkPhysicalDevice
    PFN_vkGetDeviceProcAddr realGetDeviceProcAddr = nullptr;
    const VkAllocationCallbacks* expectAllocator = nullptr;
    VkPipelineCache expectCache = VK_NULL_HANDLE;
    std::atomic<uint32_t> calls{0};
    std::atomic<uint32_t> foreign{0};  // calls with a handle of another device (or instance)
    // VkAllocationCallbacks and VkPipelineCache parameters seen, and those equal to the expected ones.
    std::atomic<uint32_t> allocatorArgs{0}, allocatorMatches{0};
    std::atomic<uint32_t> cacheArgs{0}, cacheMatches{0};
    std::mutex mutex;
    std::string firstForeign;  // the first function called with a foreign handle
};
inline Slot gSlots[kSlots];

inline const void* keyOf(const void* handle) {
    return handle ? *static_cast<const void* const*>(handle) : nullptr;
}

template <typename T>
void inspect(Slot&, const T&) {}
inline void inspect(Slot& s, const VkAllocationCallbacks* allocator) {
    ++s.allocatorArgs;
    if (allocator == s.expectAllocator) ++s.allocatorMatches;
}
inline void inspect(Slot& s, VkPipelineCache cache) {
    ++s.cacheArgs;
    if (cache == s.expectCache) ++s.cacheMatches;
}

template <int S, typename Pfn, const char* Name>
struct Hook;
template <int S, typename R, typename H, typename... A, const char* Name>
struct Hook<S, R(VKAPI_PTR*)(H, A...), Name> {
    static inline R(VKAPI_PTR* real)(H, A...) = nullptr;
    static R VKAPI_CALL call(H handle, A... args) {
        Slot& s = gSlots[S];
        ++s.calls;
        const void* expect = std::is_same_v<H, VkPhysicalDevice> ? s.physicalKey : s.deviceKey;
        if (keyOf(handle) != expect && s.foreign++ == 0) {
            std::lock_guard lock(s.mutex);
            s.firstForeign = Name;
        }
        (inspect(s, args), ...);
        return real(handle, args...);
    }
};

namespace names {
#define SIEVE_HOOK_NAME(name) inline constexpr char name[] = #name;
#define SIEVE_HOOK_NAME2(name, alias) SIEVE_HOOK_NAME(name) SIEVE_HOOK_NAME(alias)
SIEVE_VK_INSTANCE_FUNCTIONS(SIEVE_HOOK_NAME)
SIEVE_VK_DEVICE_FUNCTIONS(SIEVE_HOOK_NAME)
SIEVE_VK_DEVICE_FUNCTIONS_13(SIEVE_HOOK_NAME2)
SIEVE_VK_OPTIONAL_FUNCTIONS(SIEVE_HOOK_NAME)
SIEVE_VK_OPTIONAL_DEVICE_FUNCTIONS(SIEVE_HOOK_NAME)
#undef SIEVE_HOOK_NAME
#undef SIEVE_HOOK_NAME2
}  // namespace names

// The wrapper of slot S for `name` (real: what the loader returned), or `real` itself for a function the
// plugin does not load.
template <int S>
PFN_vkVoidFunction wrap(const char* name, PFN_vkVoidFunction real) {
    if (!real) return nullptr;
#define SIEVE_HOOK_WRAP_AS(name_, pfn)                                                        \
    if (std::strcmp(name, #name_) == 0) {                                                     \
        Hook<S, PFN_##pfn, names::name_>::real = reinterpret_cast<PFN_##pfn>(real);           \
        return reinterpret_cast<PFN_vkVoidFunction>(&Hook<S, PFN_##pfn, names::name_>::call); \
    }
#define SIEVE_HOOK_WRAP(name_) SIEVE_HOOK_WRAP_AS(name_, name_)
#define SIEVE_HOOK_WRAP2(name_, alias) SIEVE_HOOK_WRAP_AS(name_, name_) SIEVE_HOOK_WRAP_AS(alias, name_)
    SIEVE_VK_INSTANCE_FUNCTIONS(SIEVE_HOOK_WRAP)
    SIEVE_VK_DEVICE_FUNCTIONS(SIEVE_HOOK_WRAP)
    SIEVE_VK_DEVICE_FUNCTIONS_13(SIEVE_HOOK_WRAP2)
    SIEVE_VK_OPTIONAL_FUNCTIONS(SIEVE_HOOK_WRAP)
    SIEVE_VK_OPTIONAL_DEVICE_FUNCTIONS(SIEVE_HOOK_WRAP)
#undef SIEVE_HOOK_WRAP_AS
#undef SIEVE_HOOK_WRAP
#undef SIEVE_HOOK_WRAP2
    return real;
}

template <int S>
PFN_vkVoidFunction VKAPI_CALL getDeviceProcAddr(VkDevice device, const char* name) {
    return wrap<S>(name, gSlots[S].realGetDeviceProcAddr(device, name));
}

template <int S>
PFN_vkVoidFunction VKAPI_CALL getInstanceProcAddr(VkInstance instance, const char* name) {
    if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) {
        gSlots[S].realGetDeviceProcAddr =
            reinterpret_cast<PFN_vkGetDeviceProcAddr>(vkGetInstanceProcAddr(instance, "vkGetDeviceProcAddr"));
        return reinterpret_cast<PFN_vkVoidFunction>(&getDeviceProcAddr<S>);
    }
    return wrap<S>(name, vkGetInstanceProcAddr(instance, name));
}

inline PFN_vkGetInstanceProcAddr hookedGetInstanceProcAddr(int slot) {
    return slot == 0 ? &getInstanceProcAddr<0> : &getInstanceProcAddr<1>;
}

// Clears slot `slot` for `ctx`'s device and describes that device (what the engine enabled) through the
// slot's wrappers, handing over `allocator` and `cache` in DeviceSetup.
inline sieve::Result<sieve::DeviceInfo> describe(int slot, const engine::Context& ctx,
                                                 const VkAllocationCallbacks* allocator = nullptr,
                                                 VkPipelineCache cache = VK_NULL_HANDLE) {
    Slot& s = gSlots[slot];
    s.deviceKey = keyOf(ctx.device());
    s.physicalKey = keyOf(ctx.physical());
    s.expectAllocator = allocator;
    s.expectCache = cache;
    s.calls = s.foreign = 0;
    s.allocatorArgs = s.allocatorMatches = s.cacheArgs = s.cacheMatches = 0;
    s.firstForeign.clear();
    sieve::DeviceSetup setup = ctx.deviceSetup();
    setup.getInstanceProcAddr = hookedGetInstanceProcAddr(slot);
    setup.allocator = allocator;
    setup.pipelineCache = cache;
    return sieve::describeDevice(setup);
}

// Describes `ctx`'s device again as the engine did when it created it.
inline void restore(const engine::Context& ctx) {
    auto r = sieve::describeDevice(ctx.deviceSetup());
    EXPECT_TRUE(r) << r.error().message;
}

}  // namespace testing_gpu::hooks
