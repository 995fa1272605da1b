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

// What an attribute is read for. It decides the accessor type and the component types accepted:
// FLOAT always; the integer types that KHR_mesh_quantization allows for mesh attributes
// (POSITION: [unsigned] byte/short, normalized or not; NORMAL: normalized byte/short; TEXCOORD:
// [unsigned] byte/short, normalized or not) and EXT_mesh_gpu_instancing for instance attributes
// (TRANSLATION, SCALE: as POSITION; ROTATION: normalized byte/short). Normalized values follow the
// glTF rule: unsigned c / (2^b - 1), signed max(c / (2^(b-1) - 1), -1).
enum class Semantic { Position, Normal, Texcoord, InstanceTranslation, InstanceRotation, InstanceScale };

// POSITION, NORMAL, TRANSLATION, SCALE (VEC3).
Expected<std::vector<glm::vec3>> readVec3(const tinygltf::Model& model, int accessor, Semantic semantic);

// TEXCOORD_n (VEC2).
Expected<std::vector<glm::vec2>> readVec2(const tinygltf::Model& model, int accessor, Semantic semantic);

// ROTATION (VEC4, quaternion x y z w).
Expected<std::vector<glm::vec4>> readVec4(const tinygltf::Model& model, int accessor, Semantic semantic);

// A SCALAR accessor of UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT (indices).
Expected<std::vector<uint32_t>> readIndices(const tinygltf::Model& model, int accessor);

}  // namespace sieve::assets::gltf
