#include "core/vk.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sieve::detail {

constinit Registry<DeviceTable> gDeviceTables;
constinit Registry<InstanceTable> gInstanceTables;

namespace {

std::atomic<uint64_t> gUndescribed{0};

// Everything the registries ever published, reachable for the life of the process (never destroyed: a
// component destroyed during static destruction may still call through its table).
struct Storage {
    std::mutex mutex;
    std::vector<std::unique_ptr<RegistryNode<DeviceTable>>> deviceNodes;
    std::vector<std::unique_ptr<RegistryNode<InstanceTable>>> instanceNodes;
    std::vector<std::unique_ptr<DeviceTable>> deviceTables;
    std::vector<std::unique_ptr<InstanceTable>> instanceTables;
};
Storage& storage() {
    static Storage* s = new Storage();
    return *s;
}

// Publishes `table` for `key` (the caller holds the storage mutex). An equal table already published for
// the key is kept, so describing a device again allocates nothing.
template <typename Table>
void publish(Registry<Table>& registry, std::vector<std::unique_ptr<RegistryNode<Table>>>& nodes,
             std::vector<std::unique_ptr<Table>>& tables, const void* key, const Table& table) {
    RegistryNode<Table>* node = nullptr;
    for (const auto& n : nodes)
        if (n->key == key) node = n.get();
    if (node) {
        const Table* old = node->table.load(std::memory_order_relaxed);
        if (std::memcmp(old, &table, sizeof(Table)) == 0) return;
    }
    tables.push_back(std::make_unique<Table>(table));
    if (node) {
        node->table.store(tables.back().get(), std::memory_order_release);
        return;
    }
    nodes.push_back(std::make_unique<RegistryNode<Table>>());
    node = nodes.back().get();
    node->key = key;
    node->table.store(tables.back().get(), std::memory_order_relaxed);
    node->next = registry.head.load(std::memory_order_relaxed);
    registry.head.store(node, std::memory_order_release);
}

std::string hex(const void* p) {
    char text[32];
    std::snprintf(text, sizeof(text), "0x%" PRIxPTR, reinterpret_cast<uintptr_t>(p));
    return text;
}

}  // namespace

void undescribedCall(const char* function, bool described) noexcept {
    if (gUndescribed.fetch_add(1, std::memory_order_relaxed) == 0)
        std::fprintf(stderr,
                     described ? "sieve: %s is not provided by the device it was called for; the call did nothing\n"
                               : "sieve: %s was called with a handle of a device never described to "
                                 "sieve::describeDevice; the call did nothing\n",
                     function);
}

uint64_t undescribedCalls() noexcept {
    return gUndescribed.load(std::memory_order_relaxed);
}

Result<void> loadEntryPoints(PFN_vkGetInstanceProcAddr gipa, VkInstance instance, VkPhysicalDevice physical,
                             VkDevice device) {
    if (!gipa) return makeError(VK_ERROR_INITIALIZATION_FAILED, "sieve: no vkGetInstanceProcAddr given");
    if (!instance || !physical || !device)
        return makeError(VK_ERROR_INITIALIZATION_FAILED,
                         "sieve: the VkInstance, VkPhysicalDevice and VkDevice must not be null");
    std::string missing;
    auto note = [&](const char* name) { missing += std::string(missing.empty() ? "" : ", ") + name; };
    InstanceTable it;
    DeviceTable dt;
#define SIEVE_VK_LOAD_INSTANCE(name)                               \
    it.name = reinterpret_cast<PFN_##name>(gipa(instance, #name)); \
    if (!it.name) note(#name);
    SIEVE_VK_INSTANCE_FUNCTIONS(SIEVE_VK_LOAD_INSTANCE)
#undef SIEVE_VK_LOAD_INSTANCE
    auto getDeviceProcAddr = reinterpret_cast<PFN_vkGetDeviceProcAddr>(gipa(instance, "vkGetDeviceProcAddr"));
    if (!getDeviceProcAddr) {
        note("vkGetDeviceProcAddr");
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "sieve: the instance has no " + missing);
    }
    auto device_fn = [&](const char* name) { return getDeviceProcAddr(device, name); };
#define SIEVE_VK_LOAD_DEVICE(name)                            \
    dt.name = reinterpret_cast<PFN_##name>(device_fn(#name)); \
    if (!dt.name) note(#name);
// The KHR name first: on a 1.2 device with the extension it is the valid one, even where a layer
// also answers the core name; on 1.3 without the extension it is null and the core one is taken.
#define SIEVE_VK_LOAD_DEVICE2(name, alias)                                  \
    dt.name = reinterpret_cast<PFN_##name>(device_fn(#alias));              \
    if (!dt.name) dt.name = reinterpret_cast<PFN_##name>(device_fn(#name)); \
    if (!dt.name) note(#name " (or " #alias ")");
#define SIEVE_VK_LOAD_OPTIONAL(name) dt.name = reinterpret_cast<PFN_##name>(gipa(instance, #name));
#define SIEVE_VK_LOAD_OPTIONAL_DEVICE(name) dt.name = reinterpret_cast<PFN_##name>(device_fn(#name));
    SIEVE_VK_DEVICE_FUNCTIONS(SIEVE_VK_LOAD_DEVICE)
    SIEVE_VK_DEVICE_FUNCTIONS_13(SIEVE_VK_LOAD_DEVICE2)
    SIEVE_VK_OPTIONAL_FUNCTIONS(SIEVE_VK_LOAD_OPTIONAL)
    SIEVE_VK_OPTIONAL_DEVICE_FUNCTIONS(SIEVE_VK_LOAD_OPTIONAL_DEVICE)
#undef SIEVE_VK_LOAD_OPTIONAL_DEVICE
#undef SIEVE_VK_LOAD_DEVICE
#undef SIEVE_VK_LOAD_DEVICE2
#undef SIEVE_VK_LOAD_OPTIONAL
    if (!missing.empty())
        return makeError(VK_ERROR_EXTENSION_NOT_PRESENT,
                         "sieve: the device does not provide " + missing +
                             " (enable what sieve::requirements() lists: Vulkan 1.3 or 1.2 with its KHR "
                             "extensions, and VK_KHR_push_descriptor)");
    Storage& s = storage();
    std::lock_guard lock(s.mutex);
    publish(gInstanceTables, s.instanceNodes, s.instanceTables, dispatchKey(physical), it);
    publish(gDeviceTables, s.deviceNodes, s.deviceTables, dispatchKey(device), dt);
    return {};
}

Result<void> checkDescribed(VkDevice device, VkPhysicalDevice physical, const char* who) {
    if (!deviceTable(device))
        return makeError(VK_ERROR_INITIALIZATION_FAILED,
                         std::string(who) + ": VkDevice " + hex(device) +
                             " was never described (sieve::describeDevice loads the plugin's entry points for it)");
    if (physical && !instanceTable(physical))
        return makeError(VK_ERROR_INITIALIZATION_FAILED,
                         std::string(who) + ": VkPhysicalDevice " + hex(physical) +
                             " was never described (sieve::describeDevice loads the plugin's entry points for it)");
    return {};
}

DeviceTable deviceFunctions(VkDevice device) {
    const DeviceTable* t = deviceTable(device);
    return t ? *t : DeviceTable{};
}

Result<void> replaceDeviceFunctions(VkDevice device, const DeviceTable& table) {
    if (!deviceTable(device))
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "replaceDeviceFunctions: the device was never described");
    Storage& s = storage();
    std::lock_guard lock(s.mutex);
    publish(gDeviceTables, s.deviceNodes, s.deviceTables, dispatchKey(device), table);
    return {};
}

}  // namespace sieve::detail
