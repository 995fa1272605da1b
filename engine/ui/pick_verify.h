#pragma once
// The pick's CPU verdict (pick_verdict.h) against the GPU's decision (cull.state) for every instance of a
// frame read back by PickReadbackPass: the viewer's --test-pick-verify and the GPU test of the pick share
// it. Any disagreement is a bug in the reference, the shaders, or the pick's rebuilding of the frame.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "assets/scene.h"
#include "engine/ui/culling_frame.h"
#include "engine/ui/pick_readback_pass.h"
#include "engine/ui/pick_verdict.h"
#include "sieve/result.h"

namespace engine::ui {

struct FrameVerdicts {
    uint64_t frameIndex = 0;
    uint32_t instances = 0;  // of the scene
    uint32_t compared = 0;   // those with a GPU state read back
    // The CPU's decisions by SIEVE_STATE_* kind (drawn counts as SIEVE_STATE_DRAWN_LATE).
    std::array<uint32_t, sieve::gpu::SIEVE_STATE_KIND_MASK + 1> decisions{};
    struct Mismatch {
        PickVerdict cpu;
        uint32_t gpuState = 0;
    };
    uint32_t mismatches = 0;
    std::vector<Mismatch> first;  // the first few mismatches
    bool allAgree() const { return mismatches == 0 && compared == instances; }
};

// Every instance's verdict for `frame` against the pyramid of `readback`, compared with its state there.
sieve::Result<FrameVerdicts> verifyFrame(const sieve::assets::SceneData& scene, const CullingFrame& frame,
                                         const PickReadbackPass::Frame& readback);

// "pick verify: frame F, N instances (cpu: D drawn, F frustum, S distance, O occlusion culled), M
// mismatches", then a line per mismatch listed.
std::string verdictSummary(const FrameVerdicts& v);

}  // namespace engine::ui
