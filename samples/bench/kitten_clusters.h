#pragma once
// sieve-bench kitten --clusters: the kitten field culled down to clusters (meshlets of assets/meshlets.h,
// the builder of the city and the viewer) by engine::SceneRenderer with the ClusterPlugin, drawn through
// indexed indirect draws and/or mesh shaders (skipped without VK_EXT_mesh_shader), one JSON line per path
// (with triangle_cull: whether that path's mesh shaders culled triangles, the clipper counts of the
// pipeline-statistics query where the device has it, and mesh_primitives_generated: the mesh path's
// mesh-primitives-generated query, null where not counted).
//
// Capacities follow what the fixed camera can see, not N x clusters per mesh: the instances in view
// (frustum and draw distance, the GPU's predicates on spheres grown by kInViewMargin) are the only ones
// with cluster visibility slots (assets::assignInstanceSlots), the instance draw lists hold that many
// draws, and each phase's candidate and output capacity is the clusters of those instances at one LOD
// finer than the CPU's LOD choice (sieve::lodReference) for each: what the late phase of a frame with an
// empty pyramid tests. --verify checks that nothing was dropped or overflowed.
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "assets/meshlets.h"
#include "assets/scene.h"
#include "bench_util.h"
#include "cull_lines.h"
#include "engine/scene/cluster_renderer.h"
#include "sieve/culling.h"

namespace bench {

// Relative growth of the spheres tested for "can be in view" (against float differences of the GPU's test).
inline constexpr float kInViewMargin = 1e-3f;

struct KittenClusterRun {
    // scenario, n, warm-up, frames, verify (with the CPU frustum count the GPU's must equal), the fields.
    CullLines lines;
    std::vector<engine::ClusterPath> paths;  // in this order; Mesh is skipped where the device has none
    glm::mat4 view{1.0f}, proj{1.0f};
    sieve::CullView cameraView;  // with the draw distance the capacities are sized for
    VkExtent2D extent{0, 0};
    bool triangleCull = false;  // the mesh path's per-triangle culling (engine::ClusterSetup::triangleCull)
};

// Builds the harness of each path on `field` (whose indices `clusters` was built from, its instance slots
// replaced here), measures it and writes its line. Returns false when a verify check failed (printed).
sieve::Result<bool> writeKittenClusterLines(engine::Context& ctx, const sieve::assets::SceneData& field,
                                            sieve::assets::ClusterData clusters, const KittenClusterRun& run,
                                            const JsonSink& sink);

}  // namespace bench
