// The occlusion test is conservative for every supported kind of host view: no sphere that covers a
// pixel centre where it would pass the host's depth test is ever occluded (brute force over every
// pixel, in double, from the raw matrices and viewport), and it still culls.
#include <gtest/gtest.h>

#include <random>

#include "gpu/test_cull_flags_util.h"

using testing_cull::vec4;

TEST(CullOcclusion, NeverCullsASphereWithAVisiblePixelForAnyView) {
    for (VkExtent2D e : {VkExtent2D{97, 61}, {64, 64}, {33, 70}}) {
        for (const testing_cull::Camera& cam : testing_cull::allCameras(float(e.width) / e.height)) {
            SCOPED_TRACE(cam.name + " at " + std::to_string(e.width) + "x" + std::to_string(e.height));
            std::mt19937 rng(11 + e.width);
            auto depth = testing_cull::makeWallDepth(e.width, e.height, cam,
                                                     testing_cull::randomWallsInView(cam, e.width, e.height, 10, rng));
            auto pyramid = sieve::hizReference(e, depth);
            auto p = testing_cull::makeParams(cam, e, 1);
            ASSERT_TRUE(p) << p.error().message;
            uint32_t culled = 0, tested = 600;
            for (uint32_t i = 0; i < tested; ++i) {
                const vec4 s = testing_cull::randomSphereInView(cam, rng);
                if (!sieve::occludedReference(s, *p, pyramid)) continue;
                ++culled;
                ASSERT_FALSE(testing_cull::sphereMayBeVisible(s, cam, depth, e.width, e.height))
                    << "culled a visible sphere (" << s.x << ", " << s.y << ", " << s.z << ", r " << s.w << ")";
            }
            // The test must exercise culling, not only pass because nothing is culled.
            EXPECT_GT(culled, tested / 20) << culled << " of " << tested;
        }
    }
}
