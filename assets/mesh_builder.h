#pragma once
// MeshBuilder: turns raw triangle lists into GPU-ready mesh data. Each primitive is deduplicated,
// optimised for the post-transform vertex cache and for vertex fetch (meshoptimizer), then gets a LOD
// chain by simplification. finish() appends the mesh (all its primitives, one bounding sphere) to a
// SceneData.
//
// Positions closer than 1e-5 of the primitive's extent are welded onto one position first: attribute
// seams (normal seams, UV-sphere columns, exported splits) then share bit-identical positions, which is
// what keeps the simplifier from pulling them apart. The LOD chain: lod_chain.h. All LODs of a
// primitive share its vertices.
#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <string>
#include <vector>

#include "assets/expected.h"
#include "assets/lod_chain.h"
#include "assets/scene.h"

namespace sieve::assets {

struct PrimitiveInput {
    std::span<const glm::vec3> positions;  // required, finite
    std::span<const glm::vec3> normals;    // empty (or not finite): area-weighted smooth normals
    std::span<const uint32_t> indices;     // triangle list; empty: positions are consecutive triangles
    uint32_t material = 0;                 // index into SceneData::materials
    uint32_t bin = 0;                      // MeshPrimitive::bin (assets/bins.h)
    std::span<const glm::vec2> uvs;        // empty, or one per position (TEXCOORD_0)
};

class MeshBuilder {
public:
    explicit MeshBuilder(LodSettings settings = {}) : settings_(settings) {}

    // Processes one primitive and keeps it for the current mesh. Returns its index within the mesh,
    // or an error (no triangles, index count not a multiple of 3, index out of range, non-finite
    // position, mismatched normal or UV count).
    Expected<uint32_t> addPrimitive(const PrimitiveInput& input);

    // Appends the current mesh (vertices, indices, primitives, Mesh with its bounding sphere, name) to
    // `scene` and returns its mesh index (UVs: scene.uvs gets one per vertex as soon as any mesh has
    // them, zeros for the vertices of meshes without); the builder is then empty and ready for the next mesh.
    // Errors: no primitive was added, or the shared tables would overflow their 32-bit offsets.
    Expected<uint32_t> finish(SceneData& scene, std::string name);

    size_t primitiveCount() const { return primitives_.size(); }

private:
    struct Processed {
        std::vector<glm::vec3> positions;
        std::vector<uint32_t> normals;   // packed, see normal_packing.h
        std::vector<gpu::VertexUv> uvs;  // empty when the input had none
        std::vector<uint32_t> indices;   // every LOD, concatenated
        gpu::MeshPrimitive primitive{};  // firstIndex relative to `indices`; vertexOffset unset
    };
    LodSettings settings_;
    std::vector<Processed> primitives_;
};

// Area-weighted smooth vertex normals of a triangle list (vertices without area get +Y).
std::vector<glm::vec3> computeNormals(std::span<const glm::vec3> positions, std::span<const uint32_t> indices);

}  // namespace sieve::assets
