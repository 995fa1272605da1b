#pragma once
// The world-space box of a scene's geometry: each mesh's object-space box (from the vertices its LOD 0
// triangles use), its 8 corners moved by each instance's transform. Tighter than SceneData's bounds (the
// box of the instance spheres, a factor up to sqrt 3 larger for a cube), which is what framing a scene
// in the view needs. min > max for a scene without instances.
#include <glm/glm.hpp>
#include <utility>

#include "assets/scene.h"

namespace sieve::assets {

std::pair<glm::vec3, glm::vec3> geometryBounds(const SceneData& scene);

}  // namespace sieve::assets
