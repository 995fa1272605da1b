#pragma once
// Material indices of the procedural scenes (MeshPrimitive::material) and their base colours for the
// default geometry pass: paletteMaterials() is their material table (opaque, single-sided, untextured).
// glTF scenes bring their own table (assets/gltf_materials.h).
#include <array>
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "shared/material.h"

namespace sieve::assets {

enum Material : uint32_t {
    kAsphalt,
    kPavement,
    kConcrete,
    kBrick,
    kGlass,
    kRoof,
    kMetal,
    kLampLight,
    kWood,
    kBark,
    kLeaves,
    kConifer,
    kPaintRed,
    kPaintBlue,
    kTyre,
    kWater,
    kGrass,
    kCrate,
    kMaterialCount
};

// Linear RGB base colours, indexed by Material.
inline constexpr std::array<glm::vec3, kMaterialCount> kMaterialPalette = {{
    {0.16f, 0.16f, 0.18f},  // asphalt
    {0.55f, 0.55f, 0.52f},  // pavement
    {0.72f, 0.68f, 0.60f},  // concrete
    {0.60f, 0.30f, 0.22f},  // brick
    {0.35f, 0.50f, 0.65f},  // glass
    {0.30f, 0.30f, 0.33f},  // roof
    {0.45f, 0.47f, 0.50f},  // metal
    {1.00f, 0.90f, 0.60f},  // lamp light
    {0.50f, 0.33f, 0.18f},  // wood
    {0.35f, 0.24f, 0.15f},  // bark
    {0.20f, 0.50f, 0.20f},  // leaves
    {0.12f, 0.35f, 0.18f},  // conifer
    {0.70f, 0.10f, 0.10f},  // red paint
    {0.15f, 0.25f, 0.60f},  // blue paint
    {0.08f, 0.08f, 0.08f},  // tyre
    {0.25f, 0.45f, 0.70f},  // water
    {0.30f, 0.55f, 0.25f},  // grass
    {0.60f, 0.45f, 0.25f},  // crate
}};

// An opaque, single-sided, untextured material of linear colour `rgb`.
inline gpu::Material opaqueMaterial(const glm::vec3& rgb) {
    gpu::Material m{};
    m.baseColorFactor = gpu::vec4(rgb.x, rgb.y, rgb.z, 1.0f);
    m.baseColorTexture = gpu::SIEVE_TEXTURE_WHITE;
    m.alphaMode = gpu::SIEVE_ALPHA_OPAQUE;
    m.alphaCutoff = 0.5f;
    m.uvRow0 = gpu::vec4(1.0f, 0.0f, 0.0f, 0.0f);
    m.uvRow1 = gpu::vec4(0.0f, 1.0f, 0.0f, 0.0f);
    m.emissive = gpu::vec4(0.0f, 0.0f, 0.0f, 0.0f);
    m.normalTexture = gpu::SIEVE_TEXTURE_WHITE;
    m.normalScale = 1.0f;
    m.emissiveTexture = gpu::SIEVE_TEXTURE_WHITE;
    return m;
}

// `count` opaque materials whose colours cycle through kMaterialPalette: the procedural scenes' table
// (count = kMaterialCount) and the one a scene without a table gets at upload.
inline std::vector<gpu::Material> paletteMaterials(uint32_t count = kMaterialCount) {
    std::vector<gpu::Material> out;
    out.reserve(count);
    for (uint32_t i = 0; i < count; ++i) out.push_back(opaqueMaterial(kMaterialPalette[i % kMaterialCount]));
    return out;
}

}  // namespace sieve::assets
