#pragma once
// A SceneData uploaded to device buffers: one vertex and one index buffer, the primitive, mesh and
// instance tables (shared/scene.h layouts), and what the default geometry pass's materials read.
#include "assets/scene.h"
#include "engine/scene/gpu_materials.h"
#include "engine/vk/resources.h"

namespace engine {

struct GpuScene {
    Buffer vertices;
    Buffer indices;
    Buffer primitives;
    Buffer meshes;
    Buffer instances;
    GpuMaterials materials;  // UVs, material table, textures
    uint32_t instanceCount = 0;
    uint32_t maxDrawsPerInstance = 0;  // largest primitiveCount of any mesh
    uint64_t drawsIfAllVisible = 0;    // sum of primitiveCount over the instances
    uint32_t binMask = 0;              // bit b: some primitive has MeshPrimitive::bin b (b < 32)

    // Validates the scene (refusing NaN/Inf transforms and bounds, out-of-range indices), checks that it
    // and the culling buffers sized for it fit in the device memory left (scene_budget.h), and uploads it.
    static sieve::Result<GpuScene> upload(Context& ctx, const sieve::assets::SceneData& scene);
};

}  // namespace engine
