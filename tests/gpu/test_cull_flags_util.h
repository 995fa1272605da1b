#pragma once
// Header-only helpers for the culling tests (CPU and GPU): random scenes and random walls; host views,
// depth images and the brute-force visibility check are in gpu/test_cull_views.h.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "gpu/test_cull_views.h"
#include "sieve/cull_flags.h"

namespace testing_cull {

// One frame of the flag tests: its parameters, the depth its pyramid is built from and the previous frame's
// visibility.
struct CullFrame {
    sieve::gpu::CullParams params{};
    std::vector<float> depth;  // pyramid source, depthExtent
    VkExtent2D depthExtent{};
    std::vector<uint32_t> visibleLast;
    // The camera the depth was drawn with (CullLateBuffers::occlusionView); none: params itself.
    std::optional<sieve::gpu::CullParams> occlusion;
};

// A frame's parameters for a camera, with visibleLast from a seed (about two thirds set).
inline CullFrame makeCullFrame(const Camera& cam, VkExtent2D depthExtent, std::vector<float> depth, uint32_t n,
                               const sieve::CullSettings& settings, uint32_t seed) {
    CullFrame f;
    f.depthExtent = depthExtent;
    f.depth = std::move(depth);
    auto p = makeParams(cam, depthExtent, n, settings);
    EXPECT_TRUE(p) << p.error().message;
    if (p) f.params = p.value();
    std::mt19937 rng(seed);
    for (uint32_t i = 0; i < n; ++i) f.visibleLast.push_back(rng() % 3 != 0);
    return f;
}

using sieve::gpu::vec4;

// What the flag passes leave unwritten (shaders/cull/flag.glsl: nothing reads it) reads as 0 here, so
// that what they write compares exactly: the LODs of (view, instance) pairs `flags` does not flag (the
// reference's flags, or the GPU's where they are all written), and the early flags of views without
// SIEVE_CULL_TWO_PHASE (views[v] covers entries [v * n, (v + 1) * n)).
inline std::vector<uint32_t> writtenLods(std::vector<uint32_t> lods, const std::vector<uint32_t>& flags) {
    for (size_t k = 0; k < lods.size(); ++k)
        if (k >= flags.size() || !flags[k]) lods[k] = 0;
    return lods;
}
inline std::vector<uint32_t> writtenEarlyFlags(std::vector<uint32_t> flags,
                                               std::span<const sieve::gpu::CullParams> views, size_t n) {
    for (size_t v = 0; v < views.size(); ++v)
        if (!(views[v].toggles & sieve::gpu::SIEVE_CULL_TWO_PHASE))
            for (size_t k = v * n; k < std::min((v + 1) * n, flags.size()); ++k) flags[k] = 0;
    return flags;
}

struct RandomScene {
    std::vector<sieve::gpu::Instance> instances;
    std::vector<sieve::gpu::InstanceBounds> bounds;  // one per instance
    std::vector<sieve::gpu::Mesh> meshes;
    std::vector<sieve::gpu::MeshPrimitive> primitives;
    sieve::CullScene view() const { return {instances, bounds, meshes, primitives}; }
    void add(const sieve::gpu::Instance& instance, const sieve::gpu::vec4& sphere) {
        instances.push_back(instance);
        bounds.push_back({sphere});
    }
};

// Meshes with 1..3 primitives and growing LOD errors; instances scattered around the eye, some with
// non-finite bounds.
inline RandomScene makeRandomScene(uint32_t n, uint32_t seed, float extent = 60.0f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u01(0.0f, 1.0f);
    RandomScene s;
    for (uint32_t m = 0; m < 7; ++m) {
        sieve::gpu::Mesh mesh{};
        mesh.sphere = vec4(0, 0, 0, 1);
        mesh.firstPrimitive = uint32_t(s.primitives.size());
        mesh.primitiveCount = 1 + m % 3;
        for (uint32_t p = 0; p < mesh.primitiveCount; ++p) {
            sieve::gpu::MeshPrimitive prim{};
            prim.lodCount = 1 + (m + p) % sieve::gpu::SIEVE_MAX_LODS;
            float err = 0.0f;
            for (uint32_t l = 0; l < prim.lodCount; ++l) {
                prim.lods[l].error = err;
                err += 0.002f + 0.02f * u01(rng);
            }
            s.primitives.push_back(prim);
        }
        s.meshes.push_back(mesh);
    }
    for (uint32_t i = 0; i < n; ++i) {
        sieve::gpu::Instance inst{};
        sieve::gpu::InstanceBounds b{};
        b.sphere = vec4((u01(rng) * 2 - 1) * extent, (u01(rng) * 2 - 1) * extent * 0.5f, (u01(rng) * 2 - 1) * extent,
                        0.05f + 3.0f * u01(rng) * u01(rng));
        inst.scale = 0.5f + 2.0f * u01(rng);
        inst.mesh = uint32_t(rng() % s.meshes.size());
        if (i % 97 == 5) b.sphere.x = std::numeric_limits<float>::quiet_NaN();
        if (i % 131 == 7) b.sphere.w = std::numeric_limits<float>::infinity();
        // Some instances carry their own cull distance (the smaller of it and the view's applies).
        if (i % 7 == 3) inst.cullDistance = 8.0f + float(i % 45);
        s.instances.push_back(inst);
        s.bounds.push_back(b);
    }
    return s;
}

inline std::vector<Wall> randomWalls(uint32_t w, uint32_t h, uint32_t count, std::mt19937& rng) {
    std::vector<Wall> walls;
    std::uniform_real_distribution<float> u01(0.0f, 1.0f);
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t x0 = rng() % w, y0 = rng() % h;
        uint32_t x1 = std::min(w, x0 + 1 + uint32_t(rng() % (w / 2 + 1)));
        uint32_t y1 = std::min(h, y0 + 1 + uint32_t(rng() % (h / 2 + 1)));
        walls.push_back({x0, y0, x1, y1, 2.0f + 40.0f * u01(rng)});
    }
    return walls;
}

// Random walls at view distances from just past the near plane to 30 (or the far plane).
inline std::vector<Wall> randomWallsInView(const Camera& cam, uint32_t w, uint32_t h, uint32_t count,
                                           std::mt19937& rng) {
    std::uniform_real_distribution<float> u01(0.0f, 1.0f);
    auto walls = randomWalls(w, h, count, rng);
    const float dmax = std::min(cam.zfar, 30.0f);
    for (auto& wall : walls) wall.distance = cam.znear + 1.0f + (dmax - cam.znear - 1.0f) * u01(rng);
    return walls;
}

}  // namespace testing_cull
