// The draw-distance test (shared/cull.h sieveWithinDrawDistance) against the definition evaluated in
// double: an instance is culled only when its whole sphere lies beyond the limit (the smaller of the
// view's draw distance and the instance's cull distance, each 0 for none), never when any point of it is
// within; and spheres clearly beyond are culled. Eyes far from the origin and large distances stress the
// float view transform.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gpu/test_cull_views.h"
#include "sieve/cull_flags.h"

namespace {

using sieve::gpu::vec4;

// Distance from the eye to the sphere's nearest point (axis: to the nearest plane across the view
// axis), in double from the raw camera.
double nearestDistance(const testing_cull::Camera& cam, const vec4& s, bool axis) {
    const glm::dmat4 view = testing_cull::toDouble(cam.view);
    const glm::dvec4 c = view * glm::dvec4(s.x, s.y, s.z, 1.0);
    const double d = cam.leftHanded ? c.z : -c.z;
    return (axis ? d : glm::length(glm::dvec3(c))) - s.w;
}

double limitOf(float view, float instance) {
    double l = INFINITY;
    if (view > 0) l = view;
    if (instance > 0) l = std::min(l, double(instance));
    return l;
}

}  // namespace

TEST(CullDistance, NeverCullsASphereWithinTheLimitAndCullsThoseClearlyBeyond) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u01(0.0f, 1.0f);
    uint64_t culled = 0, kept = 0;
    for (const glm::vec3 eye : {glm::vec3(0, 0, 0), glm::vec3(1000, -20, 3000), glm::vec3(-1e5f, 10, 2e5f)}) {
        auto cam = testing_cull::makeCamera(16.0f / 9.0f, eye, eye + glm::vec3(0.3f, -0.1f, -1.0f));
        for (const float viewDistance : {0.0f, 1.0f, 200.0f, 5000.0f})
            for (const bool axis : {false, true}) {
                sieve::CullSettings settings;
                settings.drawDistance = viewDistance;
                settings.distanceAlongAxis = axis;
                auto p = testing_cull::makeParams(cam, {64, 64}, 1, settings);
                ASSERT_TRUE(p) << p.error().message;
                for (int k = 0; k < 20000; ++k) {
                    const float instanceDistance = k % 3 == 0 ? 0.0f : 300.0f * u01(rng);
                    const double limit = limitOf(viewDistance, instanceDistance);
                    // Around the limit: within a few percent of it, either side.
                    const double target = std::isinf(limit) ? 1e4 : limit * (0.97 + 0.06 * u01(rng));
                    const float r = 0.01f + 20.0f * u01(rng) * u01(rng);
                    // Axis: in front of the eye, so that the view-axis distance spans the limit too.
                    const glm::vec3 dir = glm::normalize(glm::vec3(u01(rng) - 0.5f, u01(rng) - 0.5f, u01(rng) - 0.5f) +
                                                         (axis ? glm::vec3(0.3f, -0.1f, -1.0f) : glm::vec3(0.0f)));
                    const glm::vec3 c = eye + dir * float(target + r);
                    const vec4 s(c.x, c.y, c.z, r);
                    const bool within = sieve::gpu::sieveWithinDrawDistance(s, instanceDistance, *p);
                    const double d = nearestDistance(cam, s, axis);
                    if (d <= limit) {
                        EXPECT_TRUE(within) << "culled at " << d << " <= " << limit << " (eye " << eye.x << ")";
                    }
                    // Beyond by more than the float margins (2^-10 relative plus the view transform's rounding).
                    const double slack =
                        4e-3 * (limit + r) + 1e-6 * (std::abs(eye.x) + std::abs(eye.y) + std::abs(eye.z));
                    if (d > limit + slack) {
                        EXPECT_FALSE(within) << "kept at " << d << " > " << limit;
                    }
                    culled += !within;
                    kept += within;
                    if (HasFailure()) return;
                }
            }
    }
    EXPECT_GT(culled, 10000u);
    EXPECT_GT(kept, 10000u);
}

TEST(CullDistance, NoLimitAndNonFiniteBoundsKeep) {
    auto cam = testing_cull::makeCamera(1.0f);
    auto p = testing_cull::makeParams(cam, {64, 64}, 1);
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_TRUE(sieve::gpu::sieveWithinDrawDistance(vec4(0, 0, -1e30f, 1), 0.0f, *p));  // no limit at all
    p->drawDistance = 10.0f;
    EXPECT_FALSE(sieve::gpu::sieveWithinDrawDistance(vec4(0, 0, -100, 1), 0.0f, *p));
    EXPECT_TRUE(sieve::gpu::sieveWithinDrawDistance(vec4(0, 0, -10.5f, 1), 0.0f, *p));  // reaches within 9.5
    EXPECT_TRUE(sieve::gpu::sieveWithinDrawDistance(vec4(NAN, 0, -100, 1), 0.0f, *p));  // non-finite: kept
    EXPECT_FALSE(sieve::gpu::sieveWithinDrawDistance(vec4(0, 0, -8, 1), 5.0f, *p));     // its own is smaller
    p->drawDistance = 0.0f;
    EXPECT_FALSE(sieve::gpu::sieveWithinDrawDistance(vec4(0, 0, -8, 1), 5.0f, *p));  // the instance's alone
    EXPECT_TRUE(sieve::gpu::sieveWithinDrawDistance(vec4(0, 0, -5.5f, 1), 5.0f, *p));
    // Along the axis: a sphere off to the side at depth 9 is within 10 there, not from the eye.
    p->drawDistance = 10.0f;
    EXPECT_FALSE(sieve::gpu::sieveWithinDrawDistance(vec4(30, 0, -9, 1), 0.0f, *p));
    p->distanceAlongAxis = 1;
    EXPECT_TRUE(sieve::gpu::sieveWithinDrawDistance(vec4(30, 0, -9, 1), 0.0f, *p));
    EXPECT_FALSE(sieve::gpu::sieveWithinDrawDistance(vec4(0, 0, -11.5f, 1), 0.0f, *p));
}
