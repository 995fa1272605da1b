#include "engine/ui/overlay.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cinttypes>
#include <string>

namespace engine::ui {

namespace {

void countRow(const char* label, uint64_t value, uint64_t of) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(label);
    ImGui::TableNextColumn();
    ImGui::Text("%" PRIu64, value);
    ImGui::TableNextColumn();
    if (of)
        ImGui::Text("%5.1f%%", 100.0 * double(value) / double(of));
    else
        ImGui::TextUnformatted("-");
}

void disabledWrapped(const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", text);
    ImGui::PopStyleColor();
}

void plot(const char* id, const RollingSeries& s, float height) {
    const std::vector<float> v = s.ordered();
    if (v.empty()) return;
    ImGui::PlotLines(id, v.data(), int(v.size()), 0, nullptr, 0.0f, std::max(s.max() * 1.2f, 1e-3f),
                     ImVec2(ImGui::GetContentRegionAvail().x, height));
}

}  // namespace

void drawFrameSection(const OverlayModel& m) {
    ImGui::Text("%s", m.deviceName.c_str());
    ImGui::Text("%ux%u  frame %.2f ms (mean %.2f ms, %.0f fps)", m.width, m.height, m.frameMs.last(),
                m.frameMs.average(), m.frameMs.average() > 0 ? 1000.0f / m.frameMs.average() : 0.0f);
    plot("##frame", m.frameMs, 28.0f);
}

// One row per view of the frame (visible, drawn instances, draw records per bin).
void drawViewsTable(const sieve::CullingStats& c) {
    if (c.views.size() < 2 && (c.views.empty() || c.views[0].early.size() < 2)) return;
    if (!ImGui::BeginTable("views", 4, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) return;
    ImGui::TableSetupColumn("view");
    ImGui::TableSetupColumn("visible");
    ImGui::TableSetupColumn("drawn");
    ImGui::TableSetupColumn("draws per bin");
    ImGui::TableHeadersRow();
    for (const sieve::CullingViewStats& v : c.views) {
        std::string bins;
        for (uint32_t b = 0; b < v.early.size(); ++b) bins += (b ? " " : "") + std::to_string(v.draws(b));
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%s (%s)", v.name.c_str(), sieve::viewKindName(v.kind));
        ImGui::TableNextColumn();
        ImGui::Text("%u", v.frustumVisible);
        ImGui::TableNextColumn();
        ImGui::Text("%u", v.drawn());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(bins.c_str());
    }
    ImGui::EndTable();
}

void drawCountsSection(const sieve::CullingStats& c, uint64_t triangles) {
    if (!c.valid) {
        disabledWrapped(
            "no culling counts yet: they reach the CPU some frames late (or no culling plugin reports any)");
        return;
    }
    ImGui::Text("counts of frame %" PRIu64, c.frame);
    if (ImGui::BeginTable("counts", 3, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
        countRow("instances", c.instances, c.instances);
        countRow("frustum visible", c.frustumVisible, c.instances);
        countRow("occlusion visible (early)", c.earlyDrawn, c.instances);
        countRow("occlusion visible (late)", c.lateDrawn, c.instances);
        countRow("drawn", c.draws(), c.instances);
        countRow("triangles", triangles, 0);
        countRow("overflow", c.overflow(), 0);
        ImGui::EndTable();
    }
    if (c.overflow()) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "draw buffer overflow: %u dropped", c.overflow());
    if (c.falselyCulledValid)
        ImGui::TextColored(c.falselyCulled ? ImVec4(1, 0.4f, 0.3f, 1) : ImVec4(0.6f, 0.9f, 0.6f, 1),
                           "falsely culled: %u", c.falselyCulled);
    drawViewsTable(c);
}

void drawTimingsSection(const PassTimings& t) {
    if (t.entries().empty()) {
        disabledWrapped("no GPU timings reported");
        return;
    }
    ImGui::Text("GPU total (mean) %.3f ms", t.totalAverage());
    // One row per pass with its history as a small plot: the overlay must fit a 720-pixel-high window.
    const ImGuiTableFlags flags = ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg;
    if (!ImGui::BeginTable("timings", 4, flags)) return;
    ImGui::TableSetupColumn("pass", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    ImGui::TableSetupColumn("ms", ImGuiTableColumnFlags_WidthStretch, 1.3f);
    ImGui::TableSetupColumn("mean", ImGuiTableColumnFlags_WidthStretch, 1.3f);
    ImGui::TableSetupColumn("history", ImGuiTableColumnFlags_WidthStretch, 2.4f);
    ImGui::TableHeadersRow();
    const float rowHeight = ImGui::GetTextLineHeight();
    for (const PassTimings::Entry& e : t.entries()) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(e.name.c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%7.3f", e.ms.last());
        ImGui::TableNextColumn();
        ImGui::Text("%7.3f", e.ms.average());
        ImGui::TableNextColumn();
        ImGui::PushID(e.name.c_str());
        plot("##pass", e.ms, rowHeight);
        ImGui::PopID();
    }
    ImGui::EndTable();
}

bool drawTogglesSection(sieve::CullingToggles& t) {
    bool changed = false;
    changed |= ImGui::Checkbox("frustum", &t.frustum);
    ImGui::SameLine();
    changed |= ImGui::Checkbox("occlusion", &t.occlusion);
    ImGui::SameLine();
    changed |= ImGui::Checkbox("two-phase", &t.twoPhase);
    changed |= ImGui::Checkbox("LOD", &t.lod);
    ImGui::SameLine();
    changed |= ImGui::Checkbox("freeze culling", &t.freeze);
    int mode = t.stable ? 0 : 1;
    changed |= ImGui::RadioButton("stable compaction", &mode, 0);
    ImGui::SameLine();
    changed |= ImGui::RadioButton("atomic append", &mode, 1);
    t.stable = mode == 0;
    changed |= ImGui::SliderInt("LOD bias", &t.lodBias, -4, 4);
    changed |= ImGui::Checkbox("check culling (false culls vs the final depth)", &t.checkCulling);
    return changed;
}

void drawHiZSection(HiZView& v) {
    if (v.mipCount <= 0) {
        disabledWrapped("no Hi-Z pyramid in this host");
        v.show = false;
        return;
    }
    ImGui::Checkbox("show Hi-Z", &v.show);
    int which = v.showMax ? 1 : 0;
    ImGui::SameLine();
    ImGui::RadioButton("min", &which, 0);
    ImGui::SameLine();
    ImGui::RadioButton("max", &which, 1);
    v.showMax = which == 1;
    // The selection outlives a smaller pyramid (a 1x1 window has one mip): clamped where shown, kept here.
    int mip = std::clamp(v.mip, 0, v.mipCount - 1);
    if (ImGui::SliderInt("mip", &mip, 0, v.mipCount - 1)) v.mip = mip;
}

void drawHiZWindow(const HiZView& v) {
    if (!v.show || !v.texture || !v.width || !v.height) return;
    // Its own window at the top right, so that the main window's height does not depend on it.
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float width = std::min(360.0f, std::max(display.x * 0.3f, 64.0f));
    const float height = std::min(width * float(v.height) / float(v.width), 2.0f * width);
    ImGui::SetNextWindowPos(ImVec2(std::max(display.x - width - 26.0f, 0.0f), 10.0f), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.85f);
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings;
    if (ImGui::Begin("Hi-Z pyramid", nullptr, flags)) {
        const int mip = std::clamp(v.mip, 0, v.mipCount - 1);
        const uint32_t w = std::max(v.width >> mip, 1u), h = std::max(v.height >> mip, 1u);
        ImGui::Text("%s, mip %d: %ux%u", v.showMax ? "max" : "min", mip, w, h);
        ImGui::Image(reinterpret_cast<ImTextureID>(v.texture), ImVec2(width, height));
        ImGui::TextDisabled("white near, black far");
        ImGui::TextDisabled("blue: nothing drawn");
    }
    ImGui::End();
}

OverlayActions drawActionsSection(bool captureAvailable) {
    OverlayActions a;
    a.screenshot = ImGui::Button("screenshot");
    ImGui::SameLine();
    if (!captureAvailable) ImGui::BeginDisabled();
    a.capture = ImGui::Button("RenderDoc capture");
    if (!captureAvailable) {
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("RenderDoc is not loaded (install renderdoc, or run under renderdoccmd)");
    }
    ImGui::SameLine();
    a.reloadShaders = ImGui::Button("reload shaders");
    return a;
}

OverlayActions drawOverlay(OverlayModel& m) {
    // Pinned: ImGui moves windows to keep them on a shrinking display (a 1x1 window) and would not move
    // them back.
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_Always);
    // Fixed width, height fitted to the open sections every frame.
    ImGui::SetNextWindowSizeConstraints(ImVec2(400, 0), ImVec2(400, FLT_MAX));
    ImGui::SetNextWindowBgAlpha(0.85f);
    OverlayActions actions;
    if (ImGui::Begin("Sieve", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove)) {
        drawFrameSection(m);
        if (ImGui::CollapsingHeader("counts", ImGuiTreeNodeFlags_DefaultOpen)) drawCountsSection(m.counts, m.triangles);
        if (ImGui::CollapsingHeader("GPU time per pass", ImGuiTreeNodeFlags_DefaultOpen))
            drawTimingsSection(m.gpuTimes);
        bool changed = false;
        if (ImGui::CollapsingHeader("culling", ImGuiTreeNodeFlags_DefaultOpen)) changed = drawTogglesSection(m.toggles);
        if (m.hiz.show) ImGui::SetNextItemOpen(true, ImGuiCond_Once);
        if (ImGui::CollapsingHeader("Hi-Z")) drawHiZSection(m.hiz);
        ImGui::Separator();
        actions = drawActionsSection(m.captureAvailable);
        actions.togglesChanged = changed;
        if (!m.status.empty()) {
            if (m.statusIsError) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.35f, 1.0f));
            ImGui::TextWrapped("%s", m.status.c_str());
            if (m.statusIsError) ImGui::PopStyleColor();
        }
    }
    ImGui::End();
    drawHiZWindow(m.hiz);
    return actions;
}

}  // namespace engine::ui
