// Single phase (two-phase off) tests the current camera against the pyramid of the previous frame's
// depth. That depth was drawn by the previous camera: the occlusion test must look each sphere up where
// that camera saw it (CullLateBuffers::occlusionView), not where the current camera sees it. Looking up
// from the pavement at one's feet to the street, the street's buildings would land on the old picture's
// near pavement and vanish for a frame; looked up through the old camera (the same eye: a turn keeps every
// ray's depth) they lie outside its view, where nothing hid them, and are drawn.
// (Named outside the subgroup matrix's Cull* suites: it renders the city, which says nothing about subgroup
// sizes, and runs once at the default width.)
#include "assets/procedural_city.h"
#include "engine/scene/scene_renderer.h"
#include "engine/target/headless_target.h"
#include "gpu/gpu_fixture.h"
#include "gpu/test_render_frames.h"

namespace {

using testing_gpu::Picture;

class SinglePhaseCullingTest : public testing_gpu::CityGpuTest {
protected:
    // `before` frames at the street camera pitched by `pitch` radians, then `after` frames looking down the
    // street, single phase, LOD off (so that culling alone can change the picture): the last frame's pixels
    // and stats.
    Picture render(bool cull, int before, int after, float pitch) {
        Picture out;
        const VkExtent2D extent{171, 97};
        auto target = engine::HeadlessTarget::create(ctx(), {extent, VK_FORMAT_R8G8B8A8_UNORM, 2});
        EXPECT_TRUE(target) << target.error().message;
        if (!target) return out;
        auto renderer = engine::SceneRenderer::create(ctx(), scene_, target.value()->colorFormat(), extent, {});
        EXPECT_TRUE(renderer) << renderer.error().message;
        if (!renderer) return out;
        sieve::CullingToggles& t = renderer.value()->plugin().toggles();
        t.lod = false;
        t.twoPhase = false;
        t.frustum = t.occlusion = cull;
        const sieve::assets::CameraPose second = sieve::assets::defaultCityCamera();
        sieve::assets::CameraPose first = second;
        first.pitch += pitch;
        testing_gpu::renderFrames(*target.value(), *renderer.value(), first, before);
        testing_gpu::renderFrames(*target.value(), *renderer.value(), second, after);
        return testing_gpu::capturePicture(*target.value(), *renderer.value());
    }
};

}  // namespace

// The first frame after looking up from the pavement reads the pavement's pyramid: the picture equals
// culling off.
TEST_F(SinglePhaseCullingTest, FirstFrameAfterLookingUpKeepsThePicture) {
    const float down = -1.4f;
    const Picture off = render(false, 3, 1, down);
    const Picture on = render(true, 3, 1, down);
    ASSERT_FALSE(off.pixels.empty());
    ASSERT_EQ(on.pixels.size(), off.pixels.size());
    EXPECT_EQ(testing_gpu::differingPixels(on.pixels, off.pixels), 0u)
        << "pixels that single-phase culling changed after the turn";
}

// A still camera: the previous frame's pyramid is its own picture, so single phase occludes and keeps the
// picture (the reprojection is the identity).
TEST_F(SinglePhaseCullingTest, StillCameraOccludesAndKeepsThePicture) {
    const Picture off = render(false, 1, 6, 0.0f);
    const Picture on = render(true, 1, 6, 0.0f);
    ASSERT_FALSE(off.pixels.empty());
    EXPECT_EQ(testing_gpu::differingPixels(on.pixels, off.pixels), 0u) << "pixels that single-phase culling changed";
    const sieve::CullingStats& s = on.stats;
    ASSERT_TRUE(s.valid);
    EXPECT_LT(s.lateVisible, s.frustumVisible) << "single phase occluded nothing";
}
