#include "engine/scene/gpu_scene.h"

#include <algorithm>
#include <string>

#include "engine/scene/scene_budget.h"
#include "engine/vk/context.h"

namespace engine {

sieve::Result<GpuScene> GpuScene::upload(Context& ctx, const sieve::assets::SceneData& scene, bool compactBins) {
    if (std::string problem = scene.validate(); !problem.empty())
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "scene refused at upload: " + problem);
    if (scene.instances.size() > UINT32_MAX / 2)
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED,
                                "too many instances: " + std::to_string(scene.instances.size()));
    const VkDeviceSize limit = ctx.properties().limits.maxStorageBufferRange;
    if (scene.instances.size() * sizeof(sieve::gpu::Instance) > limit)
        return sieve::makeError(VK_ERROR_OUT_OF_DEVICE_MEMORY,
                                "the instance table exceeds maxStorageBufferRange (" + std::to_string(limit) +
                                    " bytes): at most " + std::to_string(limit / sizeof(sieve::gpu::Instance)) +
                                    " instances fit");
    const DeviceMemory memory = deviceMemoryAvailable(ctx);
    if (std::string problem = checkSceneFits(sceneFootprint(scene), memory.bytes); !problem.empty())
        return sieve::makeError(VK_ERROR_OUT_OF_DEVICE_MEMORY,
                                "scene refused at upload: " + problem + " (" + memory.source + ")");
    GpuScene g;
    const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    auto v = uploadTable(ctx, scene.vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | storage, "scene vertices");
    if (!v) return v.error();
    auto i = uploadTable(ctx, scene.indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT | storage, "scene indices");
    if (!i) return i.error();
    uint32_t binMask = 0;
    for (const auto& prim : scene.primitives) binMask |= prim.bin < 32 ? 1u << prim.bin : 0u;
    std::vector<sieve::gpu::MeshPrimitive> compacted;
    std::vector<uint32_t> streamBins;
    if (compactBins) {
        uint32_t index[32] = {};
        for (uint32_t b = 0; b < 32; ++b)
            if (binMask >> b & 1u) {
                index[b] = uint32_t(streamBins.size());
                streamBins.push_back(b);
            }
        compacted = scene.primitives;
        for (auto& prim : compacted) prim.bin = prim.bin < 32 ? index[prim.bin] : uint32_t(streamBins.size());
    }
    auto p = uploadTable(ctx, compactBins ? compacted : scene.primitives, storage, "scene primitives");
    if (!p) return p.error();
    auto m = uploadTable(ctx, scene.meshes, storage, "scene meshes");
    if (!m) return m.error();
    auto in = uploadTable(ctx, scene.instances, storage, "scene instances");
    if (!in) return in.error();
    auto bo = uploadTable(ctx, scene.bounds, storage, "scene instance bounds");
    if (!bo) return bo.error();
    auto mat = GpuMaterials::upload(ctx, scene);
    if (!mat) return mat.error();
    g.materials = std::move(mat).value();
    g.vertices = std::move(v).value();
    g.indices = std::move(i).value();
    g.primitives = std::move(p).value();
    g.meshes = std::move(m).value();
    g.instances = std::move(in).value();
    g.bounds = std::move(bo).value();
    g.instanceCount = uint32_t(scene.instances.size());
    for (const auto& mesh : scene.meshes) g.maxDrawsPerInstance = std::max(g.maxDrawsPerInstance, mesh.primitiveCount);
    for (const auto& inst : scene.instances) g.drawsIfAllVisible += scene.meshes[inst.mesh].primitiveCount;
    g.binMask = binMask;
    g.streamBins = std::move(streamBins);
    return g;
}

sieve::CullingConfig GpuScene::cullingConfig(uint32_t framesInFlight, VkExtent2D viewport) const {
    sieve::CullingConfig config;
    config.maxInstances = std::max(instanceCount, 1u);
    config.maxDrawsPerInstance = std::max(maxDrawsPerInstance, 1u);
    config.framesInFlight = framesInFlight;
    config.viewport = viewport;
    return config;
}

}  // namespace engine
