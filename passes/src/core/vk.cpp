#include "core/vk.h"

#include <string>

namespace sieve {

#define SIEVE_VK_DEFINE(name) PFN_##name name = nullptr;
#define SIEVE_VK_DEFINE2(name, alias) PFN_##name name = nullptr;
SIEVE_VK_INSTANCE_FUNCTIONS(SIEVE_VK_DEFINE)
SIEVE_VK_DEVICE_FUNCTIONS(SIEVE_VK_DEFINE)
SIEVE_VK_DEVICE_FUNCTIONS_13(SIEVE_VK_DEFINE2)
SIEVE_VK_OPTIONAL_FUNCTIONS(SIEVE_VK_DEFINE)
SIEVE_VK_OPTIONAL_DEVICE_FUNCTIONS(SIEVE_VK_DEFINE)
#undef SIEVE_VK_DEFINE
#undef SIEVE_VK_DEFINE2

namespace detail {

namespace {
VkDevice gDevice = VK_NULL_HANDLE;
}

VkDevice loadedDevice() {
    return gDevice;
}

Result<void> loadEntryPoints(PFN_vkGetInstanceProcAddr gipa, VkInstance instance, VkDevice device) {
    if (!gipa) return makeError(VK_ERROR_INITIALIZATION_FAILED, "sieve: no vkGetInstanceProcAddr given");
    if (!instance || !device)
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "sieve: the VkInstance and VkDevice must not be null");
    std::string missing;
    auto note = [&](const char* name) { missing += std::string(missing.empty() ? "" : ", ") + name; };
#define SIEVE_VK_LOAD_INSTANCE(name)                            \
    name = reinterpret_cast<PFN_##name>(gipa(instance, #name)); \
    if (!name) note(#name);
    SIEVE_VK_INSTANCE_FUNCTIONS(SIEVE_VK_LOAD_INSTANCE)
#undef SIEVE_VK_LOAD_INSTANCE
    if (!vkGetDeviceProcAddr) return makeError(VK_ERROR_INITIALIZATION_FAILED, "sieve: the instance has no " + missing);
    auto device_fn = [&](const char* name) { return vkGetDeviceProcAddr(device, name); };
#define SIEVE_VK_LOAD_DEVICE(name)                         \
    name = reinterpret_cast<PFN_##name>(device_fn(#name)); \
    if (!name) note(#name);
// The KHR name first: on a 1.2 device with the extension it is the valid one, even where a layer
// also answers the core name; on 1.3 without the extension it is null and the core one is taken.
#define SIEVE_VK_LOAD_DEVICE2(name, alias)                            \
    name = reinterpret_cast<PFN_##name>(device_fn(#alias));           \
    if (!name) name = reinterpret_cast<PFN_##name>(device_fn(#name)); \
    if (!name) note(#name " (or " #alias ")");
#define SIEVE_VK_LOAD_OPTIONAL(name) name = reinterpret_cast<PFN_##name>(gipa(instance, #name));
    SIEVE_VK_DEVICE_FUNCTIONS(SIEVE_VK_LOAD_DEVICE)
    SIEVE_VK_DEVICE_FUNCTIONS_13(SIEVE_VK_LOAD_DEVICE2)
    SIEVE_VK_OPTIONAL_FUNCTIONS(SIEVE_VK_LOAD_OPTIONAL)
#define SIEVE_VK_LOAD_OPTIONAL_DEVICE(name) name = reinterpret_cast<PFN_##name>(device_fn(#name));
    SIEVE_VK_OPTIONAL_DEVICE_FUNCTIONS(SIEVE_VK_LOAD_OPTIONAL_DEVICE)
#undef SIEVE_VK_LOAD_OPTIONAL_DEVICE
#undef SIEVE_VK_LOAD_DEVICE
#undef SIEVE_VK_LOAD_DEVICE2
#undef SIEVE_VK_LOAD_OPTIONAL
    if (!missing.empty()) {
        gDevice = VK_NULL_HANDLE;
        return makeError(VK_ERROR_EXTENSION_NOT_PRESENT,
                         "sieve: the device does not provide " + missing +
                             " (enable what sieve::requirements() lists: Vulkan 1.3 or 1.2 with its KHR "
                             "extensions, and VK_KHR_push_descriptor)");
    }
    gDevice = device;
    return {};
}

}  // namespace detail
}  // namespace sieve
