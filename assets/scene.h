#pragma once
// SceneData: the CPU-side scene tables in exactly the GPU layouts of shaders/shared/scene.h, ready to
// upload as-is (one vertex buffer, one index buffer, primitive/mesh/instance storage buffers).
//
// Coordinate system (every scene in assets/): right-handed, +Y up, metres. Vertex positions are in
// object space; Instance::rows is the object-to-world affine transform (row-major 3x4).
#include <cstdint>
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "assets/camera.h"
#include "shared/material.h"
#include "shared/scene.h"

namespace sieve::assets {

struct SceneStats {
    uint64_t instances = 0;
    uint64_t meshes = 0;
    uint64_t primitives = 0;
    uint64_t vertices = 0;
    uint64_t indices = 0;             // all LODs
    uint64_t uniqueTriangles = 0;     // LOD 0 of every primitive of every mesh, counted once
    uint64_t instancedTriangles = 0;  // LOD 0 triangles summed over all instances ("draw everything")
    uint64_t instancedDraws = 0;      // draws when every instance is drawn (sum of primitiveCount)
};

// A texture, decoded: RGBA8, rows top first; a base colour texture is sRGB-encoded (alpha linear), a
// normal map linear.
struct Texture {
    uint32_t width = 0;
    uint32_t height = 0;
    std::vector<uint8_t> rgba;  // width * height * 4 bytes
    std::string name;
    bool srgb = true;
};

struct SceneData {
    std::vector<gpu::Vertex> vertices;
    std::vector<uint32_t> indices;  // relative to MeshPrimitive::vertexOffset
    std::vector<gpu::MeshPrimitive> primitives;
    std::vector<gpu::Mesh> meshes;
    std::vector<gpu::Instance> instances;
    std::vector<gpu::InstanceBounds> bounds;  // bounds[i]: instances[i]'s world-space sphere (shared/scene.h)
    // The second vertex stream of the default geometry pass: one UV per vertex, or empty (all 0).
    std::vector<gpu::VertexUv> uvs;
    // Indexed by MeshPrimitive::material. Empty: the palette (defaultMaterials), as hand-made scenes do.
    std::vector<gpu::Material> materials;
    // Material::baseColorTexture / normalTexture t > 0 is textures[t - 1]; 0 (SIEVE_TEXTURE_WHITE): none.
    std::vector<Texture> textures;
    std::vector<std::string> meshNames;  // one per mesh
    std::vector<std::string> warnings;   // non-fatal notes from building/loading (skipped parts)
    std::vector<SceneCamera> cameras;    // cameras of a glTF file placed by the scene's nodes, in node order
    // World-space AABB of all instance bounding spheres; min > max when there are no instances.
    glm::vec3 boundsMin{1e30f};
    glm::vec3 boundsMax{-1e30f};

    // Checks every table: UVs (none or one per vertex), materials (every primitive's index inside the
    // table, alpha modes, texture indices, texture sizes), index/offset ranges (every index of every LOD stays inside
    // the vertex buffer), LOD chains (1..SIEVE_MAX_LODS, strictly decreasing index counts, non-decreasing finite
    // errors), mesh primitive ranges, instance mesh indices, finite transforms and spheres.
    // Returns an empty string when the scene is valid, otherwise a description of the first problem.
    std::string validate() const;

    SceneStats stats() const;

    // Triangles of one mesh at a LOD (clamped to each primitive's chain length).
    uint64_t meshTriangles(uint32_t mesh, uint32_t lod = 0) const;

    // Recomputes boundsMin/boundsMax from the instance spheres.
    void updateBounds();

    // Appends an instance's two records.
    void addInstance(const struct PlacedInstance& placed);
};

// An instance's two records (shared/scene.h): what its draws read and what the culling tests read first.
struct PlacedInstance {
    gpu::Instance instance;
    gpu::InstanceBounds bounds;
};

// Largest factor by which the linear part can stretch a vector (an upper bound of its spectral
// norm): the largest column length when the columns are orthogonal (rotation * scale), otherwise the
// Frobenius norm, which bounds any shear conservatively.
float maxAxisScale(const glm::mat3& linear);

// Builds an instance: transform rows, scale, and its bounds: the world-space sphere (object sphere transformed,
// radius scaled by maxAxisScale).
PlacedInstance makeInstance(const glm::mat4& objectToWorld, uint32_t mesh, const gpu::Mesh& meshData);

// The object-to-world transform of an instance as a glm matrix.
glm::mat4 instanceTransform(const gpu::Instance& instance);

}  // namespace sieve::assets
