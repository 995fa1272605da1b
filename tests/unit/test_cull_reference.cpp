// CullParams layout, frustum planes, and the occlusion/LOD references against ground truth.
#include <gtest/gtest.h>

#include <cstddef>

#include "assets/glm_interop.h"
#include "gpu/test_cull_flags_util.h"

using sieve::gpu::CullParams;
using testing_cull::vec4;

TEST(CullParamsLayout, MatchesStd140Offsets) {
    EXPECT_EQ(offsetof(CullParams, view), 0u);
    EXPECT_EQ(offsetof(CullParams, planes), 64u);
    EXPECT_EQ(offsetof(CullParams, scaleX), 160u);
    EXPECT_EQ(offsetof(CullParams, depthA), 176u);
    EXPECT_EQ(offsetof(CullParams, kind), 192u);
    EXPECT_EQ(offsetof(CullParams, lodThreshold), 200u);
    EXPECT_EQ(offsetof(CullParams, pyramidWidth), 208u);
    EXPECT_EQ(offsetof(CullParams, instanceCount), 220u);
    EXPECT_EQ(offsetof(CullParams, toggles), 224u);
    EXPECT_EQ(offsetof(CullParams, lodBias), 228u);
    EXPECT_EQ(offsetof(CullParams, instanceMask), 232u);
    EXPECT_EQ(offsetof(CullParams, debugRadiusShrink), 236u);
    EXPECT_EQ(offsetof(CullParams, drawDistance), 240u);
    EXPECT_EQ(sizeof(CullParams), 256u);
    EXPECT_EQ(sizeof(sieve::gpu::CullCounters), 4u * sieve::gpu::SIEVE_CULL_COUNTER_WORDS);
}

TEST(CullFrustum, PlanesSeparateInsideFromOutside) {
    auto cam = testing_cull::makeCamera(16.0f / 9.0f, {3, 2, 1}, {3, 2, -9});
    auto p = testing_cull::makeParams(cam, {64, 64}, 1);
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

namespace {
// A wall at distance 10 over the middle of a 160 x 90 screen, its depth, pyramid and view parameters.
struct WallScene {
    static constexpr uint32_t W = 160, H = 90;
    testing_cull::Camera cam = testing_cull::makeCamera(float(W) / H);
    std::vector<float> depth = testing_cull::makeWallDepth(W, H, cam, {{40, 20, 120, 70, 10.0f}});
    sieve::HiZPyramidCpu pyramid = sieve::hizReference({W, H}, depth);
    sieve::Result<CullParams> params = testing_cull::makeParams(cam, {W, H}, 1);
};
}  // namespace

// Spheres behind the wall are occluded, the others not.
TEST(CullOcclusion, WallHidesWhatIsBehindIt) {
    WallScene wall;
    auto& p = wall.params;
    const auto& pyramid = wall.pyramid;
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_TRUE(sieve::occludedReference(vec4(0, 0, -30, 1), *p, pyramid));        // behind, centre
    EXPECT_FALSE(sieve::occludedReference(vec4(0, 0, -5, 1), *p, pyramid));        // in front
    EXPECT_FALSE(sieve::occludedReference(vec4(0, 0, -10.5f, 1), *p, pyramid));    // pokes through the wall
    EXPECT_FALSE(sieve::occludedReference(vec4(30, 0, -30, 1), *p, pyramid));      // beside the wall
    EXPECT_FALSE(sieve::occludedReference(vec4(0, 0, -0.7f, 0.5f), *p, pyramid));  // crosses the near plane
    EXPECT_FALSE(sieve::occludedReference(vec4(NAN, 0, -30, 1), *p, pyramid));
    EXPECT_FALSE(sieve::occludedReference(vec4(0, 0, 30, 1), *p, pyramid));  // behind the camera
}

// The false-culling check's reference: a sphere wholly behind the wall shows no pixel; one whose
// rectangle reaches past the wall's edge does; so does one the shrunken-radius knob lets the occlusion
// test cull although it peeks out.
TEST(CullFalseCulling, PixelsFartherThanTheSphereMeanItWasVisible) {
    WallScene wall;
    auto& p = wall.params;
    const auto& pyramid = wall.pyramid;
    const auto& depth = wall.depth;
    const uint32_t W = WallScene::W, H = WallScene::H;
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_FALSE(sieve::falselyCulledReference(vec4(0, 0, -30, 1), *p, {W, H}, depth));
    EXPECT_TRUE(sieve::falselyCulledReference(vec4(30, 0, -30, 1), *p, {W, H}, depth));  // beside the wall
    EXPECT_TRUE(sieve::falselyCulledReference(vec4(0, 0, -5, 1), *p, {W, H}, depth));    // in front of it
    EXPECT_FALSE(sieve::falselyCulledReference(vec4(0, 0, 30, 1), *p, {W, H}, depth));   // behind the eye
    const vec4 edge(9.9f, 0, -20, 1);  // partly behind the wall's right edge
    EXPECT_FALSE(sieve::occludedReference(edge, *p, pyramid));
    EXPECT_TRUE(sieve::falselyCulledReference(edge, *p, {W, H}, depth));
    CullParams shrunk = *p;
    shrunk.debugRadiusShrink = 0.9f;
    EXPECT_TRUE(sieve::occludedReference(edge, shrunk, pyramid)) << "the planted error culls it";
}

TEST(CullLod, CoarserWithDistanceBiasAndToggle) {
    auto cam = testing_cull::makeCamera(1.0f);
    sieve::CullSettings settings;
    settings.lodThreshold = 1.0f;
    auto p = testing_cull::makeParams(cam, {1000, 1000}, 1, settings);  // viewport height 1000
    ASSERT_TRUE(p) << p.error().message;
    sieve::gpu::MeshPrimitive prim{};
    prim.lodCount = 4;
    const float errors[4] = {0.0f, 0.01f, 0.1f, 1.0f};
    for (int l = 0; l < 4; ++l) prim.lods[l].error = errors[l];
    sieve::gpu::Mesh mesh{};
    mesh.primitiveCount = 1;
    std::vector<sieve::gpu::Mesh> meshes{mesh};
    std::vector<sieve::gpu::MeshPrimitive> prims{prim};
    sieve::CullScene scene{{}, {}, meshes, prims};
    sieve::gpu::Instance inst{};
    vec4 sphere{};
    inst.scale = 1.0f;
    // pixels per unit at distance D: |P11| * 1000 / 2 / D, |P11| = 1 / tan(30 deg) = 1.732
    sphere = vec4(0, 0, -2, 1);  // D = 1: 866 px/unit, LOD 1 is 8.7 px
    EXPECT_EQ(sieve::lodReference(inst, sphere, *p, scene), 0u);
    sphere = vec4(0, 0, -21, 1);  // D = 20: 43 px/unit: LOD 1 0.43 px, LOD 2 4.3 px
    EXPECT_EQ(sieve::lodReference(inst, sphere, *p, scene), 1u);
    sphere = vec4(0, 0, -2001, 1);  // D = 2000: LOD 3 is 0.43 px
    EXPECT_EQ(sieve::lodReference(inst, sphere, *p, scene), 3u);
    p->lodBias = 1;
    sphere = vec4(0, 0, -21, 1);
    EXPECT_EQ(sieve::lodReference(inst, sphere, *p, scene), 2u);
    p->lodBias = -5;
    EXPECT_EQ(sieve::lodReference(inst, sphere, *p, scene), 0u);
    p->lodBias = 0;
    p->toggles &= ~sieve::gpu::SIEVE_CULL_LOD;
    EXPECT_EQ(sieve::lodReference(inst, sphere, *p, scene), 0u);
}

// Orthographic: the projected error is the same at every distance (no division by distance).
TEST(CullLod, OrthographicDoesNotDependOnDistance) {
    testing_cull::Camera cam;
    cam.proj = testing_cull::orthographic(-50, 50, -50, 50, 0.5f, 5000, false);  // 10 px per unit at 1000 px
    cam.reverse = false;
    sieve::CullSettings settings;
    settings.lodThreshold = 1.0f;
    auto p = testing_cull::makeParams(cam, {1000, 1000}, 1, settings);
    ASSERT_TRUE(p) << p.error().message;
    sieve::gpu::MeshPrimitive prim{};
    prim.lodCount = 3;
    prim.lods[1].error = 0.05f;  // 0.5 px
    prim.lods[2].error = 0.5f;   // 5 px
    sieve::gpu::Mesh mesh{};
    mesh.primitiveCount = 1;
    std::vector<sieve::gpu::Mesh> meshes{mesh};
    std::vector<sieve::gpu::MeshPrimitive> prims{prim};
    sieve::CullScene scene{{}, {}, meshes, prims};
    sieve::gpu::Instance inst{};
    vec4 sphere{};
    inst.scale = 1.0f;
    for (float z : {-2.0f, -40.0f, -4000.0f}) {
        sphere = vec4(0, 0, z, 1);
        EXPECT_EQ(sieve::lodReference(inst, sphere, *p, scene), 1u) << "z " << z;
    }
    inst.scale = 30.0f;  // LOD 1 is 15 px
    EXPECT_EQ(sieve::lodReference(inst, sphere, *p, scene), 0u);
}
