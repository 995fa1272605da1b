#pragma once
// What a frame was drawn and culled with, as the pick (why was this culled?) needs it to rebuild the
// plugin's decision on the CPU: the cameras, the extent, the toggles and the draw distance; from them the
// main view's CullParams as the plugin built them for that frame and the scene's tables as the CPU
// references read them. The viewer's pick and the GPU test of the pick's verdicts share these.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <glm/glm.hpp>

#include "assets/scene.h"
#include "shared/cull.h"
#include "sieve/cull_flags.h"
#include "sieve/culling.h"
#include "sieve/hiz.h"
#include "sieve/result.h"

namespace engine::ui {

// The culling camera is the frozen one while frozen (toggles.freeze), the drawing camera otherwise.
struct CullingFrame {
    glm::mat4 drawView{1.0f}, drawProjection{1.0f};
    glm::mat4 cullView{1.0f}, cullProjection{1.0f};
    VkExtent2D extent{0, 0};
    sieve::CullingToggles toggles;   // as the plugin had them (freeze: the frame's)
    float drawDistance = 0.0f;       // the camera view's (0: none)
    float debugRadiusShrink = 0.0f;  // sieve::CullingTuning::debugRadiusShrink (planted false culls)
};

// View 0's CullParams as the plugin builds them (CullingPlugin::prepare) for the engine's camera view
// (sieve::CullView's default tests, no mask): the toggles' test bits, the distance test only with a draw
// distance, the LOD settings, the tuning's radius shrink, against `pyramid` (the one the frame was tested
// against).
sieve::Result<sieve::gpu::CullParams> frameCullParams(const CullingFrame& frame, const sieve::HiZPyramidCpu& pyramid,
                                                      uint32_t instances);

// The scene's tables as the CPU references (sieve/cull_flags.h) read them.
sieve::CullScene cullScene(const sieve::assets::SceneData& scene);

}  // namespace engine::ui
