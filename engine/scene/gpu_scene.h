#pragma once
// A SceneData uploaded to device buffers: one vertex and one index buffer, the primitive, mesh and
// instance tables (shared/scene.h layouts), and what the default geometry pass's materials read.
#include <algorithm>
#include <vector>

#include "assets/scene.h"
#include "engine/scene/gpu_materials.h"
#include "engine/vk/resources.h"
#include "sieve/culling.h"

namespace engine {

// A device-local table filled with `data` (at least 16 bytes, so that empty tables still bind).
template <typename T>
sieve::Result<Buffer> uploadTable(Context& ctx, const std::vector<T>& data, VkBufferUsageFlags usage,
                                  const char* name) {
    auto b = Buffer::create(ctx, std::max<VkDeviceSize>(data.size() * sizeof(T), 16),
                            usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::DeviceLocal, name);
    if (!b) return b.error();
    if (auto r = uploadBuffer(ctx, b.value(), data.data(), data.size() * sizeof(T)); !r) return r.error();
    return b;
}

struct GpuScene {
    Buffer vertices;
    Buffer indices;
    Buffer primitives;
    Buffer meshes;
    Buffer instances;
    Buffer bounds;           // gpu::InstanceBounds per instance
    GpuMaterials materials;  // UVs, material table, textures
    uint32_t instanceCount = 0;
    uint32_t maxDrawsPerInstance = 0;  // largest primitiveCount of any mesh
    uint64_t drawsIfAllVisible = 0;    // sum of primitiveCount over the instances
    uint32_t binMask = 0;              // bit b: some primitive has MeshPrimitive::bin b (b < 32)
    // With compactBins: the bins in use, ascending; the uploaded MeshPrimitive::bin is the index into
    // this list (the culling's stream of that bin), so a scene of k bins needs k streams per view, not
    // assets::kBinCount. Empty without compactBins (the uploaded bins are the scene's).
    std::vector<uint32_t> streamBins;

    // Validates the scene (refusing NaN/Inf transforms and bounds, out-of-range indices), checks that it
    // and the culling buffers sized for it fit in the device memory left (scene_budget.h), and uploads it.
    static sieve::Result<GpuScene> upload(Context& ctx, const sieve::assets::SceneData& scene,
                                          bool compactBins = false);
    // The culling plugin's configuration with room for this scene's instances and their draws, the rest
    // at its defaults.
    sieve::CullingConfig cullingConfig(uint32_t framesInFlight, VkExtent2D viewport) const;
};

}  // namespace engine
