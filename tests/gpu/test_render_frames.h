#pragma once
// Renders frames of the reference host (engine::SceneRenderer) at a fixed camera and waits for them:
// the frame loop the culling plugin tests share. Use with ASSERT_NO_FATAL_FAILURE.
#include <gtest/gtest.h>

#include "assets/camera.h"
#include "assets/glm_interop.h"
#include "engine/scene/scene_renderer.h"
#include "engine/target/headless_target.h"
#include "sieve/cull_flags.h"

namespace testing_gpu {

inline void renderFrames(engine::HeadlessTarget& target, engine::SceneRenderer& renderer,
                         const sieve::assets::CameraPose& pose, int n) {
    const glm::mat4 view = sieve::assets::viewMatrix(pose);
    const VkExtent2D e = target.extent();
    const float aspect = float(e.width) / float(e.height);
    const glm::mat4 proj = sieve::toGlm(sieve::perspectiveReverseZ(glm::radians(60.0f), aspect, 0.1f));
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

}  // namespace testing_gpu
