#pragma once
// Renders frames of the reference host (engine::SceneRenderer) at a fixed camera and waits for them:
// the frame loop the culling plugin tests share. Use with ASSERT_NO_FATAL_FAILURE.
#include <gtest/gtest.h>

#include "assets/camera.h"
#include "assets/glm_interop.h"
#include "assets/procedural_city.h"
#include "engine/scene/scene_renderer.h"
#include "engine/target/headless_target.h"
#include "gpu/gpu_fixture.h"
#include "sieve/cull_flags.h"

namespace testing_gpu {

// The projection the frames are drawn with: 60 degrees vertically, reverse Z, near plane 0.1.
inline glm::mat4 framesProjection(VkExtent2D e) {
    const float aspect = float(e.width) / float(e.height);
    return sieve::toGlm(sieve::perspectiveReverseZ(glm::radians(60.0f), aspect, 0.1f));
}

inline void renderFrames(engine::HeadlessTarget& target, engine::SceneRenderer& renderer,
                         const sieve::assets::CameraPose& pose, int n) {
    const glm::mat4 view = sieve::assets::viewMatrix(pose);
    const glm::mat4 proj = framesProjection(target.extent());
    for (int i = 0; i < n; ++i) {
        auto frame = target.beginFrame();
        ASSERT_TRUE(frame) << frame.error().message;
        auto r = renderer.record(target, *frame, view, proj);
        ASSERT_TRUE(r) << r.error().message;
        auto f = target.endFrame();
        ASSERT_TRUE(f) << f.error().message;
    }
    ASSERT_TRUE(target.finish());
}

// The last frame's pixels and the plugin's stats, after renderFrames.
struct Picture {
    std::vector<uint8_t> pixels;
    sieve::CullingStats stats;
};

inline Picture capturePicture(engine::HeadlessTarget& target, engine::SceneRenderer& renderer) {
    Picture out;
    auto pixels = target.readbackPixels();
    EXPECT_TRUE(pixels) << pixels.error().message;
    if (pixels) out.pixels = std::move(pixels).value();
    out.stats = renderer.plugin().stats();
    return out;
}

// RGB pixels (RGBA8 rows) that differ between two pictures of the same size.
inline size_t differingPixels(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
    size_t n = 0;
    for (size_t i = 0; i + 3 < a.size() && i + 3 < b.size(); i += 4)
        n += a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2];
    return n;
}

// The small city the picture tests render (1500 instances).
class CityGpuTest : public GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        ASSERT_NO_FATAL_FAILURE(take(sieve::assets::makeCity(1500, 5), scene_));
    }

    sieve::assets::SceneData scene_;
};

}  // namespace testing_gpu
