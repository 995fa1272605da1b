#include "assets/scene_bounds.h"

#include <vector>

namespace sieve::assets {

std::pair<glm::vec3, glm::vec3> geometryBounds(const SceneData& s) {
    struct Box {
        glm::vec3 mn{1e30f}, mx{-1e30f};
    };
    std::vector<Box> meshes(s.meshes.size());
    for (size_t m = 0; m < s.meshes.size(); ++m) {
        const gpu::Mesh& mesh = s.meshes[m];
        for (uint32_t p = 0; p < mesh.primitiveCount; ++p) {
            const size_t pi = size_t(mesh.firstPrimitive) + p;
            if (pi >= s.primitives.size()) break;
            const gpu::MeshPrimitive& prim = s.primitives[pi];
            const gpu::MeshLod& lod = prim.lods[0];
            for (uint32_t i = 0; i < lod.indexCount; ++i) {
                const size_t ii = size_t(lod.firstIndex) + i;
                if (ii >= s.indices.size()) break;
                const int64_t v = int64_t(prim.vertexOffset) + s.indices[ii];
                if (v < 0 || size_t(v) >= s.vertices.size()) continue;
                const glm::vec3 q(s.vertices[size_t(v)].px, s.vertices[size_t(v)].py, s.vertices[size_t(v)].pz);
                meshes[m].mn = glm::min(meshes[m].mn, q), meshes[m].mx = glm::max(meshes[m].mx, q);
            }
        }
    }
    glm::vec3 mn(1e30f), mx(-1e30f);
    for (const gpu::Instance& inst : s.instances) {
        if (inst.mesh >= meshes.size()) continue;
        const Box& b = meshes[inst.mesh];
        if (b.mn.x > b.mx.x) continue;
        const glm::mat4 t = instanceTransform(inst);
        for (int k = 0; k < 8; ++k) {
            const glm::vec3 c(k & 1 ? b.mx.x : b.mn.x, k & 2 ? b.mx.y : b.mn.y, k & 4 ? b.mx.z : b.mn.z);
            const glm::vec3 w = glm::vec3(t * glm::vec4(c, 1.0f));
            mn = glm::min(mn, w), mx = glm::max(mx, w);
        }
    }
    return {mn, mx};
}

}  // namespace sieve::assets
