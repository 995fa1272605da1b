#pragma once
// The measurement of sieve-bench cull on one scene, shared by the scenarios that run it on other scenes
// (sieve-bench kitten): the culling passes timed with stable (instance-ordered) draw lists and with the
// atomic-append peer, each pass's fewest bytes moved and its bandwidth bound, the counts, the peers, and
// with verify the checks. One JSON line per order.
#include <cstdint>
#include <functional>

#include "bench_util.h"
#include "scene_harness.h"

namespace bench {

struct CullLines {
    const char* scenario = "cull";  // the lines' "scenario" and the prefix of their messages
    uint64_t n = 0;                 // instances of the scene
    uint32_t warmupMs = 500;        // rendering right before each timed run (SceneHarness::runWarm)
    uint32_t warmup = 0, frames = 0;
    bool verify = false;
    // With verify: the CPU reference the GPU's frustum count must equal (frustumReferenceCount of the
    // harness's scene and camera), written as cpu_frustum_visible.
    uint64_t cpuFrustum = 0;
    // The scenario's own fields, written after "n" (may be empty).
    std::function<void(Json&)> fields;
};

// Measures both orders on the harness and writes their lines to the sink. Returns false when a check of
// verify failed (the reason is printed), an error when rendering or writing failed.
sieve::Result<bool> writeCullLines(engine::Context& ctx, SceneHarness& h, const Peers& peers, const CullLines& c,
                                   const JsonSink& sink);

}  // namespace bench
