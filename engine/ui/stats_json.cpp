#include "engine/ui/stats_json.h"

#include <fstream>
#include <nlohmann/json.hpp>

namespace engine::ui {

std::string statsJson(const CullingCounts& c, const PassTimings& timings, const CullingToggles& t,
                      const RunSummary& run) {
    nlohmann::ordered_json j;
    j["instances"] = c.instances;
    j["frustum_visible"] = c.frustumVisible;
    j["occlusion_visible"] = c.occlusionVisible();
    j["occlusion_visible_early"] = c.occlusionVisibleEarly;
    j["occlusion_visible_late"] = c.occlusionVisibleLate;
    j["drawn"] = c.drawn;
    j["triangles"] = c.triangles;
    j["overflow"] = c.overflow;
    j["counts_available"] = c.available;
    j["counts_frame"] = c.frameIndex;
    nlohmann::ordered_json passes = nlohmann::ordered_json::object();
    for (const auto& e : timings.entries()) passes[e.name] = e.ms.average();
    j["passes"] = passes;
    j["frame_ms"] = run.frameMsMean;
    j["frames"] = run.frames;
    j["device"] = run.device;
    j["width"] = run.width;
    j["height"] = run.height;
    j["toggles"] = {{"frustum", t.frustum},
                    {"occlusion", t.occlusion},
                    {"two_phase", t.twoPhase},
                    {"lod", t.lod},
                    {"compaction", t.stableCompaction ? "stable" : "atomic"},
                    {"freeze", t.freeze},
                    {"lod_bias", t.lodBias}};
    return j.dump(2) + "\n";
}

sieve::Result<void> writeStatsJson(const std::string& path, const CullingCounts& counts, const PassTimings& timings,
                                   const CullingToggles& toggles, const RunSummary& run) {
    std::ofstream out(path, std::ios::binary);
    if (!out) return sieve::makeError(VK_ERROR_UNKNOWN, "cannot open " + path + " for writing");
    out << statsJson(counts, timings, toggles, run);
    out.close();
    if (!out) return sieve::makeError(VK_ERROR_UNKNOWN, "writing " + path + " failed");
    return {};
}

}  // namespace engine::ui
