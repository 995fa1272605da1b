// The overlay's "counts" section: the same rows whatever the toggles, greyed where they do not apply, so
// that nothing below moves when a toggle changes.
#include <imgui.h>

#include <cinttypes>
#include <string>

#include "engine/ui/overlay.h"
#include "engine/ui/overlay_widgets.h"
#include "sieve/cull_tests.h"

namespace engine::ui {

using namespace widgets;

namespace {

const ImVec4 kRed(1.0f, 0.4f, 0.3f, 1.0f);

// The counts tables' columns, shared so that the instance and cluster tables line up.
bool beginCountsTable(const char* id) {
    if (!ImGui::BeginTable(id, 3, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) return false;
    ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("count", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("0000000000").x);
    ImGui::TableSetupColumn("share", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("100.0%").x);
    return true;
}

void drawnRows(const sieve::CullingStats& c, const sieve::CullingToggles& t) {
    const bool v = c.valid;
    if (!t.twoPhase) {
        instanceRow("drawn (single phase)", v, c.lateDrawn, c.instances);
        greyRow("drawn late (two-phase off)");
    } else if (t.occlusion) {
        instanceRow("drawn early (visible last frame)", v, c.earlyDrawn, c.instances);
        instanceRow("drawn late (newly visible)", v, c.lateDrawn, c.instances);
    } else {
        instanceRow("drawn early (in view last frame)", v, c.earlyDrawn, c.instances);
        instanceRow("drawn late (new in view)", v, c.lateDrawn, c.instances);
    }
}

// One line: what each test removed from the main view (the first test that culls an instance counts
// it), in the test's debug-view colour; "off" greyed for a test switched off.
void culledLine(const sieve::CullingStats& c, const sieve::CullingToggles& t) {
    ImGui::TextUnformatted("culled:");
    for (const sieve::CullTest& test : sieve::kCullTests) {
        ImGui::SameLine();
        const std::string name(test.name);
        if (!(t.*test.toggle)) {
            ImGui::TextDisabled("%s off", name.c_str());
            continue;
        }
        const ImVec4 colour(test.colour[0], test.colour[1], test.colour[2], 1.0f);
        if (c.valid && !c.views.empty())
            ImGui::TextColored(colour, "%s %u", name.c_str(), c.views.front().culled[test.index]);
        else
            ImGui::TextColored(colour, "%s -", name.c_str());
    }
}

// The false-culling check's line, always there: its count, or why there is none.
void falselyCulledLine(const sieve::CullingStats& c, const sieve::CullingToggles& t) {
    if (!t.checkCulling)
        ImGui::TextDisabled("falsely culled: - (check culling off)");
    else if (t.freeze)
        ImGui::TextDisabled("falsely culled: - (paused while frozen)");
    else if (!c.valid || !c.falselyCulledValid)
        ImGui::TextDisabled("falsely culled: - (none read back yet)");
    else
        ImGui::TextColored(c.falselyCulled ? kRed : ImVec4(0.6f, 0.9f, 0.6f, 1), "falsely culled: %u instances",
                           c.falselyCulled);
}

}  // namespace

// One row per view of the frame (visible, drawn instances, draw records with their split by bin).
void drawViewsTable(const sieve::CullingStats& c, const std::vector<std::string>& binNames) {
    if (c.views.size() < 2 && (c.views.empty() || c.views[0].early.size() < 2)) return;
    if (!ImGui::BeginTable("views", 4, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) return;
    ImGui::TableSetupColumn("view");
    ImGui::TableSetupColumn("in frustum");
    ImGui::TableSetupColumn("drawn");
    ImGui::TableSetupColumn("records by bin");
    ImGui::TableHeadersRow();
    for (const sieve::CullingViewStats& v : c.views) {
        std::string bins;
        uint32_t total = 0;
        for (uint32_t b = 0; b < v.early.size(); ++b) {
            bins += (b ? "+" : "") + std::to_string(v.draws(b));
            total += v.draws(b);
        }
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(v.name.c_str());  // "camera", "cascade 0": the name says the kind
        ImGui::TableNextColumn();
        ImGui::Text("%u", v.frustumVisible);
        ImGui::TableNextColumn();
        ImGui::Text("%u", v.drawn());
        ImGui::TableNextColumn();
        ImGui::Text("%u = %s", total, bins.c_str());
    }
    ImGui::EndTable();
    std::string names;
    for (const std::string& n : binNames) names += (names.empty() ? "" : " + ") + n;
    if (!names.empty()) disabledWrapped(("bins (a pipeline each): " + names).c_str());
}

void drawClusterCounts(const std::string& path, const sieve::ClusterStats& s,
                       const std::optional<uint64_t>& meshPrimitives) {
    if (path.empty()) return;
    if (!s.valid) {
        disabledWrapped("no cluster counts yet");
        return;
    }
    const sieve::gpu::ClusterCounters& k = s.counters;
    ImGui::Text("clusters (%s path)", path.c_str());
    if (beginCountsTable("clusters")) {
        countRow("clusters tested", true, k.lateTested, k.lateTested);
        countRow("frustum visible", true, k.frustumVisible, k.lateTested);
        countRow("front-facing (cone)", true, k.coneVisible, k.lateTested);
        countRow("occlusion visible", true, k.lateVisible, k.lateTested);
        countRow("drawn (early + late)", true, s.drawn(), k.lateTested);
        countRow("cluster triangles", true, k.triangles, 0);
        // The device's own count of what the mesh shaders emitted, beside the records' sum.
        if (path == "mesh")
            countRow("mesh primitives (query)", meshPrimitives.has_value(), meshPrimitives.value_or(0), 0);
        countRow("overflow + dropped", true, s.early.overflow + s.late.overflow + k.dropped, 0);
        ImGui::EndTable();
    }
}

void drawCountsSection(const sieve::CullingStats& c, uint64_t triangles, const CullingSwitches& switches,
                       const std::vector<std::string>& binNames) {
    const sieve::CullingToggles& t = switches.toggles;
    const bool v = c.valid;
    if (v)
        ImGui::Text("counts of frame %" PRIu64, c.frame);
    else
        ImGui::TextDisabled("no counts yet (they arrive frames late)");
    // Instance rows first (with their share of all instances), then draw records, which are per
    // (instance, primitive) and so never a share of instances.
    if (beginCountsTable("counts")) {
        instanceRow("instances", v, c.instances, c.instances);
        drawnRows(c, t);
        plainRow("draw records (instance x primitive)", v, c.draws());
        plainRow("triangles", v, triangles);
        ImGui::EndTable();
    }
    culledLine(c, t);
    falselyCulledLine(c, t);
    if (v && c.overflow()) ImGui::TextColored(kRed, "draw buffer overflow: %u draw records dropped", c.overflow());
    if (v) drawViewsTable(c, binNames);
}

}  // namespace engine::ui
