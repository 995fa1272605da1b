#pragma once
// Private to the glTF loader: which extensions it implements, the refusal of required ones it does not,
// and the warnings for what a file holds that Sieve does not draw.
#include <string>

#include "assets/gltf_notes.h"
#include "assets/tinygltf_config.h"

namespace sieve::assets::gltf {

// True for EXT_mesh_gpu_instancing, KHR_mesh_quantization, EXT_meshopt_compression,
// KHR_draco_mesh_compression and KHR_texture_transform (base colour textures, gltf_materials.h).
bool isSupportedExtension(const std::string& name);

// Empty when every name in extensionsRequired is supported; otherwise an error naming each one that
// is not ("required extension KHR_x is not supported").
std::string checkRequiredExtensions(const tinygltf::Model& model);

// One note per kind of ignored content: optional extensions the loader does not implement (lights of
// KHR_lights_punctual by name), skins, morph targets, animations and cameras.
void noteIgnoredContent(const tinygltf::Model& model, Notes& notes);

}  // namespace sieve::assets::gltf
