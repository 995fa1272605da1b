// Cascade fitting (engine/scene/cascades.h): splits cover the range in order, every cascade's culling
// view is accepted by makeCullParams, contains its camera slice and reaches back to every caster
// between the light and the slice (its frustum passes the slice's points and the scene's bounds seen
// from the slice towards the light).
#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/scene/cascades.h"
#include "sieve/cull_flags.h"
#include "sieve/hiz.h"

namespace {

engine::CascadeSetup setup(uint32_t count) {
    engine::CascadeSetup s;
    s.fovY = glm::radians(60.0f);
    s.aspect = 16.0f / 9.0f;
    s.znear = 0.1f;
    s.maxDistance = 150.0f;
    s.count = count;
    s.mapExtent = {512, 512};
    s.sceneMin = glm::vec3(-300, 0, -300);
    s.sceneMax = glm::vec3(300, 60, 300);
    return s;
}

sieve::gpu::CullParams paramsOf(const sieve::CullView& v) {
    const VkExtent2D e{uint32_t(v.desc.viewport.width), uint32_t(v.desc.viewport.height)};
    const VkExtent2D base = sieve::HiZBuilder::pyramidExtent(e);
    sieve::CullSettings settings;
    settings.toggles = v.tests;
    auto p = sieve::makeCullParams(v.desc, base, sieve::HiZBuilder::mipCount(base), 1, settings);
    EXPECT_TRUE(p) << p.error().message;
    return p ? p.value() : sieve::gpu::CullParams{};
}

}  // namespace

TEST(Cascades, SplitsCoverTheRangeInOrder) {
    for (uint32_t n = 1; n <= 4; ++n) {
        const auto splits = engine::cascadeSplits(setup(n));
        ASSERT_EQ(splits.size(), n + 1);
        EXPECT_FLOAT_EQ(splits.front(), 0.1f);
        EXPECT_NEAR(splits.back(), 150.0f, 1e-3f);
        for (size_t i = 1; i < splits.size(); ++i) EXPECT_LT(splits[i - 1], splits[i]);
    }
}

TEST(Cascades, EachCascadeHoldsItsSliceAndTheCastersTowardsTheLight) {
    const glm::mat4 camera = glm::lookAt(glm::vec3(40, 1.7f, 40), glm::vec3(0, 1.7f, 40), glm::vec3(0, 1, 0));
    const engine::CascadeSetup s = setup(3);
    const auto cascades = engine::fitCascades(camera, s);
    ASSERT_EQ(cascades.size(), 3u);
    const glm::mat4 toWorld = glm::inverse(camera);
    const float ty = std::tan(s.fovY * 0.5f), tx = ty * s.aspect;
    const glm::vec3 toLight = glm::normalize(s.toLight);
    for (uint32_t k = 0; k < cascades.size(); ++k) {
        SCOPED_TRACE("cascade " + std::to_string(k));
        const sieve::CullView v = engine::cascadeView(cascades[k], k, s.mapExtent);
        EXPECT_EQ(v.instanceMask, sieve::gpu::SIEVE_INSTANCE_CASTS_SHADOW);
        EXPECT_EQ(v.tests, sieve::gpu::SIEVE_CULL_FRUSTUM);
        const sieve::gpu::CullParams p = paramsOf(v);
        EXPECT_EQ(p.kind, sieve::gpu::SIEVE_PROJ_ORTHOGRAPHIC);
        for (int i = 0; i < 64; ++i) {
            // Points of the slice (a grid over its near and far faces and between).
            const float d = cascades[k].splitNear + (cascades[k].splitFar - cascades[k].splitNear) * float(i % 4) / 3;
            const float x = (float(i / 4 % 4) / 3 * 2 - 1) * tx * d * 0.999f;
            const float y = (float(i / 16) / 3 * 2 - 1) * ty * d * 0.999f;
            const glm::vec3 w = glm::vec3(toWorld * glm::vec4(x, y, -d, 1));
            EXPECT_TRUE(sieve::gpu::sieveInFrustum(sieve::gpu::vec4(w.x, w.y, w.z, 0.0f), p)) << i;
            // A caster towards the light from it, still inside the scene, shades it: inside too.
            const glm::vec3 c = w + toLight * 50.0f;
            if (glm::all(glm::lessThanEqual(c, s.sceneMax)) && glm::all(glm::greaterThanEqual(c, s.sceneMin))) {
                EXPECT_TRUE(sieve::gpu::sieveInFrustum(sieve::gpu::vec4(c.x, c.y, c.z, 0.0f), p)) << i;
            }
        }
        // Something far beside the slice is outside: the cascade culls.
        const glm::vec3 far = glm::vec3(toWorld * glm::vec4(0, 0, -cascades[k].splitFar * 3 - 100, 1));
        EXPECT_FALSE(sieve::gpu::sieveInFrustum(sieve::gpu::vec4(far.x, far.y, far.z, 1.0f), p));
    }
}
