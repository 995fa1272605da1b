#pragma once
// Clusters (meshlets) of every LOD of every primitive, by meshoptimizer 0.18 (meshopt_buildMeshlets,
// meshopt_computeMeshletBounds): the tables of shaders/shared/cluster.h, ready to upload.
//
// buildClusters also rewrites each LOD's range of SceneData::indices into cluster order (the same
// triangles, each with its winding, grouped by cluster), so that a cluster is one contiguous indexed
// draw and the whole-LOD draw of the instance path draws the same triangles in the same order as the
// cluster draws. Vertex data and every other table stay as they were.
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "assets/expected.h"
#include "assets/scene.h"
#include "shared/cluster.h"

namespace sieve::assets {

struct ClusterSettings {
    uint32_t maxVertices = gpu::SIEVE_CLUSTER_MAX_VERTICES;    // 3..SIEVE_CLUSTER_MAX_VERTICES
    uint32_t maxTriangles = gpu::SIEVE_CLUSTER_MAX_TRIANGLES;  // 1..SIEVE_CLUSTER_MAX_TRIANGLES
    float coneWeight = 0.25f;  // meshoptimizer's balance of cluster size against cone tightness
};

struct ClusterData {
    std::vector<gpu::Cluster> clusters;
    std::vector<gpu::ClusterRange> ranges;  // primitives.size() * SIEVE_MAX_LODS (unused LODs: empty)
    std::vector<uint32_t> vertices;         // meshlet vertices, relative to MeshPrimitive::vertexOffset
    std::vector<uint32_t> triangles;        // packed: local indices a | b << 8 | c << 16
    std::vector<uint32_t> meshSlots;        // visibility slots per mesh (sum over its primitives)
    std::vector<uint32_t> instanceSlots;    // first visibility slot of each instance
    uint64_t visibilitySlots = 0;           // sum over instances
    uint32_t maxClustersPerDraw = 0;        // largest ClusterRange::clusterCount
};

// Called with the share of primitives done, in [0, 1].
using ClusterProgressFn = std::function<void(float fraction)>;

// Builds the clusters of `scene` (which must be valid, SceneData::validate) and reorders its LOD index
// ranges. Errors: bad settings, tables that would exceed 32-bit offsets or slot counts.
Expected<ClusterData> buildClusters(SceneData& scene, const ClusterSettings& settings = {},
                                    const ClusterProgressFn& progress = {});

// Which instances get visibility slots (index into SceneData::instances); empty: all of them.
using InstanceFilter = std::function<bool(size_t instance)>;

// Sets data.instanceSlots and data.visibilitySlots (returned) for scene's instances (whose meshes are the ones data
// was built from; buildClusters calls it with every instance slotted). An instance `slotted` refuses gets
// the first slot past the table: the cluster passes neither read nor write its clusters' visibility
// (shared/cluster.h ClusterPush::visibilitySlots), so they are never drawn early, only late when visible.
// For hosts that know which instances can be in view (a fixed camera) and would otherwise need
// instances x clusters-per-mesh slots. Errors: more than 2^32 slots, an instance naming an unknown mesh.
Expected<uint64_t> assignInstanceSlots(ClusterData& data, const SceneData& scene, const InstanceFilter& slotted = {});

// Local vertex k (0..2) of a packed triangle.
inline uint32_t clusterTriangleVertex(uint32_t packed, uint32_t k) {
    return (packed >> (8u * k)) & 0xffu;
}

}  // namespace sieve::assets
