#include "assets/bounding_sphere.h"

#include <algorithm>
#include <cmath>

namespace sieve::assets {
namespace {

float farthestDistance(std::span<const glm::vec3> points, glm::vec3 centre) {
    float r2 = 0.0f;
    for (const glm::vec3& p : points) {
        glm::vec3 d = p - centre;
        r2 = std::max(r2, glm::dot(d, d));
    }
    return std::sqrt(r2);
}

// Ritter: start from the most separated pair of axis extremes, then grow to cover outliers.
glm::vec4 ritter(std::span<const glm::vec3> points) {
    size_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (size_t i = 0; i < points.size(); ++i)
        for (int a = 0; a < 3; ++a) {
            if (points[i][a] < points[lo[a]][a]) lo[a] = i;
            if (points[i][a] > points[hi[a]][a]) hi[a] = i;
        }
    int axis = 0;
    float best = -1.0f;
    for (int a = 0; a < 3; ++a) {
        glm::vec3 d = points[hi[a]] - points[lo[a]];
        if (glm::dot(d, d) > best) best = glm::dot(d, d), axis = a;
    }
    glm::vec3 centre = (points[lo[axis]] + points[hi[axis]]) * 0.5f;
    float radius = std::sqrt(best) * 0.5f;
    for (const glm::vec3& p : points) {
        glm::vec3 d = p - centre;
        float dist = std::sqrt(glm::dot(d, d));
        if (dist > radius) {
            float grown = (radius + dist) * 0.5f;
            centre += d * ((grown - radius) / dist);
            radius = grown;
        }
    }
    return glm::vec4(centre, radius);
}

}  // namespace

glm::vec4 boundingSphere(std::span<const glm::vec3> points) {
    if (points.empty()) return glm::vec4(0.0f);
    glm::vec3 mn = points[0], mx = points[0];
    for (const glm::vec3& p : points) mn = glm::min(mn, p), mx = glm::max(mx, p);
    glm::vec3 boxCentre = (mn + mx) * 0.5f;
    float boxRadius = farthestDistance(points, boxCentre);
    glm::vec4 r = ritter(points);
    // Ritter's growth is exact in real arithmetic; recompute its radius so rounding cannot leave a
    // point outside.
    glm::vec3 rc(r);
    float ritterRadius = farthestDistance(points, rc);
    glm::vec4 sphere = ritterRadius < boxRadius ? glm::vec4(rc, ritterRadius) : glm::vec4(boxCentre, boxRadius);
    float extent = std::max(std::abs(sphere.x), std::max(std::abs(sphere.y), std::abs(sphere.z)));
    sphere.w = sphere.w * (1.0f + 1e-5f) + extent * 1e-6f;
    return sphere;
}

}  // namespace sieve::assets
