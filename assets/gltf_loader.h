#pragma once
// glTF 2.0 loading (.gltf with embedded data URIs or external .bin files, and .glb) into SceneData.
//
// What is taken: triangle-list primitives (POSITION required; NORMAL optional, computed when missing;
// indices optional), the node hierarchy of the default scene (or scene 0) with matrix or TRS
// transforms. Each glTF mesh becomes one Mesh (its triangle primitives become MeshPrimitives with LOD
// chains), each node with a mesh one Instance.
// Materials (assets/gltf_materials.h): base colour factor and texture on TEXCOORD_0 (PNG/JPEG, from
// data URIs, buffer views or files beside the glTF), normal map, emissive factor and texture, alphaMode and
// alphaCutoff, doubleSided. MeshPrimitive::material is the glTF material index (primitives without one:
// the default material after the file's); MeshPrimitive::bin follows from the material (assets/bins.h).
// TEXCOORD_0 becomes SceneData::uvs.
// Extensions: EXT_mesh_gpu_instancing (one Instance per element), KHR_mesh_quantization (integer and
// normalized attributes), EXT_meshopt_compression (meshoptimizer's decoders and filters; fallback
// buffers need no data), KHR_draco_mesh_compression (Draco) and KHR_texture_transform. Any other name
// in extensionsRequired is an error naming it.
// Mirrored instances (transform determinant < 0, instancing included) use a twin of their mesh with
// reversed winding (assets/mirrored_mesh.h), made once per mesh, so back-face culling stays right.
// Cameras: every camera a node of the scene places (the first such node, at its world transform) is in
// SceneData::cameras (assets/camera.h SceneCamera: perspective or orthographic), in node order.
// Warnings in SceneData::warnings, one line per kind with a count: non-triangle primitives (points,
// lines, strips, fans) and meshes left without primitives (skipped), optional extensions not
// implemented, lights, skins, morph targets, animations, cameras no node places and cameras whose
// numbers make no projection (ignored); occlusion and metallic-roughness textures (not drawn),
// images that do not decode (drawn untextured).
// Errors (the message starts with the file name): unreadable file, malformed JSON/GLB, accessor,
// bufferView or buffer ranges outside their data, component types an attribute may not have, index out
// of range, NaN/Inf positions or transforms, missing POSITION, malformed or undecodable compressed
// data, a node graph that is not a forest (cycles, shared children, out-of-range children),
// hierarchies deeper than kMaxGltfNodeDepth, JSON nested deeper than kMaxGltfJsonDepth, and scenes with
// "no renderable triangles".
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "assets/expected.h"
#include "assets/scene.h"

namespace sieve::assets {

inline constexpr uint32_t kMaxGltfNodeDepth = 1024;
// Arrays and objects inside each other in the JSON (a glTF needs fewer than 10; extras may hold more).
inline constexpr uint32_t kMaxGltfJsonDepth = 256;

// Progress of a load: a stage ("reading", "parsing", "meshes", "nodes") and its share done in [0, 1].
// "meshes" counts the indices of the triangle primitives, each primitive's share advancing with its LOD
// levels (where a large file spends its time).
using LoadProgressFn = std::function<void(std::string_view stage, float fraction)>;

// Loads a file; .glb is recognised by its magic bytes, anything else is parsed as JSON glTF.
Expected<SceneData> loadGltf(const std::string& path, const LoadProgressFn& progress = {});

// Loads from memory. `name` prefixes error messages; `baseDir` resolves external buffer URIs.
Expected<SceneData> loadGltfFromMemory(std::span<const uint8_t> bytes, const std::string& name,
                                       const std::string& baseDir = {}, const LoadProgressFn& progress = {});

}  // namespace sieve::assets
