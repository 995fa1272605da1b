#include "assets/meshlets.h"

#include <meshoptimizer.h>

#include <algorithm>
#include <limits>
#include <string>

namespace sieve::assets {

namespace {

constexpr uint64_t kMaxU32 = std::numeric_limits<uint32_t>::max();

// Vertices a primitive's LODs reference: one past the largest index.
uint32_t primitiveVertexCount(const SceneData& scene, const gpu::MeshPrimitive& prim) {
    uint32_t count = 0;
    for (uint32_t l = 0; l < prim.lodCount; ++l)
        for (uint32_t i = 0; i < prim.lods[l].indexCount; ++i)
            count = std::max(count, scene.indices[prim.lods[l].firstIndex + i] + 1);
    return count;
}

// The clusters of one LOD; rewrites its index range in cluster order.
Expected<uint32_t> buildLod(SceneData& scene, const gpu::MeshPrimitive& prim, uint32_t lod, const ClusterSettings& s,
                            ClusterData& out) {
    const gpu::MeshLod& l = prim.lods[lod];
    const uint32_t vertexCount = primitiveVertexCount(scene, prim);
    const float* positions = &scene.vertices[size_t(prim.vertexOffset)].px;
    const size_t stride = sizeof(gpu::Vertex);
    const uint32_t* indices = scene.indices.data() + l.firstIndex;
    const size_t bound = meshopt_buildMeshletsBound(l.indexCount, s.maxVertices, s.maxTriangles);
    std::vector<meshopt_Meshlet> meshlets(bound);
    std::vector<unsigned int> meshletVertices(bound * s.maxVertices);
    std::vector<unsigned char> meshletTriangles(bound * s.maxTriangles * 3);
    const size_t count =
        meshopt_buildMeshlets(meshlets.data(), meshletVertices.data(), meshletTriangles.data(), indices, l.indexCount,
                              positions, vertexCount, stride, s.maxVertices, s.maxTriangles, s.coneWeight);
    std::vector<uint32_t> reordered;
    reordered.reserve(l.indexCount);
    for (size_t m = 0; m < count; ++m) {
        const meshopt_Meshlet& ml = meshlets[m];
        const meshopt_Bounds b =
            meshopt_computeMeshletBounds(&meshletVertices[ml.vertex_offset], &meshletTriangles[ml.triangle_offset],
                                         ml.triangle_count, positions, vertexCount, stride);
        if (out.clusters.size() >= kMaxU32 || out.vertices.size() + ml.vertex_count > kMaxU32 ||
            out.triangles.size() + ml.triangle_count > kMaxU32)
            return Unexpected{"clusters: the cluster tables would exceed 2^32 entries"};
        gpu::Cluster c{};
        c.sphere = gpu::vec4(b.center[0], b.center[1], b.center[2], b.radius);
        c.cone = gpu::vec4(b.cone_axis[0], b.cone_axis[1], b.cone_axis[2], b.cone_cutoff);
        c.firstIndex = l.firstIndex + uint32_t(reordered.size());
        c.triangleCount = ml.triangle_count;
        c.vertexOffset = uint32_t(out.vertices.size());
        c.vertexCount = ml.vertex_count;
        c.triangleOffset = uint32_t(out.triangles.size());
        out.vertices.insert(out.vertices.end(), meshletVertices.begin() + ml.vertex_offset,
                            meshletVertices.begin() + ml.vertex_offset + ml.vertex_count);
        for (uint32_t t = 0; t < ml.triangle_count; ++t) {
            const unsigned char* tri = &meshletTriangles[ml.triangle_offset + 3 * t];
            out.triangles.push_back(uint32_t(tri[0]) | uint32_t(tri[1]) << 8 | uint32_t(tri[2]) << 16);
            for (int k = 0; k < 3; ++k) reordered.push_back(meshletVertices[ml.vertex_offset + tri[k]]);
        }
        out.clusters.push_back(c);
    }
    // meshopt_buildMeshlets places every triangle exactly once; anything else would lose geometry.
    if (reordered.size() != l.indexCount)
        return Unexpected{"clusters: meshoptimizer kept " + std::to_string(reordered.size()) + " of " +
                          std::to_string(l.indexCount) + " indices of a LOD"};
    std::copy(reordered.begin(), reordered.end(), scene.indices.begin() + l.firstIndex);
    return uint32_t(count);
}

}  // namespace

Expected<ClusterData> buildClusters(SceneData& scene, const ClusterSettings& s, const ClusterProgressFn& progress) {
    if (s.maxVertices < 3 || s.maxVertices > gpu::SIEVE_CLUSTER_MAX_VERTICES || s.maxTriangles < 1 ||
        s.maxTriangles > gpu::SIEVE_CLUSTER_MAX_TRIANGLES || !(s.coneWeight >= 0.0f && s.coneWeight <= 1.0f))
        return Unexpected{"clusters: settings out of range (vertices 3.." +
                          std::to_string(gpu::SIEVE_CLUSTER_MAX_VERTICES) + ", triangles 1.." +
                          std::to_string(gpu::SIEVE_CLUSTER_MAX_TRIANGLES) + ", cone weight 0..1)"};
    if (std::string problem = scene.validate(); !problem.empty()) return Unexpected{"clusters: " + problem};
    ClusterData out;
    out.ranges.assign(scene.primitives.size() * gpu::SIEVE_MAX_LODS, gpu::ClusterRange{});
    std::vector<uint32_t> primitiveSlots(scene.primitives.size(), 0);
    for (size_t p = 0; p < scene.primitives.size(); ++p) {
        const gpu::MeshPrimitive& prim = scene.primitives[p];
        for (uint32_t lod = 0; lod < prim.lodCount; ++lod) {
            gpu::ClusterRange& r = out.ranges[p * gpu::SIEVE_MAX_LODS + lod];
            r.firstCluster = uint32_t(out.clusters.size());
            auto built = buildLod(scene, prim, lod, s, out);
            if (!built) return Unexpected{built.error()};
            r.clusterCount = built.value();
            primitiveSlots[p] = std::max(primitiveSlots[p], r.clusterCount);
            out.maxClustersPerDraw = std::max(out.maxClustersPerDraw, r.clusterCount);
        }
        if (progress && (p % 64 == 63 || p + 1 == scene.primitives.size()))
            progress(float(p + 1) / float(scene.primitives.size()));
    }
    out.meshSlots.assign(scene.meshes.size(), 0);
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        const gpu::Mesh& mesh = scene.meshes[m];
        uint64_t slots = 0;
        for (uint32_t k = 0; k < mesh.primitiveCount; ++k) {
            const uint32_t p = mesh.firstPrimitive + k;
            for (uint32_t lod = 0; lod < gpu::SIEVE_MAX_LODS; ++lod)
                out.ranges[size_t(p) * gpu::SIEVE_MAX_LODS + lod].visibilitySlot = uint32_t(slots);
            slots += primitiveSlots[p];
        }
        if (slots > kMaxU32) return Unexpected{"clusters: a mesh has more than 2^32 clusters"};
        out.meshSlots[m] = uint32_t(slots);
    }
    if (auto slots = assignInstanceSlots(out, scene); !slots) return Unexpected{slots.error()};
    return out;
}

Expected<uint64_t> assignInstanceSlots(ClusterData& data, const SceneData& scene, const InstanceFilter& slotted) {
    uint32_t maxMeshSlots = 0;
    for (const gpu::Instance& inst : scene.instances) {
        if (inst.mesh >= data.meshSlots.size())
            return Unexpected{"clusters: an instance names mesh " + std::to_string(inst.mesh) + " of " +
                              std::to_string(data.meshSlots.size())};
        maxMeshSlots = std::max(maxMeshSlots, data.meshSlots[inst.mesh]);
    }
    std::vector<uint32_t> slots;
    slots.reserve(scene.instances.size());
    uint64_t total = 0;
    std::vector<bool> unslotted(scene.instances.size(), false);
    bool anyUnslotted = false;
    for (size_t i = 0; i < scene.instances.size(); ++i) {
        if (slotted && !slotted(i)) {
            unslotted[i] = anyUnslotted = true;
            slots.push_back(0);
            continue;
        }
        slots.push_back(uint32_t(total));
        total += data.meshSlots[scene.instances[i].mesh];
        if (total > kMaxU32)
            return Unexpected{"clusters: the instances have more than 2^32 clusters in all (" + std::to_string(total) +
                              "+)"};
    }
    // Past the table: every slot of an unslotted instance (base + primitive slot + cluster) lies in
    // [total, total + its mesh's slots), which must not wrap in 32 bits.
    if (anyUnslotted && total + maxMeshSlots > kMaxU32 + 1)
        return Unexpected{"clusters: no room past the " + std::to_string(total) +
                          " visibility slots for the instances without slots"};
    for (size_t i = 0; anyUnslotted && i < slots.size(); ++i)
        if (unslotted[i]) slots[i] = uint32_t(total);
    data.instanceSlots = std::move(slots);
    data.visibilitySlots = total;
    return total;
}

}  // namespace sieve::assets
