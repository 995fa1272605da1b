#pragma once
// The stats JSON a run writes (viewer --stats, bench): counts, per-pass GPU times and the toggles.
//   { "instances": N, "frustum_visible": N, "occlusion_visible": N, "occlusion_visible_early": N,
//     "occlusion_visible_late": N, "drawn": N, "triangles": N, "triangles_source": "draw_records" |
//     "pipeline_statistics" | "none", "triangles_pipeline_statistics": N | null, "overflow": N,
//     "counts_available": bool, "counts_frame": N, "passes": { "<pass>": mean ms, ... },
//     "frame_ms": mean, "frame_ms_source": "gpu_timestamps" | "cpu", "gpu_frame_ms": mean | null,
//     "cpu_frame_ms": mean, "frames": N, "device": "...", "width": W, "height": H, "toggles": { ... },
//     "debug_view": "off|culling|lod",
//     "overlay": { "scale": s, "window": R, "status": R (when shown), "sections": [ R, ... ],
//                  "controls": [ R, ... ] (checkboxes, radio buttons, buttons, sliders by label) } (with an overlay) }
//   R = { "name": "...", "rect": [x0, y0, x1, y1] (display pixels), "visible": bool }
//     "hiz_readout": { "mip", "x", "y", "mip_width", "mip_height", "min", "max" } (the Hi-Z view's texel under the
//     cursor, when one was read), "views": [ { "name", "kind", "frustum_visible", "occlusion_visible", "drawn", "bins":
//     { name: draws } } ], "falsely_culled": N (only with toggles.checkCulling; -1 while no checked frame was read
//     back),
// counts, triangles and triangles_pipeline_statistics are of one frame: counts_frame.
// With clusters also "cluster_path": "mesh"|"indirect", "clusters_tested", "clusters_visible" (drawn, both
// phases), "clusters_frustum", "clusters_cone", "clusters_occlusion_visible", "cluster_triangles",
// "clusters_overflow", "cluster_triangle_cull" (the mesh path's per-triangle culling),
// "cluster_mesh_primitives_generated": N | null (the mesh path's VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT
// count of the counts' frame, both draw passes; null where the device does not count them or on the indirect
// path); without them "cluster_path": "off".
#include <optional>
#include <string>
#include <vector>

#include "engine/ui/frame_stats.h"
#include "sieve/result.h"

namespace engine::ui {

struct RunSummary {
    std::string device;
    uint32_t width = 0, height = 0;
    uint64_t frames = 0;
    float frameMsMean = 0.0f;                    // CPU, frame to frame
    std::optional<float> gpuFrameMsMean;         // GPU, from timestamps around each frame's commands
    std::string trianglesSource = "none";        // where `triangles` comes from
    std::optional<uint64_t> trianglesQuery;      // the pipeline-statistics count of the same frame
    std::string debugView = "off";               // DebugView name
    std::optional<OverlayLayout> overlay;        // where the overlay's parts were in the last frame
    std::optional<HiZView::Readout> hizReadout;  // the Hi-Z view's last texel read out under the cursor
    std::string clusterPath;                     // "" without clusters (no cluster keys are written)
    sieve::ClusterStats clusters;
    bool clusterTriangleCull = false;        // the mesh path culled triangles in its mesh shaders
    std::optional<uint64_t> meshPrimitives;  // the mesh path's mesh-primitives-generated query, where counted
    std::vector<std::string> binNames;       // of each stream (views[].bins); empty: "bin N"
    float drawDistance = 0.0f;               // the camera view's (0: no limit)
    bool stable = true;                      // the draw lists' order (sieve::CullingTuning::stable)
};

// "drawn" counts draw records (both lists), "occlusion_visible_early/late" the instances drawn by each
// phase; "frame_ms" is GPU time where the run timed its frames, otherwise CPU time (and says which).
std::string statsJson(const sieve::CullingStats& counts, uint64_t triangles, const PassTimings& timings,
                      const sieve::CullingToggles& toggles, const RunSummary& run);
sieve::Result<void> writeStatsJson(const std::string& path, const sieve::CullingStats& counts, uint64_t triangles,
                                   const PassTimings& timings, const sieve::CullingToggles& toggles,
                                   const RunSummary& run);

}  // namespace engine::ui
