#pragma once
// Test-only host views for the culling tests: projection builders for every supported kind and depth
// convention, the host's viewport, and the ground truth the occlusion test must respect, computed in
// double from the raw matrices and viewport (never from CullParams, so a wrong canonicalisation in
// makeCullParams cannot hide itself).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <glm/gtc/matrix_transform.hpp>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "assets/glm_interop.h"
#include "sieve/cull_flags.h"

namespace testing_cull {

using sieve::gpu::vec4;

inline constexpr float kInfinity = std::numeric_limits<float>::infinity();

// A host's view as it draws it, and the facts about its depth test the ground truth needs.
struct Camera {
    std::string name = "reverse-Z infinite";
    glm::mat4 view{1.0f};
    glm::mat4 proj{1.0f};
    float znear = 0.5f;       // view distance of the near plane
    float zfar = kInfinity;   // and of the far plane
    bool leftHanded = false;  // the view looks down +Z (perspective: w = +z; orthographic: orthographicForward)
    bool flipY = false;       // negative-height viewport
    float minDepth = 0.0f, maxDepth = 1.0f;
    bool reverse = true;  // the host's depth test: nearer = larger depth (GREATER_OR_EQUAL)

    VkViewport viewport(VkExtent2D e) const {
        const float w = float(e.width), h = float(e.height);
        return flipY ? VkViewport{0, h, w, -h, minDepth, maxDepth} : VkViewport{0, 0, w, h, minDepth, maxDepth};
    }
    sieve::ViewDesc desc(VkExtent2D e) const { return {view, proj, viewport(e), leftHanded ? 1.0f : -1.0f}; }
    // The depth the host clears to (the far end of the viewport's depth range).
    float clearDepth() const { return reverse ? std::min(minDepth, maxDepth) : std::max(minDepth, maxDepth); }
};

// Right-handed perspective, y flipped for a positive viewport (P11 < 0); zfar may be infinite.
// jitter: off-centre terms P[2][0], P[2][1] (ndc offsets -jitter for w = -z).
inline glm::mat4 perspective(float fovY, float aspect, float n, float f, bool reverse, glm::vec2 jitter = {0, 0}) {
    const float s = 1.0f / std::tan(fovY * 0.5f);
    glm::mat4 p(0.0f);
    p[0][0] = s / aspect;
    p[1][1] = -s;
    p[2][0] = jitter.x;
    p[2][1] = jitter.y;
    p[2][3] = -1.0f;
    // z_ndc = -P[2][2] + P[3][2] / d: 0 at n and 1 at f (standard), or the reverse.
    const bool inf = std::isinf(f);
    if (reverse) {
        p[2][2] = inf ? 0.0f : n / (f - n);
        p[3][2] = inf ? n : n * f / (f - n);
    } else {
        p[2][2] = inf ? -1.0f : -f / (f - n);
        p[3][2] = inf ? -n : -n * f / (f - n);
    }
    return p;
}

// Right-handed orthographic, looking down -Z, y flipped for a positive viewport.
inline glm::mat4 orthographic(float l, float r, float b, float t, float n, float f, bool reverse) {
    glm::mat4 p(1.0f);
    p[0][0] = 2.0f / (r - l);
    p[1][1] = -2.0f / (t - b);
    p[3][0] = -(r + l) / (r - l);
    p[3][1] = (t + b) / (t - b);
    // z_ndc = P[3][2] - P[2][2] * d
    p[2][2] = reverse ? 1.0f / (f - n) : -1.0f / (f - n);
    p[3][2] = reverse ? f / (f - n) : -n / (f - n);
    return p;
}

// Eye at `eye` looking at `target` (reverse-Z infinite perspective, the plugin's default).
inline Camera makeCamera(float aspect, glm::vec3 eye = {0, 0, 0}, glm::vec3 target = {0, 0, -1}) {
    Camera c;
    c.view = glm::lookAt(eye, target, glm::vec3(0, 1, 0));
    c.proj = sieve::toGlm(sieve::perspectiveReverseZ(glm::radians(60.0f), aspect, c.znear));
    return c;
}

// Every supported kind of host view, all looking from `eye` to `target`.
inline std::vector<Camera> allCameras(float aspect, glm::vec3 eye = {1, 2, 3}, glm::vec3 target = {-4, 1, -20}) {
    std::vector<Camera> cams;
    const float fov = glm::radians(60.0f), n = 0.5f, f = 80.0f;
    auto add = [&](std::string name, glm::mat4 proj, bool reverse, float zfar) -> Camera& {
        Camera c;
        c.name = std::move(name);
        c.view = glm::lookAt(eye, target, glm::vec3(0, 1, 0));
        c.proj = proj;
        c.reverse = reverse;
        c.znear = n;
        c.zfar = zfar;
        cams.push_back(c);
        return cams.back();
    };
    add("reverse-Z infinite", sieve::toGlm(sieve::perspectiveReverseZ(fov, aspect, n)), true, kInfinity);
    add("reverse-Z finite", perspective(fov, aspect, n, f, true), true, f);
    add("standard-Z finite", perspective(fov, aspect, n, f, false), false, f);
    add("standard-Z infinite", perspective(fov, aspect, n, kInfinity, false), false, kInfinity);
    Camera& vp = add("standard-Z projection, viewport depth 1..0", perspective(fov, aspect, n, f, false), true, f);
    vp.minDepth = 1.0f;
    vp.maxDepth = 0.0f;
    add("jittered asymmetric reverse-Z", perspective(fov, aspect, n, kInfinity, true, {0.013f, -0.21f}), true,
        kInfinity);
    Camera& flip = add("flipped viewport, P11 > 0", perspective(fov, aspect, n, f, true, {0.004f, 0.007f}), true, f);
    flip.proj[1][1] = -flip.proj[1][1];
    flip.proj[2][1] = -flip.proj[2][1];
    flip.flipY = true;
    // Left-handed: the same clip coordinates with z negated in the view and in the projection.
    Camera& lh = add("left-handed standard-Z", perspective(fov, aspect, n, f, false, {0.01f, 0.0f}), false, f);
    lh.leftHanded = true;
    for (int c = 0; c < 4; ++c) lh.view[c][2] = -lh.view[c][2];
    lh.proj[2] = -lh.proj[2];
    const float hw = 30.0f, hh = hw / aspect;
    add("orthographic standard-Z", orthographic(-hw, hw, -hh, hh, n, f, false), false, f);
    Camera& oc =
        add("orthographic reverse-Z off-centre", orthographic(-hw + 7, hw + 7, -hh - 3, hh - 3, -5, f, true), true, f);
    oc.znear = -5.0f;
    Camera& of =
        add("orthographic flipped viewport, depth 0.2..0.9", orthographic(-hw, hw, -hh, hh, n, f, false), false, f);
    of.proj[1][1] = -of.proj[1][1];
    of.flipY = true;
    of.minDepth = 0.2f;
    of.maxDepth = 0.9f;
    // Left-handed orthographic (glm lookAtLH + orthoLH_ZO): the matrices alone read as a right-handed view
    // of the other depth convention; ViewDesc::orthographicForward = +1 says which it is.
    for (bool reverse : {false, true}) {
        Camera& lo = add(reverse ? "left-handed orthographic reverse-Z" : "left-handed orthographic standard-Z",
                         orthographic(-hw, hw, -hh, hh, n, f, reverse), reverse, f);
        lo.leftHanded = true;
        for (int c = 0; c < 4; ++c) lo.view[c][2] = -lo.view[c][2];
        lo.proj[2] = -lo.proj[2];
    }
    return cams;
}

inline glm::dmat4 toDouble(const glm::mat4& m) {
    glm::dmat4 d;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) d[c][r] = m[c][r];
    return d;
}

// Attachment depth of a view-space point at distance `dist` along the view axis, from the raw matrices.
inline double depthAtDistance(const Camera& cam, double dist) {
    const double z = cam.leftHanded ? dist : -dist;
    const double zc = double(cam.proj[2][2]) * z + cam.proj[3][2], wc = double(cam.proj[2][3]) * z + cam.proj[3][3];
    return cam.minDepth + (double(cam.maxDepth) - cam.minDepth) * (zc / wc);
}

// Depth image: the clear depth, then axis-aligned pixel rectangles ("walls" facing the camera at view
// distance `distance`), nearest wins.
struct Wall {
    uint32_t x0, y0, x1, y1;  // pixels, half-open
    float distance;
};
inline std::vector<float> makeWallDepth(uint32_t w, uint32_t h, const Camera& cam, const std::vector<Wall>& walls) {
    std::vector<float> d(size_t(w) * h, cam.clearDepth());
    for (const Wall& wall : walls) {
        const float v = float(depthAtDistance(cam, wall.distance));
        for (uint32_t y = wall.y0; y < std::min(wall.y1, h); ++y)
            for (uint32_t x = wall.x0; x < std::min(wall.x1, w); ++x) {
                float& px = d[size_t(y) * w + x];
                px = cam.reverse ? std::max(px, v) : std::min(px, v);
            }
    }
    return d;
}

// True when the sphere covers some pixel centre with a depth that passes the host's depth test
// against `depth` there (the sphere may be visible). Per pixel: the line through the pixel centre is
// X(zn) = inverse(proj * view) * (ndc x, ndc y, zn, 1) for zn in [0, 1] (the clip volume); the sphere
// holds the zn where |X.xyz - c X.w|^2 <= r^2 X.w^2, a quadratic; its nearest zn decides.
inline bool sphereMayBeVisible(const vec4& s, const Camera& cam, const std::vector<float>& depth, uint32_t w,
                               uint32_t h) {
    const glm::dmat4 inv = glm::inverse(toDouble(cam.proj) * toDouble(cam.view));
    const VkViewport vp = cam.viewport({w, h});
    const glm::dvec3 c(s.x, s.y, s.z);
    const double r = s.w;
    for (uint32_t py = 0; py < h; ++py)
        for (uint32_t px = 0; px < w; ++px) {
            const double nx = 2.0 * (px + 0.5 - vp.x) / vp.width - 1.0;
            const double ny = 2.0 * (py + 0.5 - vp.y) / vp.height - 1.0;
            const glm::dvec4 h0 = inv * glm::dvec4(nx, ny, 0.0, 1.0), h1 = inv * glm::dvec4(nx, ny, 1.0, 1.0);
            const glm::dvec3 u0 = glm::dvec3(h0) - c * h0.w, du = glm::dvec3(h1) - c * h1.w - u0;
            const double w0 = h0.w, dw = h1.w - h0.w;
            // Q(zn) = |u0 + zn du|^2 - r^2 (w0 + zn dw)^2 = qa zn^2 + qb zn + qc
            const double qa = glm::dot(du, du) - r * r * dw * dw;
            const double qb = 2.0 * glm::dot(u0, du) - 2.0 * r * r * w0 * dw;
            const double qc = glm::dot(u0, u0) - r * r * w0 * w0;
            auto inside = [&](double zn) { return qa * zn * zn + qb * zn + qc <= 0.0; };
            std::vector<double> cand{0.0, 1.0};
            if (qa != 0.0) {
                const double disc = qb * qb - 4.0 * qa * qc;
                if (disc >= 0.0)
                    for (double sg : {-1.0, 1.0}) cand.push_back((-qb + sg * std::sqrt(disc)) / (2.0 * qa));
            } else if (qb != 0.0) {
                cand.push_back(-qc / qb);
            }
            // The nearest zn of the sphere in [0, 1]: candidates are the ends and the roots.
            bool any = false;
            double best = 0.0;
            const double nearer = (cam.reverse ? 1.0 : -1.0) * (double(cam.maxDepth) - cam.minDepth);  // sign
            for (size_t i = 0; i < cand.size(); ++i) {
                const double zn = std::clamp(cand[i], 0.0, 1.0);
                if (i < 2 ? !inside(zn) : (cand[i] < 0.0 || cand[i] > 1.0)) continue;
                if (!any || zn * nearer > best * nearer) best = zn;
                any = true;
            }
            if (!any) continue;
            const double fb = cam.minDepth + (double(cam.maxDepth) - cam.minDepth) * best;
            const double stored = depth[size_t(py) * w + px];
            if (cam.reverse ? fb >= stored : fb <= stored) return true;
        }
    return false;
}

// A world-space sphere that projects near the screen (ndc in [-1.2, 1.2]) at view distance in
// [znear + 0.1, min(zfar, 60)), with a radius from tiny to a sizeable share of the view.
template <class Rng>
vec4 randomSphereInView(const Camera& cam, Rng& rng) {
    std::uniform_real_distribution<float> u01(0.0f, 1.0f);
    const bool ortho = cam.proj[2][3] == 0.0f;
    const float dmax = std::min(cam.zfar, 60.0f), d = cam.znear + 0.1f + (dmax - cam.znear - 0.1f) * u01(rng);
    const float nx = 2.4f * u01(rng) - 1.2f, ny = 2.4f * u01(rng) - 1.2f;
    const float unit = ortho ? 1.0f : d;  // view units per ndc unit, times the scale
    const float x = nx / std::abs(cam.proj[0][0]) * unit, y = ny / std::abs(cam.proj[1][1]) * unit;
    const float r = (0.002f + 0.15f * u01(rng) * u01(rng)) * unit / std::abs(cam.proj[1][1]);
    const glm::vec4 w = glm::inverse(cam.view) * glm::vec4(x, y, cam.leftHanded ? d : -d, 1.0f);
    return vec4(w.x, w.y, w.z, r);
}

// CullParams for a camera drawing into a depth attachment of `depthExtent`.
inline sieve::Result<sieve::gpu::CullParams> makeParams(const Camera& cam, VkExtent2D depthExtent, uint32_t n,
                                                        const sieve::CullSettings& settings = {}) {
    const VkExtent2D base = sieve::HiZBuilder::pyramidExtent(depthExtent);
    return sieve::makeCullParams(cam.desc(depthExtent), base, sieve::HiZBuilder::mipCount(base), n, settings);
}

}  // namespace testing_cull
