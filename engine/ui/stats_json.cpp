#include "engine/ui/stats_json.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "sieve/cull_tests.h"

namespace engine::ui {

namespace {

// Per view: {name, kind, frustum_visible, occlusion_visible (instances drawn), drawn (draw records), bins}.
nlohmann::ordered_json viewsJson(const sieve::CullingStats& c, const std::vector<std::string>& binNames) {
    nlohmann::ordered_json views = nlohmann::ordered_json::array();
    for (const sieve::CullingViewStats& v : c.views) {
        nlohmann::ordered_json bins = nlohmann::ordered_json::object();
        uint64_t draws = 0;
        for (uint32_t b = 0; b < v.early.size(); ++b) {
            const std::string name = b < binNames.size() ? binNames[b] : "bin " + std::to_string(b);
            bins[name] = v.draws(b);
            draws += v.draws(b);
        }
        nlohmann::ordered_json culled = nlohmann::ordered_json::object();
        for (const sieve::CullTest& test : sieve::kCullTests) culled[std::string(test.name)] = v.culled[test.index];
        views.push_back({{"name", v.name},
                         {"kind", sieve::viewKindName(v.kind)},
                         {"frustum_visible", v.frustumVisible},
                         {"occlusion_visible", v.drawn()},
                         {"drawn", draws},
                         {"culled", culled},
                         {"bins", bins}});
    }
    return views;
}

// The culling counts of view 0 and every view.
void addCounts(nlohmann::ordered_json& j, const sieve::CullingStats& c, uint64_t triangles,
               const sieve::CullingToggles& t, const RunSummary& run) {
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
    j["views"] = viewsJson(c, run.binNames);
    if (t.checkCulling) j["falsely_culled"] = c.falselyCulledValid ? int64_t(c.falselyCulled) : int64_t(-1);
}

// Per-pass GPU times, the frame time and the run's device and size.
void addTimes(nlohmann::ordered_json& j, const PassTimings& timings, const RunSummary& run) {
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
}

void addClusters(nlohmann::ordered_json& j, const RunSummary& run) {
    j["cluster_path"] = run.clusterPath.empty() ? "off" : run.clusterPath;
    if (run.clusterPath.empty()) return;
    const sieve::gpu::ClusterCounters& k = run.clusters.counters;
    j["clusters_tested"] = k.lateTested;
    j["clusters_visible"] = run.clusters.drawn();
    j["clusters_frustum"] = k.frustumVisible;
    j["clusters_cone"] = k.coneVisible;
    j["clusters_occlusion_visible"] = k.lateVisible;
    j["cluster_triangles"] = k.triangles;
    j["cluster_triangle_cull"] = run.clusterTriangleCull;
    j["cluster_mesh_primitives_generated"] =
        run.meshPrimitives ? nlohmann::ordered_json(*run.meshPrimitives) : nlohmann::ordered_json(nullptr);
    j["clusters_overflow"] = uint64_t(run.clusters.early.overflow) + run.clusters.late.overflow + k.dropped;
}

nlohmann::ordered_json togglesJson(const sieve::CullingToggles& t, const RunSummary& run) {
    nlohmann::ordered_json toggles = nlohmann::ordered_json::object();
    for (const sieve::CullTest& test : sieve::kCullTests) toggles[std::string(test.name)] = t.*test.toggle;
    toggles.update(nlohmann::ordered_json{{"two_phase", t.twoPhase},
                                          {"lod", t.lod},
                                          {"compaction", run.stable ? "stable" : "atomic"},
                                          {"freeze", t.freeze},
                                          {"check_culling", t.checkCulling},
                                          {"lod_bias", t.lodBias}});
    return toggles;
}

// Where the overlay's window, sections and controls were drawn.
nlohmann::ordered_json overlayJson(const OverlayLayout& layout) {
    const auto rect = [](const UiRect& r) {
        return nlohmann::ordered_json{{"name", r.name}, {"rect", {r.x0, r.y0, r.x1, r.y1}}, {"visible", r.visible}};
    };
    nlohmann::ordered_json o;
    o["scale"] = layout.scale;
    o["window"] = rect(layout.window);
    if (!layout.status.name.empty()) o["status"] = rect(layout.status);
    o["sections"] = nlohmann::ordered_json::array();
    for (const UiRect& r : layout.sections) o["sections"].push_back(rect(r));
    o["controls"] = nlohmann::ordered_json::array();
    for (const UiRect& r : layout.controls) o["controls"].push_back(rect(r));
    if (!layout.passTable.name.empty()) {
        o["pass_table"] = rect(layout.passTable);
        o["pass_rows"] = nlohmann::ordered_json::array();
        for (const UiRect& r : layout.passRows) o["pass_rows"].push_back(rect(r));
    }
    return o;
}

}  // namespace

std::string statsJson(const sieve::CullingStats& c, uint64_t triangles, const PassTimings& timings,
                      const sieve::CullingToggles& t, const RunSummary& run) {
    nlohmann::ordered_json j;
    addCounts(j, c, triangles, t, run);
    addTimes(j, timings, run);
    addClusters(j, run);
    j["toggles"] = togglesJson(t, run);
    j["draw_distance"] = run.drawDistance;
    j["debug_view"] = run.debugView;
    if (run.overlay) j["overlay"] = overlayJson(*run.overlay);
    if (const auto& h = run.hizReadout)
        j["hiz_readout"] = {
            {"mip", h->texel.mip},        {"x", h->texel.x}, {"y", h->texel.y}, {"mip_width", h->mipWidth},
            {"mip_height", h->mipHeight}, {"min", h->min},   {"max", h->max}};
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
