// The overlay's "culling" (toggles) and "debug view" sections. Each has its own ID scope: their labels
// repeat section headers and each other ("culling", "LOD"), and ImGui identifies widgets by label.
// Both keep their height whatever is selected.
#include <imgui.h>

#include <string>

#include "engine/ui/overlay.h"
#include "engine/ui/overlay_widgets.h"
#include "shared/lod_colours.h"
#include "sieve/cull_tests.h"

namespace engine::ui {

using namespace widgets;

namespace {

const ImVec4 kEarly(0.4f, 1.0f, 0.4f, 1.0f), kLate(0.45f, 0.6f, 1.0f, 1.0f), kFrozen(1.0f, 1.0f, 0.2f, 1.0f);

void cullingLegend() {
    ImGui::TextColored(kEarly, "drawn early");
    ImGui::SameLine();
    ImGui::TextColored(kLate, "drawn late/single");
    ImGui::SameLine();
    ImGui::TextColored(kFrozen, "frozen frustum");
    ImGui::TextUnformatted("culled, outlined:");
    for (const sieve::CullTest& test : sieve::kCullTests) {
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(test.colour[0], test.colour[1], test.colour[2], 1.0f), "%s",
                           std::string(test.name).c_str());
    }
}

// The colours of shared/lod_colours.h, as the geometry shaders draw them.
void lodLegend() {
    const uint32_t n = sieve::gpu::SIEVE_LOD_COLOUR_COUNT;
    for (uint32_t lod = 0; lod < n; ++lod) {
        if (lod % 4) ImGui::SameLine();
        const sieve::gpu::vec3 c = sieve::gpu::kLodColours[lod];
        ImGui::TextColored(ImVec4(c.x, c.y, c.z, 1.0f), lod + 1 < n ? "LOD %u" : "LOD %u and coarser", lod);
    }
}

}  // namespace

bool drawTogglesSection(CullingSwitches& s) {
    ImGui::PushID("culling toggles");
    sieve::CullingToggles& t = s.toggles;
    bool changed = false;
    for (const sieve::CullTest& test : sieve::kCullTests) {
        changed |= checkbox(std::string(test.name).c_str(), &(t.*test.toggle));
        ImGui::SameLine();
    }
    changed |= checkbox("two-phase", &t.twoPhase);
    changed |= checkbox("LOD", &t.lod);
    ImGui::SameLine();
    changed |= checkbox("freeze culling", &t.freeze);
    ImGui::SameLine();
    // The false-culling check: occlusion-culled instances re-tested against the final depth (paused while
    // frozen: the counts section says so).
    changed |= checkbox("check culling", &t.checkCulling);
    int mode = s.stable ? 0 : 1;
    changed |= radio("stable compaction", &mode, 0);
    ImGui::SameLine();
    changed |= radio("atomic append", &mode, 1);
    s.stable = mode == 0;
    // One row: the LOD bias, then the draw distance (0 = none; logarithmic, distances span orders of magnitude).
    const float quarter = ImGui::GetContentRegionAvail().x * 0.25f;
    ImGui::SetNextItemWidth(quarter);
    changed |= ImGui::SliderInt("LOD bias", &t.lodBias, kLodBiasMin, kLodBiasMax);
    recordLast("LOD bias");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(quarter);
    changed |= ImGui::SliderFloat("draw distance", &s.drawDistance, 0.0f, 10000.0f,
                                  s.drawDistance > 0.0f ? "%.1f" : "none", ImGuiSliderFlags_Logarithmic);
    recordLast("draw distance");
    ImGui::PopID();
    return changed;
}

bool drawDebugViewSection(DebugView& v, bool clusters) {
    ImGui::PushID("debug view");
    int mode = int(v);
    bool changed = radio("off", &mode, int(DebugView::Off), "debug view: off");
    ImGui::SameLine();
    changed |= radio("culling", &mode, int(DebugView::Culling), "debug view: culling");
    ImGui::SameLine();
    changed |= radio("LOD", &mode, int(DebugView::Lod), "debug view: LOD");
    ImGui::SameLine();
    changed |= radio("clusters", &mode, int(DebugView::Clusters), "debug view: clusters");
    ImGui::PopID();
    v = DebugView(mode);
    // Two lines of legend in every mode.
    if (v == DebugView::Culling) {
        cullingLegend();
    } else if (v == DebugView::Lod) {
        lodLegend();
    } else if (v == DebugView::Clusters) {
        ImGui::TextUnformatted("a colour per draw record:");
        ImGui::TextUnformatted(clusters ? "each cluster (meshlet) its own"
                                        : "per primitive and LOD (--clusters on: per cluster)");
    } else {
        ImGui::TextDisabled("culling: the phase that drew each object, outlines");
        ImGui::TextDisabled("of what was culled; LOD: by level; clusters");
    }
    return changed;
}

}  // namespace engine::ui
