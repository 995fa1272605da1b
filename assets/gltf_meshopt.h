#pragma once
// Private to the glTF loader: EXT_meshopt_compression, decoded with meshoptimizer's own decoders
// (meshopt_decodeVertexBuffer / IndexBuffer / IndexSequence and the OCTAHEDRAL, QUATERNION and
// EXPONENTIAL filters, all in Debian 12's meshoptimizer 0.18).
#include <string>

#include "assets/tinygltf_config.h"

namespace sieve::assets::gltf {

// Replaces every bufferView with the extension by a view of a new buffer holding its decoded bytes.
// Returns an error message, empty on success: fields missing or out of range, a compressed range
// outside its buffer, a mode/filter/stride combination the format does not define, a decoded size that
// differs from the bufferView's byteLength, a decoder failure, or a plain bufferView of a fallback buffer.
std::string decodeMeshoptViews(tinygltf::Model& model);

}  // namespace sieve::assets::gltf
