#pragma once
// Private to the glTF loader: the file's materials as the default geometry pass draws them
// (shared/material.h): base colour factor and texture (TEXCOORD_0, with its KHR_texture_transform), normal
// map (same UVs and transform) with its scale, alphaMode with its cutoff, doubleSided, emissiveFactor times the
// emissive texture (sRGB, same UVs and transform). glTF material i is SceneData::materials[i]; primitives without a
// material use one more entry after them, glTF's default (white, opaque, single-sided). Each image a base colour
// texture uses is decoded once into SceneData::textures. Noted once each (not errors): other texture kinds (occlusion,
// metallic-roughness) are not drawn; a texture on another texCoord than 0, whose image does not decode, or beyond the
// pass's texture array is dropped (the factor alone stays); a normal map whose transform differs from the base colour's
// gets the base colour's; an unknown alphaMode is drawn opaque.
#include <cstdint>
#include <string>

#include "assets/gltf_images.h"
#include "assets/gltf_notes.h"
#include "assets/scene.h"
#include "assets/tinygltf_config.h"

namespace sieve::assets::gltf {

void loadMaterials(const tinygltf::Model& model, const ImageBytes& images, const std::string& baseDir, SceneData& scene,
                   Notes& notes);

// The SceneData material of a primitive: its own, or the default after the file's.
uint32_t primitiveMaterial(const tinygltf::Model& model, const tinygltf::Primitive& prim);

// MeshPrimitive::bin of a material (assets/bins.h).
uint32_t materialBin(const gpu::Material& material);

}  // namespace sieve::assets::gltf
