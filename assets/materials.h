#pragma once
// Material indices of the procedural scenes (MeshPrimitive::material) and their base colours for the
// default geometry pass. glTF scenes use their own material index; shade it modulo the palette size.
#include <array>
#include <cstdint>
#include <glm/glm.hpp>

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

}  // namespace sieve::assets
