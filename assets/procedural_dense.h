#pragma once
// The dense procedural scene (`--scene dense`): a field of high-polygon meshes (spheres, tori, sphere
// clusters; about 40k-90k triangles each) on a square grid, deterministic from the seed. 2000 instances
// hold over 100 million triangles before culling: the scene for cluster culling, where whole instances
// are mostly visible but much of each is back-facing or hidden behind its neighbours.
#include <cstdint>

#include "assets/camera.h"
#include "assets/expected.h"
#include "assets/procedural_city.h"
#include "assets/scene.h"

namespace sieve::assets {

inline constexpr float kDensePitch = 7.0f;  // metres between grid cells

// `instances` on a grid of ceil(sqrt(instances)) columns, each a random mesh with a random rotation about
// +Y and a uniform scale in [0.8, 1.4]. lodLevels: LOD chain length (1 = LOD 0 only, builds fastest).
// Errors: no instances, more than 2^24 instances.
Expected<SceneData> makeDenseScene(uint32_t instances, uint32_t seed, uint32_t lodLevels = 1,
                                   const ProgressFn& progress = {});

// At eye height at the grid's south-west corner, looking across the field along the diagonal.
CameraPose defaultDenseCamera(const SceneData& dense);

}  // namespace sieve::assets
