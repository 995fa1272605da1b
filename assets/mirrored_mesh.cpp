#include "assets/mirrored_mesh.h"

#include <limits>
#include <string>

namespace sieve::assets {

bool isMirroring(const glm::mat4& objectToWorld) {
    return glm::determinant(glm::mat3(objectToWorld)) < 0.0f;
}

Expected<uint32_t> appendMirroredMesh(SceneData& scene, uint32_t mesh) {
    if (mesh >= scene.meshes.size())
        return Unexpected{"mirrored mesh: mesh " + std::to_string(mesh) + " does not exist"};
    const gpu::Mesh source = scene.meshes[mesh];
    if (uint64_t(source.firstPrimitive) + source.primitiveCount > scene.primitives.size())
        return Unexpected{"mirrored mesh: mesh " + std::to_string(mesh) + " has primitives outside the table"};
    uint64_t added = 0;
    for (uint32_t p = 0; p < source.primitiveCount; ++p) {
        const gpu::MeshPrimitive& prim = scene.primitives[source.firstPrimitive + p];
        for (uint32_t l = 0; l < prim.lodCount && l < gpu::SIEVE_MAX_LODS; ++l) {
            const gpu::MeshLod& lod = prim.lods[l];
            if (uint64_t(lod.firstIndex) + lod.indexCount > scene.indices.size() || lod.indexCount % 3 != 0)
                return Unexpected{"mirrored mesh: mesh " + std::to_string(mesh) + " has an invalid LOD range"};
            added += lod.indexCount;
        }
    }
    if (scene.indices.size() + added > std::numeric_limits<uint32_t>::max() ||
        scene.primitives.size() + source.primitiveCount > std::numeric_limits<uint32_t>::max() ||
        scene.meshes.size() + 1 > std::numeric_limits<uint32_t>::max())
        return Unexpected{"mirrored mesh: the scene tables would exceed 32-bit offsets"};
    scene.indices.reserve(scene.indices.size() + added);
    gpu::Mesh twin = source;
    twin.firstPrimitive = uint32_t(scene.primitives.size());
    for (uint32_t p = 0; p < source.primitiveCount; ++p) {
        gpu::MeshPrimitive prim = scene.primitives[source.firstPrimitive + p];
        for (uint32_t l = 0; l < prim.lodCount && l < gpu::SIEVE_MAX_LODS; ++l) {
            gpu::MeshLod& lod = prim.lods[l];
            const uint32_t first = uint32_t(scene.indices.size());
            for (uint32_t t = 0; t < lod.indexCount; t += 3) {
                // By position, not by iterator: the vector being read is the one growing.
                const uint32_t a = scene.indices[lod.firstIndex + t], b = scene.indices[lod.firstIndex + t + 1],
                               c = scene.indices[lod.firstIndex + t + 2];
                scene.indices.insert(scene.indices.end(), {a, c, b});
            }
            lod.firstIndex = first;
        }
        scene.primitives.push_back(prim);
    }
    scene.meshes.push_back(twin);
    if (!scene.meshNames.empty()) {
        std::string name = mesh < scene.meshNames.size() ? scene.meshNames[mesh] : "mesh " + std::to_string(mesh);
        scene.meshNames.push_back(name + " (mirrored)");
    }
    return uint32_t(scene.meshes.size() - 1);
}

Expected<uint32_t> MirroredMeshes::twinOf(SceneData& scene, uint32_t mesh) {
    if (twins_.size() <= mesh) twins_.resize(size_t(mesh) + 1, -1);
    if (twins_[mesh] >= 0) return uint32_t(twins_[mesh]);
    auto twin = appendMirroredMesh(scene, mesh);
    if (!twin) return twin;
    twins_[mesh] = int64_t(*twin);
    return twin;
}

}  // namespace sieve::assets
