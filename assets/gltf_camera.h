#pragma once
// Private to the glTF loader: a glTF camera (perspective or orthographic) placed at a node's world
// transform, checked. A camera whose numbers cannot make a projection (yfov outside (0, pi), znear <= 0,
// zfar <= znear, a zero or non-finite magnification) is an error naming it; the loader skips it with a
// warning rather than refusing the scene.
#include <glm/glm.hpp>
#include <string>

#include "assets/camera.h"
#include "assets/expected.h"
#include "assets/tinygltf_config.h"

namespace sieve::assets::gltf {

Expected<SceneCamera> readCamera(const tinygltf::Model& model, size_t cameraIndex, size_t node, const glm::mat4& world);

}  // namespace sieve::assets::gltf
