// assets/spatial_order.h: Morton codes and the spatial sort of an instance table.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "assets/spatial_order.h"

using sieve::gpu::Instance;
using sieve::gpu::InstanceBounds;
using sieve::gpu::vec4;

TEST(SpatialOrder, MortonCodeInterleavesTheCellsOfEachAxis) {
    const vec4 lo{0, 0, 0, 0}, hi{1024, 1024, 1024, 0};
    EXPECT_EQ(sieve::assets::mortonCode({0, 0, 0, 1}, lo, hi), 0u);
    EXPECT_EQ(sieve::assets::mortonCode({1.5f, 0, 0, 1}, lo, hi), 1u);                    // x cell 1: bit 0
    EXPECT_EQ(sieve::assets::mortonCode({0, 1.5f, 0, 1}, lo, hi), 2u);                    // y cell 1: bit 1
    EXPECT_EQ(sieve::assets::mortonCode({0, 0, 1.5f, 1}, lo, hi), 4u);                    // z cell 1: bit 2
    EXPECT_EQ(sieve::assets::mortonCode({2.5f, 0, 0, 1}, lo, hi), 8u);                    // x cell 2: bit 3
    EXPECT_EQ(sieve::assets::mortonCode({1024, 1024, 1024, 1}, lo, hi), (1u << 30) - 1);  // the last cell
    // Clamped: x below the box is cell 0, y above it the last cell (every y bit set).
    EXPECT_EQ(sieve::assets::mortonCode({-5, 2000, 0, 1}, lo, hi), 306783378u);
}

TEST(SpatialOrder, SortIsAStablePermutationInMortonOrderWithNonFiniteLast) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-300.0f, 300.0f);
    std::vector<Instance> in(5000);
    std::vector<InstanceBounds> bounds(in.size());
    for (uint32_t i = 0; i < in.size(); ++i) {
        bounds[i].sphere = {u(rng), u(rng), u(rng), 1.0f};
        in[i].mesh = i;  // identity
    }
    bounds[10].sphere.x = NAN;
    bounds[20].sphere.y = INFINITY;
    bounds[30].sphere = bounds[31].sphere;  // equal codes keep their order
    std::vector<Instance> out = in;
    std::vector<InstanceBounds> outBounds = bounds;
    ASSERT_TRUE(sieve::assets::sortInstancesSpatially(out, outBounds));
    // The bounds moved with their instances.
    for (size_t i = 0; i < out.size(); ++i)
        ASSERT_EQ(std::memcmp(&outBounds[i], &bounds[out[i].mesh], sizeof(InstanceBounds)), 0) << i;
    // Tables of different sizes are refused, untouched.
    std::vector<InstanceBounds> shorter(bounds.begin(), bounds.end() - 1);
    std::vector<Instance> untouched = in;
    EXPECT_FALSE(sieve::assets::sortInstancesSpatially(untouched, shorter));
    EXPECT_EQ(std::memcmp(untouched.data(), in.data(), in.size() * sizeof(Instance)), 0);
    ASSERT_EQ(out.size(), in.size());
    std::vector<uint32_t> ids;
    for (const Instance& x : out) ids.push_back(x.mesh);
    std::vector<uint32_t> sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    for (uint32_t i = 0; i < sorted.size(); ++i) ASSERT_EQ(sorted[i], i) << "not a permutation";
    EXPECT_EQ(ids[ids.size() - 2], 10u);
    EXPECT_EQ(ids[ids.size() - 1], 20u);
    vec4 lo{1e30f, 1e30f, 1e30f, 0}, hi{-1e30f, -1e30f, -1e30f, 0};
    for (const InstanceBounds& x : bounds) {
        if (!std::isfinite(x.sphere.x) || !std::isfinite(x.sphere.y)) continue;
        lo = {std::min(lo.x, x.sphere.x), std::min(lo.y, x.sphere.y), std::min(lo.z, x.sphere.z), 0};
        hi = {std::max(hi.x, x.sphere.x), std::max(hi.y, x.sphere.y), std::max(hi.z, x.sphere.z), 0};
    }
    for (size_t i = 1; i + 2 < out.size(); ++i) {
        const uint32_t a = sieve::assets::mortonCode(outBounds[i - 1].sphere, lo, hi);
        const uint32_t b = sieve::assets::mortonCode(outBounds[i].sphere, lo, hi);
        ASSERT_LE(a, b) << "at " << i;
        if (a == b) {
            ASSERT_LT(out[i - 1].mesh, out[i].mesh) << "not stable at " << i;
        }
    }
    const auto at30 = std::find(ids.begin(), ids.end(), 30u), at31 = std::find(ids.begin(), ids.end(), 31u);
    EXPECT_EQ(at31 - at30, 1) << "equal codes keep their order, adjacent";
}
