// CullParams layout, frustum planes, and the occlusion/LOD references against ground truth.
#include <gtest/gtest.h>

#include <cstddef>

#include "gpu/test_cull_flags_util.h"
#include "assets/glm_interop.h"

using sieve::gpu::CullParams;
using testing_cull::vec4;

TEST(CullParamsLayout, MatchesStd140Offsets) {
    EXPECT_EQ(offsetof(CullParams, viewProj), 0u);
    EXPECT_EQ(offsetof(CullParams, view), 64u);
    EXPECT_EQ(offsetof(CullParams, planes), 128u);
    EXPECT_EQ(offsetof(CullParams, P00), 224u);
    EXPECT_EQ(offsetof(CullParams, pyramidWidth), 240u);
    EXPECT_EQ(offsetof(CullParams, instanceCount), 252u);
    EXPECT_EQ(offsetof(CullParams, toggles), 256u);
    EXPECT_EQ(offsetof(CullParams, lodBias), 264u);
    EXPECT_EQ(sizeof(CullParams), 272u);
    EXPECT_EQ(sizeof(sieve::gpu::CullCounters), 16u);
}

TEST(CullParams, RejectsProjectionsThatAreNotInfiniteReverseZ) {
    glm::mat4 finite = glm::perspective(1.0f, 1.0f, 0.1f, 100.0f);
    auto r = sieve::makeCullParams(glm::mat4(1.0f), finite, {64, 64}, 7, 1, {});
    EXPECT_FALSE(r);
    auto ok = sieve::makeCullParams(glm::mat4(1.0f), sieve::perspectiveReverseZ(1.0f, 1.5f, 0.1f), {64, 64}, 7, 1, {});
    ASSERT_TRUE(ok) << ok.error().message;
    EXPECT_EQ(ok->znear, 0.1f);
}

TEST(CullFrustum, PlanesSeparateInsideFromOutside) {
    auto cam = testing_cull::makeCamera(16.0f / 9.0f, {3, 2, 1}, {3, 2, -9});
    auto p = sieve::makeCullParams(cam.view, cam.proj, {64, 64}, 7, 1, {});
    ASSERT_TRUE(p) << p.error().message;
    for (int i = 0; i < 5; ++i) EXPECT_NEAR(glm::length(sieve::toGlm3(p->planes[i])), 1.0f, 1e-5f);
    EXPECT_EQ(p->planes[5], vec4(0, 0, 0, 1));
    EXPECT_TRUE(sieve::gpu::sieveInFrustum(vec4(3, 2, -20, 0.1f), *p));    // straight ahead
    EXPECT_TRUE(sieve::gpu::sieveInFrustum(vec4(3, 2, -1e6f, 0.1f), *p));  // far: no far plane
    EXPECT_FALSE(sieve::gpu::sieveInFrustum(vec4(3, 2, 10, 1.0f), *p));    // behind
    EXPECT_FALSE(sieve::gpu::sieveInFrustum(vec4(50, 2, -5, 1.0f), *p));   // right of the view
    EXPECT_TRUE(sieve::gpu::sieveInFrustum(vec4(3, 2, 0.6f, 0.5f), *p));   // crosses the near plane (z = 0.5)
    EXPECT_TRUE(sieve::gpu::sieveInFrustum(vec4(NAN, 2, 10, 1.0f), *p));   // non-finite: visible
    EXPECT_TRUE(sieve::gpu::sieveInFrustum(vec4(3, 2, 10, INFINITY), *p));
}

// A wall at distance 10 over the middle of the screen; spheres behind it are occluded, the others not.
TEST(CullOcclusion, WallHidesWhatIsBehindIt) {
    const uint32_t W = 160, H = 90;
    auto cam = testing_cull::makeCamera(float(W) / H);
    auto depth = testing_cull::makeWallDepth(W, H, cam.znear, {{40, 20, 120, 70, 10.0f}});
    auto pyramid = sieve::hizReference({W, H}, depth);
    auto p = sieve::makeCullParams(cam.view, cam.proj, pyramid.extent(), pyramid.mipCount(), 1, {});
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_TRUE(sieve::occludedReference(vec4(0, 0, -30, 1), *p, pyramid));        // behind, centre
    EXPECT_FALSE(sieve::occludedReference(vec4(0, 0, -5, 1), *p, pyramid));        // in front
    EXPECT_FALSE(sieve::occludedReference(vec4(0, 0, -10.5f, 1), *p, pyramid));    // pokes through the wall
    EXPECT_FALSE(sieve::occludedReference(vec4(30, 0, -30, 1), *p, pyramid));      // beside the wall
    EXPECT_FALSE(sieve::occludedReference(vec4(0, 0, -0.7f, 0.5f), *p, pyramid));  // crosses the near plane
    EXPECT_FALSE(sieve::occludedReference(vec4(NAN, 0, -30, 1), *p, pyramid));
    EXPECT_FALSE(sieve::occludedReference(vec4(0, 0, 30, 1), *p, pyramid));  // behind the camera
}

// Property: no sphere that has a pixel where it would pass the depth test is ever occluded.
TEST(CullOcclusion, NeverCullsASphereWithAVisiblePixel) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u01(0.0f, 1.0f);
    uint32_t culled = 0, tested = 0;
    for (VkExtent2D e : {VkExtent2D{97, 61}, {128, 128}, {33, 70}}) {
        auto cam = testing_cull::makeCamera(float(e.width) / e.height);
        auto depth = testing_cull::makeWallDepth(e.width, e.height, cam.znear,
                                                 testing_cull::randomWalls(e.width, e.height, 6, rng));
        auto pyramid = sieve::hizReference(e, depth);
        auto p = sieve::makeCullParams(cam.view, cam.proj, pyramid.extent(), pyramid.mipCount(), 1, {});
        ASSERT_TRUE(p) << p.error().message;
        for (int i = 0; i < 3000; ++i) {
            const float z = -(0.6f + 60.0f * u01(rng));
            const vec4 s((u01(rng) * 2 - 1) * -z * 0.8f, (u01(rng) * 2 - 1) * -z * 0.6f, z,
                         0.02f + 4.0f * u01(rng) * u01(rng));
            ++tested;
            if (!sieve::occludedReference(s, *p, pyramid)) continue;
            ++culled;
            ASSERT_FALSE(testing_cull::sphereMayBeVisible(s, cam, depth, e.width, e.height))
                << "culled a visible sphere (" << s.x << ", " << s.y << ", " << s.z << ", r " << s.w << ") at "
                << e.width << "x" << e.height;
        }
    }
    // The test must exercise culling, not only pass because nothing is culled.
    EXPECT_GT(culled, tested / 20) << culled << " of " << tested;
}

TEST(CullLod, CoarserWithDistanceBiasAndToggle) {
    auto cam = testing_cull::makeCamera(1.0f);
    sieve::CullSettings settings;
    settings.lodThreshold = 1.0f;
    settings.viewportHeight = 1000.0f;
    auto p = sieve::makeCullParams(cam.view, cam.proj, {64, 64}, 7, 1, settings);
    ASSERT_TRUE(p) << p.error().message;
    sieve::gpu::MeshPrimitive prim{};
    prim.lodCount = 4;
    const float errors[4] = {0.0f, 0.01f, 0.1f, 1.0f};
    for (int l = 0; l < 4; ++l) prim.lods[l].error = errors[l];
    sieve::gpu::Mesh mesh{};
    mesh.primitiveCount = 1;
    std::vector<sieve::gpu::Mesh> meshes{mesh};
    std::vector<sieve::gpu::MeshPrimitive> prims{prim};
    sieve::CullScene scene{{}, meshes, prims};
    sieve::gpu::Instance inst{};
    inst.scale = 1.0f;
    // pixels per unit at distance D: |P11| * 1000 / 2 / D, |P11| = 1 / tan(30 deg) = 1.732
    inst.sphere = vec4(0, 0, -2, 1);  // D = 1: 866 px/unit, LOD 1 is 8.7 px
    EXPECT_EQ(sieve::lodReference(inst, *p, scene), 0u);
    inst.sphere = vec4(0, 0, -21, 1);  // D = 20: 43 px/unit: LOD 1 0.43 px, LOD 2 4.3 px
    EXPECT_EQ(sieve::lodReference(inst, *p, scene), 1u);
    inst.sphere = vec4(0, 0, -2001, 1);  // D = 2000: LOD 3 is 0.43 px
    EXPECT_EQ(sieve::lodReference(inst, *p, scene), 3u);
    p->lodBias = 1;
    inst.sphere = vec4(0, 0, -21, 1);
    EXPECT_EQ(sieve::lodReference(inst, *p, scene), 2u);
    p->lodBias = -5;
    EXPECT_EQ(sieve::lodReference(inst, *p, scene), 0u);
    p->lodBias = 0;
    p->toggles &= ~sieve::gpu::SIEVE_CULL_LOD;
    EXPECT_EQ(sieve::lodReference(inst, *p, scene), 0u);
}
