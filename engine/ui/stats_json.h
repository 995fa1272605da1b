#pragma once
// The stats JSON a run writes (viewer --stats, bench): counts, per-pass GPU times and the toggles.
//   { "instances": N, "frustum_visible": N, "occlusion_visible": N, "occlusion_visible_early": N,
//     "occlusion_visible_late": N, "drawn": N, "triangles": N, "overflow": N, "counts_available": bool,
//     "passes": { "<pass>": mean ms, ... }, "frame_ms": mean, "frames": N, "device": "...",
//     "views": [ { "name", "kind", "frustum_visible", "occlusion_visible", "drawn", "bins": { name: draws } } ],
//     "falsely_culled": N (only with toggles.checkCulling; -1 while no checked frame was read back),
//     "width": W, "height": H, "toggles": { ... } }
#include <string>

#include "engine/ui/frame_stats.h"
#include "sieve/result.h"

namespace engine::ui {

struct RunSummary {
    std::string device;
    uint32_t width = 0, height = 0;
    uint64_t frames = 0;
    float frameMsMean = 0.0f;
};

// "drawn" counts draw records (both lists), "occlusion_visible_early/late" the instances drawn by each
// phase; triangles come from the host's pipeline statistics.
std::string statsJson(const sieve::CullingStats& counts, uint64_t triangles, const PassTimings& timings,
                      const sieve::CullingToggles& toggles, const RunSummary& run);
sieve::Result<void> writeStatsJson(const std::string& path, const sieve::CullingStats& counts, uint64_t triangles,
                                   const PassTimings& timings, const sieve::CullingToggles& toggles,
                                   const RunSummary& run);

}  // namespace engine::ui
