#pragma once
// glTF 2.0 loading (.gltf with embedded data URIs or external .bin files, and .glb) into SceneData.
//
// What is taken: triangle-list primitives (POSITION required, FLOAT VEC3; NORMAL optional, computed
// when missing; indices optional), the node hierarchy of the default scene (or scene 0) with matrix or
// TRS transforms. Each glTF mesh becomes one Mesh (its triangle primitives become MeshPrimitives with
// LOD chains, material = glTF material index or 0), each node with a mesh one Instance.
// What is skipped with a warning in SceneData::warnings: non-triangle primitives (points, lines,
// strips, fans), meshes left without primitives. Textures and images are ignored.
// Errors (the message starts with the file name): unreadable file, malformed JSON/GLB, accessor,
// bufferView or buffer ranges outside their data, index out of range, NaN/Inf positions or transforms,
// missing POSITION, a node graph that is not a forest (cycles, shared children, out-of-range
// children), hierarchies deeper than kMaxGltfNodeDepth, and scenes with "no renderable triangles".
#include <cstdint>
#include <span>
#include <string>

#include "assets/expected.h"
#include "assets/scene.h"

namespace sieve::assets {

inline constexpr uint32_t kMaxGltfNodeDepth = 1024;

// Loads a file; .glb is recognised by its magic bytes, anything else is parsed as JSON glTF.
Expected<SceneData> loadGltf(const std::string& path);

// Loads from memory. `name` prefixes error messages; `baseDir` resolves external buffer URIs.
Expected<SceneData> loadGltfFromMemory(std::span<const uint8_t> bytes, const std::string& name,
                                       const std::string& baseDir = {});

}  // namespace sieve::assets
