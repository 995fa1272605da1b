#pragma once
// Private to the glTF loader: EXT_mesh_gpu_instancing. A node with the extension draws its mesh once
// per instance, at node world * T * R * S of the instance's TRANSLATION, ROTATION and SCALE (each
// optional, all of one count).
#include <glm/glm.hpp>
#include <optional>
#include <vector>

#include "assets/expected.h"
#include "assets/tinygltf_config.h"

namespace sieve::assets::gltf {

// The instances' transforms relative to the node; nothing when the node has no such extension.
// Errors: no attributes, an attribute that is not a valid accessor of an allowed type, counts that
// differ, non-finite values, a zero-length rotation.
Expected<std::optional<std::vector<glm::mat4>>> readInstanceTransforms(const tinygltf::Model& model,
                                                                       const tinygltf::Node& node);

}  // namespace sieve::assets::gltf
