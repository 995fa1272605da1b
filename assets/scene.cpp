#include "assets/scene.h"

#include <algorithm>
#include <cmath>

#include "assets/glm_interop.h"

namespace sieve::assets {
namespace {

bool finite(const gpu::vec4& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) && std::isfinite(v.w);
}

std::string validatePrimitive(const SceneData& s, size_t p) {
    const gpu::MeshPrimitive& prim = s.primitives[p];
    std::string where = "primitive " + std::to_string(p) + ": ";
    if (prim.lodCount < 1 || prim.lodCount > gpu::SIEVE_MAX_LODS)
        return where + "lodCount " + std::to_string(prim.lodCount) + " outside 1.." +
               std::to_string(gpu::SIEVE_MAX_LODS);
    if (prim.vertexOffset < 0 || static_cast<uint64_t>(prim.vertexOffset) >= s.vertices.size())
        return where + "vertexOffset " + std::to_string(prim.vertexOffset) + " outside the vertex buffer (" +
               std::to_string(s.vertices.size()) + " vertices)";
    uint64_t verticesLeft = s.vertices.size() - static_cast<uint64_t>(prim.vertexOffset);
    for (uint32_t l = 0; l < prim.lodCount; ++l) {
        const gpu::MeshLod& lod = prim.lods[l];
        std::string at = where + "LOD " + std::to_string(l) + ": ";
        if (lod.indexCount == 0 || lod.indexCount % 3 != 0)
            return at + "index count " + std::to_string(lod.indexCount) + " is not a positive multiple of 3";
        if (uint64_t(lod.firstIndex) + lod.indexCount > s.indices.size())
            return at + "index range [" + std::to_string(lod.firstIndex) + ", +" + std::to_string(lod.indexCount) +
                   ") outside the index buffer (" + std::to_string(s.indices.size()) + ")";
        if (!std::isfinite(lod.error) || lod.error < 0.0f) return at + "error is negative or not finite";
        if (l > 0) {
            if (lod.indexCount >= prim.lods[l - 1].indexCount) return at + "index count does not decrease";
            if (lod.error < prim.lods[l - 1].error) return at + "error decreases";
        }
        for (uint32_t i = 0; i < lod.indexCount; ++i) {
            uint32_t index = s.indices[lod.firstIndex + i];
            if (index >= verticesLeft)
                return at + "index " + std::to_string(index) + " + vertexOffset outside the vertex buffer";
        }
    }
    return {};
}

std::string validateMaterials(const SceneData& s) {
    if (!s.uvs.empty() && s.uvs.size() != s.vertices.size())
        return "uvs has " + std::to_string(s.uvs.size()) + " entries for " + std::to_string(s.vertices.size()) +
               " vertices";
    if (s.textures.size() >= gpu::SIEVE_MAX_TEXTURES)
        return std::to_string(s.textures.size()) + " textures: at most " + std::to_string(gpu::SIEVE_MAX_TEXTURES - 1) +
               " fit the default geometry pass";
    for (size_t t = 0; t < s.textures.size(); ++t) {
        const Texture& tex = s.textures[t];
        if (tex.width == 0 || tex.height == 0 || tex.width > 16384 || tex.height > 16384 ||
            tex.rgba.size() != size_t(tex.width) * tex.height * 4)
            return "texture " + std::to_string(t) + ": size " + std::to_string(tex.width) + "x" +
                   std::to_string(tex.height) + " does not match its " + std::to_string(tex.rgba.size()) + " bytes";
    }
    for (size_t m = 0; m < s.materials.size(); ++m) {
        const gpu::Material& mat = s.materials[m];
        const std::string where = "material " + std::to_string(m) + ": ";
        if (mat.alphaMode > gpu::SIEVE_ALPHA_BLEND) return where + "alpha mode " + std::to_string(mat.alphaMode);
        for (uint32_t t : {mat.baseColorTexture, mat.normalTexture, mat.emissiveTexture})
            if (t > s.textures.size()) return where + "texture " + std::to_string(t) + " outside the texture table";
        if (!finite(mat.baseColorFactor) || !std::isfinite(mat.alphaCutoff))
            return where + "colour factor or alpha cutoff is not finite";
    }
    if (!s.materials.empty())
        for (size_t p = 0; p < s.primitives.size(); ++p)
            if (s.primitives[p].material >= s.materials.size())
                return "primitive " + std::to_string(p) + ": material " + std::to_string(s.primitives[p].material) +
                       " outside the material table (" + std::to_string(s.materials.size()) + ")";
    return {};
}

}  // namespace

std::string SceneData::validate() const {
    if (!meshNames.empty() && meshNames.size() != meshes.size())
        return "meshNames has " + std::to_string(meshNames.size()) + " entries for " + std::to_string(meshes.size()) +
               " meshes";
    for (size_t v = 0; v < vertices.size(); ++v)
        if (!std::isfinite(vertices[v].px) || !std::isfinite(vertices[v].py) || !std::isfinite(vertices[v].pz))
            return "vertex " + std::to_string(v) + ": position is not finite";
    for (size_t p = 0; p < primitives.size(); ++p)
        if (std::string e = validatePrimitive(*this, p); !e.empty()) return e;
    if (std::string e = validateMaterials(*this); !e.empty()) return e;
    for (size_t m = 0; m < meshes.size(); ++m) {
        const gpu::Mesh& mesh = meshes[m];
        std::string where = "mesh " + std::to_string(m) + ": ";
        if (mesh.primitiveCount == 0) return where + "has no primitives";
        if (uint64_t(mesh.firstPrimitive) + mesh.primitiveCount > primitives.size())
            return where + "primitive range outside the primitive table";
        if (!finite(mesh.sphere) || mesh.sphere.w < 0.0f) return where + "bounding sphere is invalid";
    }
    if (bounds.size() != instances.size())
        return std::to_string(instances.size()) + " instances but " + std::to_string(bounds.size()) +
               " instance bounds: one each";
    for (size_t i = 0; i < instances.size(); ++i) {
        const gpu::Instance& inst = instances[i];
        const gpu::vec4& sphere = bounds[i].sphere;
        std::string where = "instance " + std::to_string(i) + ": ";
        if (inst.mesh >= meshes.size()) return where + "mesh " + std::to_string(inst.mesh) + " outside the mesh table";
        if (!finite(inst.rows[0]) || !finite(inst.rows[1]) || !finite(inst.rows[2]))
            return where + "transform is not finite";
        if (!finite(sphere) || sphere.w < 0.0f) return where + "bounding sphere is invalid";
        if (!std::isfinite(inst.scale) || inst.scale < 0.0f) return where + "scale is invalid";
    }
    return {};
}

uint64_t SceneData::meshTriangles(uint32_t mesh, uint32_t lod) const {
    if (mesh >= meshes.size()) return 0;
    uint64_t triangles = 0;
    const gpu::Mesh& m = meshes[mesh];
    for (uint32_t p = m.firstPrimitive; p < m.firstPrimitive + m.primitiveCount && p < primitives.size(); ++p) {
        const gpu::MeshPrimitive& prim = primitives[p];
        if (prim.lodCount == 0) continue;
        uint32_t l = std::min(lod, std::min(prim.lodCount, gpu::SIEVE_MAX_LODS) - 1);
        triangles += prim.lods[l].indexCount / 3;
    }
    return triangles;
}

SceneStats SceneData::stats() const {
    SceneStats s;
    s.instances = instances.size();
    s.meshes = meshes.size();
    s.primitives = primitives.size();
    s.vertices = vertices.size();
    s.indices = indices.size();
    std::vector<uint64_t> perMesh(meshes.size(), 0);
    for (const gpu::Instance& inst : instances)
        if (inst.mesh < perMesh.size()) ++perMesh[inst.mesh];
    for (uint32_t m = 0; m < meshes.size(); ++m) {
        uint64_t tris = meshTriangles(m, 0);
        s.uniqueTriangles += tris;
        s.instancedTriangles += tris * perMesh[m];
        s.instancedDraws += uint64_t(meshes[m].primitiveCount) * perMesh[m];
    }
    return s;
}

void SceneData::updateBounds() {
    boundsMin = glm::vec3(1e30f);
    boundsMax = glm::vec3(-1e30f);
    for (const gpu::InstanceBounds& b : bounds) {
        glm::vec3 c = toGlm3(b.sphere);
        boundsMin = glm::min(boundsMin, c - b.sphere.w);
        boundsMax = glm::max(boundsMax, c + b.sphere.w);
    }
}

void SceneData::addInstance(const PlacedInstance& placed) {
    instances.push_back(placed.instance);
    bounds.push_back(placed.bounds);
}

float maxAxisScale(const glm::mat3& linear) {
    glm::vec3 len2(glm::dot(linear[0], linear[0]), glm::dot(linear[1], linear[1]), glm::dot(linear[2], linear[2]));
    float maxLen2 = std::max(len2.x, std::max(len2.y, len2.z));
    // Orthogonal columns: the column lengths are the singular values. Tolerance relative to the sizes.
    float tol = 1e-5f * maxLen2;
    bool orthogonal = std::abs(glm::dot(linear[0], linear[1])) <= tol &&
                      std::abs(glm::dot(linear[0], linear[2])) <= tol &&
                      std::abs(glm::dot(linear[1], linear[2])) <= tol;
    if (orthogonal) return std::sqrt(maxLen2) * (1.0f + 1e-6f);
    return std::sqrt(len2.x + len2.y + len2.z);
}

PlacedInstance makeInstance(const glm::mat4& m, uint32_t mesh, const gpu::Mesh& meshData) {
    PlacedInstance p{};
    gpu::Instance& inst = p.instance;
    for (int r = 0; r < 3; ++r) inst.rows[r] = glm::vec4(m[0][r], m[1][r], m[2][r], m[3][r]);
    float scale = maxAxisScale(glm::mat3(m));
    glm::vec3 centre = glm::vec3(m * glm::vec4(toGlm3(meshData.sphere), 1.0f));
    p.bounds.sphere = glm::vec4(centre, meshData.sphere.w * scale);
    inst.mesh = mesh;
    inst.scale = scale;
    inst.flags = gpu::SIEVE_INSTANCE_DEFAULT_FLAGS;
    return p;
}

glm::mat4 instanceTransform(const gpu::Instance& inst) {
    glm::mat4 m(1.0f);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) m[c][r] = inst.rows[r][c];
    return m;
}

}  // namespace sieve::assets
