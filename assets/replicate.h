#pragma once
// Grid replication of a scene (`--grid AxB`): more instances of the same meshes for scaling tests.
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "assets/expected.h"
#include "assets/scene.h"

namespace sieve::assets {

// Copies every instance into an a x b grid of copies in the XZ plane (a along X, b along Z), centred
// on the original position, `spacing` metres apart; spacing <= 0 uses the scene's larger XZ extent
// * 1.1. Meshes, vertices and indices are shared, not copied. Copy (i, j) holds instances
// [(j * a + i) * n, +n) in the original order. Errors: a or b is 0, no instances, or more than 2^32 - 1
// instances.
Expected<SceneData> replicateGrid(const SceneData& scene, uint32_t a, uint32_t b, float spacing = 0.0f);

// Parses "AxB" (e.g. "4x3", also "4X3"); nothing for malformed text or a zero factor.
std::optional<std::pair<uint32_t, uint32_t>> parseGridSpec(std::string_view text);

}  // namespace sieve::assets
