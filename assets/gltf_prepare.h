#pragma once
// Private to the glTF loader: the JSON changes tinygltf 2.7 needs before it can parse compressed files.
// - EXT_meshopt_compression fallback buffers (`"fallback": true`, no uri) hold no data: tinygltf would
//   copy the GLB BIN chunk into them or try to open an empty path. They get a 4-byte data URI.
// - KHR_draco_mesh_compression primitives' index accessors have no bufferView, which tinygltf refuses;
//   their "indices" member is dropped (the loader makes indices from the decoded Draco faces).
// And the checks tinygltf 2.7 lacks: JSON nested at most kMaxGltfJsonDepth deep (tinygltf recurses per
// level), and an image's bufferView inside its buffer (tinygltf reads it unchecked).
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "assets/expected.h"

namespace sieve::assets::gltf {

// Returns the file (JSON or GLB, whose header has been checked) with those changes, or nothing when
// it needs none (or its JSON does not parse: tinygltf then reports it); an error for JSON nested too deep
// or an image bufferView outside its buffer.
Expected<std::optional<std::vector<uint8_t>>> prepareForTinygltf(std::span<const uint8_t> file, bool glb);

}  // namespace sieve::assets::gltf
