#pragma once
// A spatially coherent order for an instance table: sorted by the Morton code (Z-order curve) of the sphere
// centres, quantised to 2^10 cells per axis over the centres' bounding box. The culling plugin tests
// instances in table order, 64 per workgroup: neighbours in the table that are neighbours on screen fetch
// the same pyramid texels and take the same branches. On niagara's kitten field (random placement order)
// this made the whole culling 23% faster on the H200 (bench/RESULTS.md). The draw lists keep instance
// order, so a host sorts once at load, before anything refers to instances by index.
#include <cstdint>
#include <span>

#include "shared/scene.h"

namespace sieve::assets {

// The 30-bit Morton code of a point quantised to cells of [lo, hi] (per axis; a point outside is clamped).
uint32_t mortonCode(const gpu::vec4& centre, const gpu::vec4& lo, const gpu::vec4& hi);

// Sorts the instances (and their bounds, the same permutation) by the Morton code of their sphere centres
// (stable: equal codes keep their order). Instances with non-finite centres go last, in their order.
// False, and nothing sorted, unless `bounds` has one entry per instance.
[[nodiscard]] bool sortInstancesSpatially(std::span<gpu::Instance> instances, std::span<gpu::InstanceBounds> bounds);

}  // namespace sieve::assets
