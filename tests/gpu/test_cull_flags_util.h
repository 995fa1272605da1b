#pragma once
// Header-only helpers for the culling tests (CPU and GPU): a camera, random scenes, synthetic depth
// images, and a brute-force visibility check of a sphere against a depth image (double precision, ray
// through every pixel centre), the ground truth an occlusion test must respect.
#include <cmath>
#include <cstdint>
#include <glm/gtc/matrix_transform.hpp>
#include <random>
#include <vector>

#include "sieve/cull_flags.h"
#include "assets/glm_interop.h"

namespace testing_cull {

using sieve::gpu::vec4;

struct Camera {
    glm::mat4 view;
    glm::mat4 proj;
    float znear = 0.5f;
};

// Eye at the origin looking down -Z (view = identity) or through lookAt.
inline Camera makeCamera(float aspect, glm::vec3 eye = {0, 0, 0}, glm::vec3 target = {0, 0, -1}) {
    Camera c;
    c.view = glm::lookAt(eye, target, glm::vec3(0, 1, 0));
    c.proj = sieve::toGlm(sieve::perspectiveReverseZ(glm::radians(60.0f), aspect, c.znear));
    return c;
}

struct RandomScene {
    std::vector<sieve::gpu::Instance> instances;
    std::vector<sieve::gpu::Mesh> meshes;
    std::vector<sieve::gpu::MeshPrimitive> primitives;
    sieve::CullScene view() const { return {instances, meshes, primitives}; }
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
        inst.sphere = vec4((u01(rng) * 2 - 1) * extent, (u01(rng) * 2 - 1) * extent * 0.5f, (u01(rng) * 2 - 1) * extent,
                           0.05f + 3.0f * u01(rng) * u01(rng));
        inst.scale = 0.5f + 2.0f * u01(rng);
        inst.mesh = uint32_t(rng() % s.meshes.size());
        if (i % 97 == 5) inst.sphere.x = std::numeric_limits<float>::quiet_NaN();
        if (i % 131 == 7) inst.sphere.w = std::numeric_limits<float>::infinity();
        s.instances.push_back(inst);
    }
    return s;
}

// Depth image: background `background`, then axis-aligned screen rectangles ("walls" facing the camera
// at distance d: depth znear / d everywhere on them), nearest wins.
struct Wall {
    uint32_t x0, y0, x1, y1;  // pixels, half-open
    float distance;
};
inline std::vector<float> makeWallDepth(uint32_t w, uint32_t h, float znear, const std::vector<Wall>& walls,
                                        float background = 0.0f) {
    std::vector<float> d(size_t(w) * h, background);
    for (const Wall& wall : walls)
        for (uint32_t y = wall.y0; y < std::min(wall.y1, h); ++y)
            for (uint32_t x = wall.x0; x < std::min(wall.x1, w); ++x)
                d[size_t(y) * w + x] = std::max(d[size_t(y) * w + x], znear / wall.distance);
    return d;
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

// True when some pixel centre's ray hits the sphere at a depth >= the stored depth there (reverse-Z:
// the sphere would pass a GREATER_OR_EQUAL depth test at that pixel), i.e. the sphere may be visible.
inline bool sphereMayBeVisible(const vec4& worldSphere, const Camera& cam, const std::vector<float>& depth, uint32_t w,
                               uint32_t h) {
    const glm::dvec4 c4 = glm::dmat4(cam.view) * glm::dvec4(worldSphere.x, worldSphere.y, worldSphere.z, 1.0);
    const glm::dvec3 c(c4);
    const double r = worldSphere.w;
    const double P00 = cam.proj[0][0], P11 = cam.proj[1][1];
    for (uint32_t py = 0; py < h; ++py)
        for (uint32_t px = 0; px < w; ++px) {
            const double nx = 2.0 * (px + 0.5) / w - 1.0, ny = 2.0 * (py + 0.5) / h - 1.0;
            const glm::dvec3 dir(nx / P00, ny / P11, -1.0);  // the point at view distance t is t * dir
            // |t dir - c|^2 = r^2
            const double a = glm::dot(dir, dir), b = -2.0 * glm::dot(dir, c), cc = glm::dot(c, c) - r * r;
            const double disc = b * b - 4 * a * cc;
            if (disc < 0) continue;
            const double t = (-b - std::sqrt(disc)) / (2 * a);
            if (t <= cam.znear) return true;  // reaches the near plane: never cullable
            if (cam.znear / t >= depth[size_t(py) * w + px]) return true;
        }
    return false;
}

}  // namespace testing_cull
