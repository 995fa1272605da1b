#pragma once
// LOD chains by simplification (meshoptimizer 0.18) that stay whole.
//
// Every LOD k >= 1 is simplified from LOD 0 with a target of half the previous LOD's indices and a
// target error that starts at `firstRelativeError` and doubles, up to `maxRelativeError`, whenever a
// try does not reduce enough (keeps more than `stallRatio` of the previous indices). Borders are locked
// (meshopt_SimplifyLockBorder); attribute seams are kept by the simplifier because their wedges share
// bit-identical positions (MeshBuilder welds positions first). A LOD is never emitted if it has more
// boundary edges than LOD 0 (it would open the mesh) or if its measured error exceeds twice the largest
// target error (a part collapsed away); the chain stops there.
//
// MeshLod::error is an object-space distance: a certified upper bound of the two-sided Hausdorff
// distance between the LOD's surface and LOD 0's (surface_distance.h), made non-decreasing along the
// chain. cull.h's sieveLodAcceptable scales it by the instance scale and projects it to pixels.
#include <cstdint>
#include <functional>
#include <glm/glm.hpp>
#include <span>
#include <vector>

#include "shared/scene.h"

namespace sieve::assets {

struct LodSettings {
    uint32_t maxLods = gpu::SIEVE_MAX_LODS;  // clamped to 1..SIEVE_MAX_LODS; 1 disables simplification
    float stallRatio = 0.85f;                // a new LOD must keep at most this share of the indices
    float firstRelativeError = 0.005f;       // target error of the first try, relative to the mesh extent
    float maxRelativeError = 0.05f;          // the largest target error (relative to the mesh extent)
    // Error measurement (surface_distance.h): the bound may exceed the true distance by the largest of
    // sampleRelativeSpacing / sqrt 3 of the extent and measureRelativeSlack of itself.
    float sampleRelativeSpacing = 1.0f / 128;
    float measureRelativeSlack = 0.25f;
    // Called after each level of a chain with the levels done and the most there can be (progress of a
    // large mesh's load); may be empty.
    std::function<void(uint32_t levels, uint32_t maxLevels)> onLevel;
};

// Appends LODs 1.. after LOD 0 (the whole of `indices` on entry) and fills prim.lods / prim.lodCount.
void buildLodChain(std::vector<uint32_t>& indices, std::span<const glm::vec3> positions, const LodSettings& settings,
                   gpu::MeshPrimitive& prim);

// Edges used by exactly one triangle, vertices identified by bit-identical position (+0 and -0 equal).
// Edges of degenerate triangles that join a position to itself are not edges.
size_t countBoundaryEdges(std::span<const glm::vec3> positions, std::span<const uint32_t> indices);

}  // namespace sieve::assets
