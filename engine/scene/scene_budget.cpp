#include "engine/scene/scene_budget.h"

#include <atomic>
#include <cstring>
#include <vector>

#include "engine/vk/context.h"
#include "shared/draw.h"

namespace engine {

namespace {
std::atomic<uint64_t> g_memoryOverride{0};

std::string mib(uint64_t bytes) {
    const uint64_t m = (bytes + (1u << 20) - 1) >> 20;  // rounded up: "needs 0 MiB" would read oddly
    return std::to_string(m) + " MiB";
}

bool hasDeviceExtension(VkPhysicalDevice physical, const char* name) {
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> all(count);
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, all.data());
    for (const auto& e : all)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}
}  // namespace

SceneFootprint sceneFootprint(const sieve::assets::SceneData& scene) {
    SceneFootprint f;
    f.instances = scene.instances.size();
    f.fixedBytes = scene.vertices.size() * sizeof(sieve::gpu::Vertex) + scene.indices.size() * sizeof(uint32_t) +
                   scene.primitives.size() * sizeof(sieve::gpu::MeshPrimitive) +
                   scene.meshes.size() * sizeof(sieve::gpu::Mesh);
    // The default geometry pass's materials: one UV per vertex, the table, textures with their mips (4/3).
    f.fixedBytes +=
        scene.vertices.size() * sizeof(sieve::gpu::VertexUv) + scene.materials.size() * sizeof(sieve::gpu::Material);
    for (const auto& t : scene.textures) f.fixedBytes += t.rgba.size() * 4 / 3;
    uint64_t maxDraws = 1;
    for (const auto& m : scene.meshes) maxDraws = std::max<uint64_t>(maxDraws, m.primitiveCount);
    // CullingPlugin: visibility, and per phase flags, draw counts, LODs and scan offsets (u32 each);
    // each phase's draw list holds maxDraws records per instance.
    const uint64_t culling = 4 + 2 * 4 * 4;
    f.perInstanceBytes = sizeof(sieve::gpu::Instance) + sizeof(sieve::gpu::InstanceBounds) + culling +
                         2 * maxDraws * sizeof(sieve::gpu::DrawCommand);
    return f;
}

std::string checkSceneFits(const SceneFootprint& f, uint64_t deviceBytes) {
    if (f.totalBytes() <= deviceBytes) return {};
    const uint64_t fit = deviceBytes > f.fixedBytes ? (deviceBytes - f.fixedBytes) / f.perInstanceBytes : 0;
    return std::to_string(f.instances) + " instances need " + mib(f.totalBytes()) + ", the device has " +
           mib(deviceBytes) + ": at most " + std::to_string(fit) + " fit";
}

DeviceMemory deviceMemoryAvailable(Context& ctx) {
    if (uint64_t o = g_memoryOverride.load()) return {o, "test override"};
    VkPhysicalDeviceMemoryBudgetPropertiesEXT budget{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
    VkPhysicalDeviceMemoryProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2};
    const bool haveBudget = hasDeviceExtension(ctx.physical(), VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
    if (haveBudget) props.pNext = &budget;
    vkGetPhysicalDeviceMemoryProperties2(ctx.physical(), &props);
    const VkPhysicalDeviceMemoryProperties& mem = props.memoryProperties;
    // Resources are not split across heaps: the largest device-local heap bounds what fits.
    uint64_t best = 0;
    for (uint32_t h = 0; h < mem.memoryHeapCount; ++h) {
        if (!(mem.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)) continue;
        uint64_t free = 0;
        if (haveBudget) {
            free = budget.heapBudget[h] > budget.heapUsage[h] ? budget.heapBudget[h] - budget.heapUsage[h] : 0;
        } else {
            const uint64_t held = ctx.allocator().blockBytes();
            free = mem.memoryHeaps[h].size > held ? mem.memoryHeaps[h].size - held : 0;
        }
        best = std::max(best, free);
    }
    return {best, haveBudget ? "VK_EXT_memory_budget" : "heap size"};
}

void overrideDeviceMemoryBytes(uint64_t bytes) {
    g_memoryOverride = bytes;
}

}  // namespace engine
