#include "engine/scene/cascades.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace engine {

void casterBounds(std::span<const sieve::gpu::InstanceBounds> bounds, glm::vec3& lo, glm::vec3& hi) {
    lo = glm::vec3(INFINITY);
    hi = glm::vec3(-INFINITY);
    for (const auto& b : bounds) {
        const glm::vec3 c(b.sphere.x, b.sphere.y, b.sphere.z);
        lo = glm::min(lo, c - b.sphere.w);
        hi = glm::max(hi, c + b.sphere.w);
    }
}

std::vector<float> cascadeSplits(const CascadeSetup& s) {
    const uint32_t n = std::clamp(s.count, 1u, 4u);
    std::vector<float> splits(n + 1);
    const float lo = std::max(s.znear, 1e-3f), hi = std::max(s.maxDistance, lo * 2.0f);
    for (uint32_t i = 0; i <= n; ++i) {
        const float t = float(i) / float(n);
        splits[i] = 0.5f * (lo * std::pow(hi / lo, t)) + 0.5f * (lo + (hi - lo) * t);
    }
    splits[0] = s.znear;
    return splits;
}

std::vector<Cascade> fitCascades(const glm::mat4& cameraView, const CascadeSetup& s) {
    const glm::mat4 toWorld = glm::inverse(cameraView);
    const glm::vec3 dir = glm::normalize(s.toLight);
    const glm::vec3 up = std::abs(dir.y) > 0.99f ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
    const std::vector<float> splits = cascadeSplits(s);
    const float ty = std::tan(s.fovY * 0.5f), tx = ty * s.aspect;
    std::vector<Cascade> out;
    for (size_t k = 0; k + 1 < splits.size(); ++k) {
        // The slice's eight corners in world space.
        glm::vec3 corners[8];
        glm::vec3 centre(0.0f);
        for (int c = 0; c < 8; ++c) {
            const float d = (c & 4) ? splits[k + 1] : splits[k];
            const glm::vec4 p(((c & 1) ? 1.0f : -1.0f) * tx * d, ((c & 2) ? 1.0f : -1.0f) * ty * d, -d, 1.0f);
            corners[c] = glm::vec3(toWorld * p);
            centre += corners[c] / 8.0f;
        }
        Cascade cas;
        cas.splitNear = splits[k];
        cas.splitFar = splits[k + 1];
        cas.view = glm::lookAt(centre + dir, centre, up);
        glm::vec3 lo(INFINITY), hi(-INFINITY);
        for (const glm::vec3& c : corners) {
            const glm::vec3 v = glm::vec3(cas.view * glm::vec4(c, 1.0f));
            lo = glm::min(lo, v);
            hi = glm::max(hi, v);
        }
        // Towards the light: every scene corner in front of the slice (casters may lie outside it).
        float nearD = -hi.z;
        for (int c = 0; c < 8; ++c) {
            const glm::vec3 p((c & 1) ? s.sceneMax.x : s.sceneMin.x, (c & 2) ? s.sceneMax.y : s.sceneMin.y,
                              (c & 4) ? s.sceneMax.z : s.sceneMin.z);
            nearD = std::min(nearD, -glm::vec3(cas.view * glm::vec4(p, 1.0f)).z);
        }
        const float farD = -lo.z;
        nearD -= 1.0f;  // margin: casters' faces exactly on the bound stay inside
        // Orthographic, looking down -Z, y flipped for a positive viewport, reverse Z over [nearD, farD].
        glm::mat4 p(1.0f);
        p[0][0] = 2.0f / (hi.x - lo.x);
        p[1][1] = -2.0f / (hi.y - lo.y);
        p[3][0] = -(hi.x + lo.x) / (hi.x - lo.x);
        p[3][1] = (hi.y + lo.y) / (hi.y - lo.y);
        // z_ndc = (farD - d) / (farD - nearD), d = -z_view.
        p[2][2] = 1.0f / (farD - nearD);
        p[3][2] = farD / (farD - nearD);
        cas.proj = p;
        out.push_back(cas);
    }
    return out;
}

sieve::CullView cascadeView(const Cascade& c, uint32_t k, VkExtent2D e) {
    sieve::CullView v;
    v.desc.view = c.view;
    v.desc.projection = c.proj;
    v.desc.viewport = {0.0f, 0.0f, float(e.width), float(e.height), 0.0f, 1.0f};
    v.tests = sieve::gpu::SIEVE_CULL_FRUSTUM;
    v.instanceMask = sieve::gpu::SIEVE_INSTANCE_CASTS_SHADOW;
    v.name = "cascade " + std::to_string(k);
    v.kind = sieve::ViewKind::Shadow;
    return v;
}

}  // namespace engine
