#include "engine/ui/stats_json.h"

#include <fstream>
#include <nlohmann/json.hpp>

namespace engine::ui {

std::string statsJson(const sieve::CullingStats& c, uint64_t triangles, const PassTimings& timings,
                      const sieve::CullingToggles& t, const RunSummary& run) {
    nlohmann::ordered_json j;
    j["instances"] = c.instances;
    j["frustum_visible"] = c.frustumVisible;
    j["occlusion_visible"] = uint64_t(c.earlyDrawn) + c.lateDrawn;
    j["occlusion_visible_early"] = c.earlyDrawn;
    j["occlusion_visible_late"] = c.lateDrawn;
    j["drawn"] = c.draws();
    j["triangles"] = triangles;
    j["triangles_source"] = run.trianglesSource;
    j["triangles_pipeline_statistics"] =
        run.trianglesQuery ? nlohmann::ordered_json(*run.trianglesQuery) : nlohmann::ordered_json(nullptr);
    j["overflow"] = c.overflow();
    j["counts_available"] = c.valid;
    j["counts_frame"] = c.frame;
    nlohmann::ordered_json passes = nlohmann::ordered_json::object();
    for (const auto& e : timings.entries()) passes[e.name] = e.ms.average();
    j["passes"] = passes;
    j["frame_ms"] = run.gpuFrameMsMean.value_or(run.frameMsMean);
    j["frame_ms_source"] = run.gpuFrameMsMean ? "gpu_timestamps" : "cpu";
    j["gpu_frame_ms"] =
        run.gpuFrameMsMean ? nlohmann::ordered_json(*run.gpuFrameMsMean) : nlohmann::ordered_json(nullptr);
    j["cpu_frame_ms"] = run.frameMsMean;
    j["frames"] = run.frames;
    j["device"] = run.device;
    j["width"] = run.width;
    j["height"] = run.height;
    j["toggles"] = {{"frustum", t.frustum},
                    {"occlusion", t.occlusion},
                    {"two_phase", t.twoPhase},
                    {"lod", t.lod},
                    {"compaction", t.stable ? "stable" : "atomic"},
                    {"freeze", t.freeze},
                    {"lod_bias", t.lodBias}};
    return j.dump(2) + "\n";
}

sieve::Result<void> writeStatsJson(const std::string& path, const sieve::CullingStats& counts, uint64_t triangles,
                                   const PassTimings& timings, const sieve::CullingToggles& toggles,
                                   const RunSummary& run) {
    std::ofstream out(path, std::ios::binary);
    if (!out) return sieve::makeError(VK_ERROR_UNKNOWN, "cannot open " + path + " for writing");
    out << statsJson(counts, triangles, timings, toggles, run);
    out.close();
    if (!out) return sieve::makeError(VK_ERROR_UNKNOWN, "writing " + path + " failed");
    return {};
}

}  // namespace engine::ui
