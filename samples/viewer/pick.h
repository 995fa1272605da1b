#pragma once
// --pick x,y: which instance is under a pixel of the last frame and why it was culled or drawn: the
// instance (a ray through the pixel's centre from the camera that drew the frame, against every
// instance's triangles at the LOD it was drawn with, LOD 0 where it was not drawn), then each culling
// test's verdict for the frame's culling camera (frozen or not) from the CPU reference fed with the
// pyramid the GPU tested against, beside the GPU's decision (engine/ui/pick_verdict.h). Printed as one
// line "pick: {JSON}". --test-pick-verify compares the CPU decision with the GPU's for every instance
// (engine/ui/pick_verify.h).
#include <optional>
#include <string>

#include "assets/scene.h"
#include "engine/ui/culling_frame.h"
#include "engine/ui/frame_stats.h"
#include "engine/ui/pick_readback_pass.h"
#include "sieve/result.h"

namespace viewer {

using engine::ui::CullingFrame;

// The instance whose triangles the ray through pixel (x + 0.5, y + 0.5) meets first, and at what
// distance; none for the sky. `lodOf(i)`: the LOD to test instance i's triangles at.
struct PickHit {
    uint32_t instance = 0;
    float distance = 0.0f;
};
std::optional<PickHit> castPickRay(const sieve::assets::SceneData& scene, const CullingFrame& frame, float x, float y,
                                   const std::vector<uint32_t>& gpuState);

// The pick of pixel (x, y) as JSON (one line).
sieve::Result<std::string> pickJson(const sieve::assets::SceneData& scene, const CullingFrame& frame,
                                    const engine::ui::PickReadbackPass::Frame& readback, int x, int y);

// The same pick as the overlay's pick window shows it: a title, one line per test, the false-culling
// check's verdict, and whether the CPU reference and the GPU disagree.
engine::ui::PickPanel pickText(const std::string& json);

}  // namespace viewer
