#pragma once
// Mirrored instances: a transform with a negative determinant turns counter-clockwise triangles
// clockwise on screen, so back-face culling would show their inside. Instead of a per-draw winding
// flag, such instances use a twin of their mesh whose triangles (every LOD) have the opposite winding;
// vertices and normals are shared (the geometry pass transforms normals by the instance's linear
// part, which already mirrors them correctly).
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "assets/expected.h"
#include "assets/scene.h"

namespace sieve::assets {

// True when the linear part of `objectToWorld` mirrors (determinant < 0).
bool isMirroring(const glm::mat4& objectToWorld);

// Appends the twin of `mesh` (same vertices, sphere and materials, each triangle's last two indices
// swapped, name + " (mirrored)") and returns its index. Errors: no such mesh, index buffer would
// exceed 32-bit offsets.
Expected<uint32_t> appendMirroredMesh(SceneData& scene, uint32_t mesh);

// The twin of each mesh made on first use, so all mirrored instances of a mesh share one.
class MirroredMeshes {
public:
    Expected<uint32_t> twinOf(SceneData& scene, uint32_t mesh);

private:
    std::vector<int64_t> twins_;  // per mesh: twin index, or -1
};

}  // namespace sieve::assets
