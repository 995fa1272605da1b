// makeCullParams: classification of every supported projection and viewport into the canonical
// fields of shared/cull.h, and a clear refusal of everything it cannot cull correctly.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu/test_cull_views.h"

using testing_cull::Camera;
using testing_cull::vec4;

namespace {

const VkExtent2D kExtent{160, 90};

sieve::gpu::CullParams params(const Camera& cam) {
    auto p = testing_cull::makeParams(cam, kExtent, 1);
    EXPECT_TRUE(p) << cam.name << ": " << p.error().message;
    return p ? p.value() : sieve::gpu::CullParams{};
}

// The view-space point at distance d on the axis, in world space.
vec4 onAxis(const Camera& cam, float d, float r) {
    const glm::vec4 v(0, 0, cam.leftHanded ? d : -d, 1);
    const glm::vec4 w = glm::inverse(cam.view) * v;
    return vec4(w.x, w.y, w.z, r);
}

}  // namespace

TEST(CullParamsClassify, EverySupportedCamera) {
    for (const Camera& cam : testing_cull::allCameras(float(kExtent.width) / kExtent.height)) {
        SCOPED_TRACE(cam.name);
        const sieve::gpu::CullParams p = params(cam);
        EXPECT_EQ(p.kind,
                  cam.proj[2][3] == 0.0f ? sieve::gpu::SIEVE_PROJ_ORTHOGRAPHIC : sieve::gpu::SIEVE_PROJ_PERSPECTIVE);
        EXPECT_EQ(p.reverseZ, cam.reverse ? 1u : 0u);
        EXPECT_NEAR(p.nearDist, cam.znear, 1e-4f);
        EXPECT_EQ(p.forward, cam.leftHanded ? 1.0f : -1.0f);
        EXPECT_EQ(p.viewportHeight, float(kExtent.height));
        // The near plane's depth is the nearest value of the viewport range, the far plane's the clear value.
        const bool persp = p.kind == sieve::gpu::SIEVE_PROJ_PERSPECTIVE;
        auto depth = [&](double d) { return persp ? p.depthA + p.depthB / d : p.depthA + p.depthB * d; };
        EXPECT_NEAR(depth(cam.znear),
                    cam.reverse ? std::max(cam.minDepth, cam.maxDepth) : std::min(cam.minDepth, cam.maxDepth), 1e-5);
        if (std::isfinite(cam.zfar)) {
            EXPECT_NEAR(depth(cam.zfar), cam.clearDepth(), 1e-5);
            EXPECT_FALSE(sieve::gpu::sieveInFrustum(onAxis(cam, cam.zfar * 1.1f, 1.0f), p)) << "beyond the far plane";
            EXPECT_TRUE(sieve::gpu::sieveInFrustum(onAxis(cam, cam.zfar * 0.9f, 1.0f), p));
        } else {
            int always = 0;  // the far plane of an infinite projection always passes
            for (int i = 0; i < 6; ++i) always += p.planes[i] == vec4(0, 0, 0, 1);
            EXPECT_EQ(always, 1);
            EXPECT_TRUE(sieve::gpu::sieveInFrustum(onAxis(cam, 1e6f, 1.0f), p));
        }
        EXPECT_FALSE(sieve::gpu::sieveInFrustum(onAxis(cam, cam.znear - 2.0f, 1.0f), p)) << "before the near plane";
        EXPECT_TRUE(sieve::gpu::sieveInFrustum(onAxis(cam, cam.znear - 0.5f, 1.0f), p)) << "crossing the near plane";
        for (int i = 0; i < 6; ++i) {
            const vec4 pl = p.planes[i];
            if (pl == vec4(0, 0, 0, 1)) continue;
            EXPECT_NEAR(std::sqrt(pl.x * pl.x + pl.y * pl.y + pl.z * pl.z), 1.0f, 1e-5f) << "plane " << i;
        }
    }
}

// The screen orientation is the viewport's and the projection's together: a flipped viewport with
// P11 > 0 gives exactly the fields of a positive viewport with P11 < 0 (the planes in another order).
TEST(CullParamsClassify, FlippedViewportEqualsNegatedP11) {
    Camera a = testing_cull::makeCamera(16.0f / 9.0f, {1, 2, 3}, {-4, 1, -20});
    a.proj[2][1] = 0.03f;
    Camera b = a;
    b.proj[1][1] = -b.proj[1][1];
    b.proj[2][1] = -b.proj[2][1];
    b.flipY = true;
    const sieve::gpu::CullParams pa = params(a), pb = params(b);
    EXPECT_EQ(pa.scaleY, pb.scaleY);
    EXPECT_EQ(pa.offsetY, pb.offsetY);
    EXPECT_LT(pa.scaleY, 0.0f);
    EXPECT_EQ(pa.depthA, pb.depthA);
    EXPECT_EQ(pa.depthB, pb.depthB);
    EXPECT_EQ(pa.planes[2], pb.planes[3]);
    EXPECT_EQ(pa.planes[3], pb.planes[2]);
    // And the y orientation really matters: an unflipped P11 > 0 mirrors the screen.
    Camera c = b;
    c.flipY = false;
    EXPECT_EQ(params(c).scaleY, -pa.scaleY);
}

TEST(CullParamsClassify, JitterBecomesAnNdcOffset) {
    Camera cam;
    cam.proj = testing_cull::perspective(1.0f, 16.0f / 9.0f, 0.5f, 100.0f, true, {0.01f, -0.02f});
    const sieve::gpu::CullParams p = params(cam);
    EXPECT_EQ(p.offsetX, -0.01f);  // w = -z: ndc x = P00 x / d - P[2][0]
    EXPECT_EQ(p.offsetY, 0.02f);
    cam.proj = testing_cull::orthographic(-10, 30, -5, 5, 0.5f, 100.0f, false);
    cam.reverse = false;
    const sieve::gpu::CullParams o = params(cam);
    EXPECT_EQ(o.kind, sieve::gpu::SIEVE_PROJ_ORTHOGRAPHIC);
    EXPECT_FLOAT_EQ(o.offsetX, -0.5f);
    EXPECT_FLOAT_EQ(o.scaleX, 0.05f);
}

struct Refusal {
    const char* what;
    const char* message;  // a part of the error message
};

// A left-handed orthographic view described as right-handed (the default orthographicForward) would
// swap standard and reverse Z and cull everything it sees (issue 22): it is refused, naming the field.
TEST(CullParamsRefuse, LeftHandedOrthographicWithoutItsDirection) {
    const float aspect = float(kExtent.width) / kExtent.height;
    for (const Camera& cam : testing_cull::allCameras(aspect)) {
        if (!cam.leftHanded || cam.proj[2][3] != 0.0f) continue;
        SCOPED_TRACE(cam.name);
        sieve::ViewDesc desc = cam.desc(kExtent);
        desc.orthographicForward = -1.0f;
        const VkExtent2D base = sieve::HiZBuilder::pyramidExtent(kExtent);
        auto p = sieve::makeCullParams(desc, base, sieve::HiZBuilder::mipCount(base), 1, {});
        ASSERT_FALSE(p);
        EXPECT_NE(p.error().message.find("orthographicForward"), std::string::npos) << p.error().message;
        desc.orthographicForward = 0.5f;
        EXPECT_FALSE(sieve::makeCullParams(desc, base, sieve::HiZBuilder::mipCount(base), 1, {}));
    }
}

TEST(CullParamsRefuse, WhatItCannotCull) {
    const Camera base = testing_cull::makeCamera(16.0f / 9.0f);
    auto expectRefused = [&](const Camera& cam, VkExtent2D pyramid, uint32_t mips, const Refusal& r) {
        auto p = sieve::makeCullParams(cam.desc(kExtent), pyramid, mips, 1, {});
        ASSERT_FALSE(p) << r.what;
        EXPECT_NE(p.error().message.find(r.message), std::string::npos) << r.what << ": " << p.error().message;
    };
    const VkExtent2D pyr = sieve::HiZBuilder::pyramidExtent(kExtent);
    const uint32_t mips = sieve::HiZBuilder::mipCount(pyr);
    auto withProj = [&](int c, int r, float v, const Refusal& why) {
        Camera cam = base;
        cam.proj[c][r] = v;
        expectRefused(cam, pyr, mips, why);
    };
    withProj(1, 0, 0.1f, {"x/y mixing P[1][0]", "mixes x and y"});
    withProj(0, 1, 0.1f, {"x/y mixing P[0][1]", "mixes x and y"});
    withProj(0, 2, 0.1f, {"oblique depth P[0][2]", "oblique depth row"});
    withProj(1, 2, -0.1f, {"oblique depth P[1][2]", "oblique depth row"});
    withProj(0, 3, 0.1f, {"w from x", "w depends on x or y"});
    withProj(2, 2, NAN, {"NaN term", "not finite"});
    withProj(3, 2, INFINITY, {"infinite term", "not finite"});
    withProj(0, 0, 0.0f, {"zero x scale", "zero scale"});
    withProj(1, 1, 0.0f, {"zero y scale", "zero scale"});
    withProj(3, 2, 0.0f, {"no depth scale", "does not vary with distance"});
    withProj(2, 3, -2.0f, {"scaled w row", "neither perspective"});
    withProj(3, 3, 1.0f, {"w = 1 - z", "neither perspective"});
    withProj(3, 0, 0.2f, {"shifted eye", "P[3][0] or P[3][1]"});
    {
        Camera cam = base;
        cam.proj = testing_cull::orthographic(-1, 1, -1, 1, 0.5f, 10.0f, false);
        cam.proj[2][0] = 0.3f;
        expectRefused(cam, pyr, mips, {"oblique orthographic", "oblique parallel"});
        cam.proj[2][0] = 0.0f;
        cam.proj[2][2] = 0.0f;
        expectRefused(cam, pyr, mips, {"flat orthographic depth", "does not vary with distance"});
    }
    {
        Camera cam = base;  // depth 1 - 0.5 / d... reaching 1 only at infinity: no near plane
        cam.proj[2][2] = -1.0f;
        cam.proj[3][2] = 0.5f;
        expectRefused(cam, pyr, mips, {"no near plane", "no near plane"});
    }
    {
        Camera cam = base;
        cam.view = glm::scale(glm::mat4(1.0f), glm::vec3(2.0f));
        expectRefused(cam, pyr, mips, {"scaled view", "not rigid"});
        cam.view = glm::mat4(1.0f);
        cam.view[2][3] = 0.5f;
        expectRefused(cam, pyr, mips, {"projective view", "not affine"});
        cam.view = glm::mat4(1.0f);
        cam.view[3][0] = NAN;
        expectRefused(cam, pyr, mips, {"NaN view", "view term"});
    }
    auto withViewport = [&](VkViewport vp, VkExtent2D pyramid, uint32_t m, const Refusal& why) {
        auto p = sieve::makeCullParams({base.view, base.proj, vp}, pyramid, m, 1, {});
        ASSERT_FALSE(p) << why.what;
        EXPECT_NE(p.error().message.find(why.message), std::string::npos) << why.what << ": " << p.error().message;
    };
    const float W = float(kExtent.width), H = float(kExtent.height);
    withViewport({1, 0, W, H, 0, 1}, pyr, mips, {"x offset", "must cover the depth attachment"});
    withViewport({0, 0, W, -H, 0, 1}, pyr, mips, {"flipped with y = 0", "must cover the depth attachment"});
    withViewport({0, 3, W, H, 0, 1}, pyr, mips, {"y offset", "must cover the depth attachment"});
    withViewport({0, 0, W * 2, H, 0, 1}, pyr, mips, {"wider than the attachment", "does not cover"});
    withViewport({0, 0, W, H / 2, 0, 1}, pyr, mips, {"shorter than the attachment", "does not cover"});
    withViewport({0, 0, W + 0.5f, H, 0, 1}, pyr, mips, {"fractional width", "whole pixels"});
    withViewport({0, 0, W, H, 0.5f, 0.5f}, pyr, mips, {"empty depth range", "must be in [0, 1] and differ"});
    withViewport({0, 0, W, H, 0, 1.5f}, pyr, mips, {"depth range beyond 1", "must be in [0, 1] and differ"});
    withViewport({0, 0, W, H, NAN, 1}, pyr, mips, {"NaN depth", "non-finite"});
    withViewport({0, 0, W, H, 0, 1}, pyr, 0, {"no mips", "pyramidMips"});
    withViewport({0, 0, W, H, 0, 1}, pyr, mips + 1, {"too many mips", "pyramidMips"});
    // And the unmodified views pass.
    EXPECT_TRUE(sieve::makeCullParams({base.view, base.proj, {0, 0, W, H, 0, 1}}, pyr, mips, 1, {}));
    EXPECT_TRUE(sieve::makeCullParams({base.view, base.proj, {0, H, W, -H, 1, 0}}, pyr, mips, 1, {}));
}
