#pragma once
// Private to the glTF loader: bounds-checked accessor reads. tinygltf parses the JSON but does not
// promise that an accessor's elements lie inside its bufferView and buffer; everything read here is
// checked first, with 64-bit arithmetic that cannot overflow.
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "assets/expected.h"
#include "assets/tinygltf_config.h"

namespace sieve::assets::gltf {

// A FLOAT VEC3 accessor (positions, normals).
Expected<std::vector<glm::vec3>> readVec3(const tinygltf::Model& model, int accessor);

// A SCALAR accessor of UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT (indices).
Expected<std::vector<uint32_t>> readIndices(const tinygltf::Model& model, int accessor);

}  // namespace sieve::assets::gltf
