#include "engine/ui/overlay.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <string>

#include "engine/ui/overlay_widgets.h"

namespace engine::ui {

using namespace widgets;

namespace {

constexpr float kMargin = 10.0f;      // between the overlay's windows and the display edge (unscaled)
constexpr float kMainWidth = 400.0f;  // of the main window (unscaled)

// A collapsing section whose header rectangle is recorded; `open` is the default the first time (always,
// under policy.quarter, where nobody clicks).
bool section(OverlayModel& m, const char* name, bool open) {
    ImGui::SetNextItemOpen(open, m.policy.quarter ? ImGuiCond_Always : ImGuiCond_Once);
    const bool shown = ImGui::CollapsingHeader(name);
    m.layout.sections.push_back(lastItemRect(name));
    return shown;
}

// The bottom bar: the frozen-culling banner and the last action's result, always on screen (a reload or
// a tall overlay never hides them). Returns its height.
float drawStatusBar(OverlayModel& m, const ImVec2& display, float margin) {
    const bool frozen = m.switches.toggles.freeze;
    if (!frozen && m.status.empty() && m.cameraPathLabel.empty()) return 0.0f;
    ImGui::SetNextWindowPos(ImVec2(margin, display.y - margin), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(std::max(display.x - 2 * margin, 1.0f), FLT_MAX));
    ImGui::SetNextWindowBgAlpha(0.85f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    float height = 0.0f;
    if (ImGui::Begin("##status", nullptr, flags)) {
        ImGui::PushTextWrapPos(std::max(display.x - 4 * margin, 64.0f));
        if (frozen && m.freezeWarmUp > 0)
            ImGui::TextColored(ImVec4(1.0f, 0.9f, 0.2f, 1.0f),
                               "FREEZING CULLING: %d more frame(s) culled at the frozen camera to build its Hi-Z "
                               "pyramid",
                               m.freezeWarmUp);
        else if (frozen)
            ImGui::TextColored(ImVec4(1.0f, 0.9f, 0.2f, 1.0f),
                               "CULLING FROZEN (F): the culling camera stays where it was (debug view: culling "
                               "shows its frustum in yellow; the false-culling check pauses)");
        if (!m.cameraPathLabel.empty())
            ImGui::TextColored(ImVec4(0.6f, 0.85f, 1.0f, 1.0f), "%s", m.cameraPathLabel.c_str());
        if (!m.status.empty()) {
            if (m.statusIsError) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.35f, 1.0f));
            ImGui::TextUnformatted(m.status.c_str());
            if (m.statusIsError) ImGui::PopStyleColor();
        }
        ImGui::PopTextWrapPos();
        m.layout.status = windowRect("status");
        height = ImGui::GetWindowSize().y;
    }
    ImGui::End();
    return height;
}

}  // namespace

void drawFrameSection(const OverlayModel& m) {
    ImGui::Text("%s", m.deviceName.c_str());
    ImGui::Text("%ux%u  frame %.2f ms (mean %.2f ms, %.0f fps)", m.width, m.height, m.frameMs.last(),
                m.frameMs.average(), m.frameMs.average() > 0 ? 1000.0f / m.frameMs.average() : 0.0f);
    plot("##frame", m.frameMs, ImGui::GetTextLineHeight() * 1.5f);
}

std::vector<std::string> idlePasses(const OverlayModel& m) {
    const sieve::CullingToggles& t = m.switches.toggles;
    std::vector<std::string> idle;
    if (!t.checkCulling || t.freeze) idle.push_back("cull.check");  // the check pauses while frozen
    if (t.freeze) idle.push_back("hiz.build");                      // the frozen pyramid is kept
    if (!m.hiz.show) idle.push_back("overlay.hiz");
    if (m.debugView != DebugView::Culling && !m.pick) idle.push_back("debug.culling");  // (a pick's bounds)
    return idle;
}

void drawTimingsSection(const PassTimings& t, float maxHeight, const std::vector<std::string>& idle,
                        OverlayLayout* layout) {
    if (t.entries().empty()) {
        disabledWrapped("no GPU timings reported");
        return;
    }
    ImGui::Text("GPU total (mean) %.3f ms", t.totalAverage());
    // Its own scroll region, as tall as the window has room for: the rest of the overlay never scrolls.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float rowHeight = ImGui::GetTextLineHeight() + 2.0f * style.CellPadding.y;
    size_t rows = 0;
    for (const PassTimings::Entry& e : t.entries()) rows += e.current;
    const float natural = float(rows + 1) * rowHeight + 2.0f * style.CellPadding.y;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float room = maxHeight - at.y;
    // Where it scrolls, a whole number of rows (the header and at least one), so that none is cut at the
    // bottom: the scroll bar says there are more.
    const float whole = std::max(std::floor(room / rowHeight), 2.0f);
    const float height = room >= natural ? natural : whole * rowHeight;
    if (layout)
        layout->passTable = {"pass table", at.x, at.y, at.x + ImGui::GetContentRegionAvail().x, at.y + height, true};
    const ImGuiTableFlags flags = ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY;
    if (!ImGui::BeginTable("timings", 4, flags, ImVec2(0.0f, height))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("pass", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    ImGui::TableSetupColumn("ms", ImGuiTableColumnFlags_WidthStretch, 1.3f);
    ImGui::TableSetupColumn("mean", ImGuiTableColumnFlags_WidthStretch, 1.3f);
    ImGui::TableSetupColumn("history", ImGuiTableColumnFlags_WidthStretch, 2.4f);
    ImGui::TableHeadersRow();
    for (const PassTimings::Entry& e : t.entries()) {
        if (!e.current) continue;  // a pass switched off
        const bool off = std::find(idle.begin(), idle.end(), e.name) != idle.end();
        if (off) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        // draw.late also draws the blended bins (after the late opaque draws, single phase too).
        const char* note = off ? " (off)" : e.name == "draw.late" ? " + blend" : "";
        ImGui::Text("%s%s", e.name.c_str(), note);
        if (layout) layout->passRows.push_back(lastItemRect(e.name));
        ImGui::TableNextColumn();
        ImGui::Text("%7.3f", e.ms.last());
        ImGui::TableNextColumn();
        ImGui::Text("%7.3f", e.ms.average());
        ImGui::TableNextColumn();
        ImGui::PushID(e.name.c_str());
        plot("##pass", e.ms, ImGui::GetTextLineHeight());
        ImGui::PopID();
        if (off) ImGui::PopStyleColor();
    }
    ImGui::EndTable();
}

OverlayActions drawActionsSection(bool captureAvailable) {
    OverlayActions a;
    a.screenshot = button("screenshot");
    ImGui::SameLine();
    if (!captureAvailable) ImGui::BeginDisabled();
    a.capture = button("RenderDoc capture");
    if (!captureAvailable) {
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip(
                "RenderDoc is not loaded in this run (--capture-file PATH loads it; or start the viewer "
                "under renderdoccmd / qrenderdoc)");
    }
    ImGui::SameLine();
    a.reloadShaders = button("reload shaders");
    return a;
}

namespace {

// The main window's box: below the top margin, above the status bar; under policy.quarter, at most half
// the display's width and height.
struct MainBox {
    float maxW = 1.0f, maxH = 1.0f;
    float scale = 1.0f;  // io.FontGlobalScale
};
MainBox mainBox(const OverlayModel& m, ImVec2 display, float scale, float margin, float statusHeight) {
    MainBox b;
    b.scale = scale;
    b.maxW = std::max(display.x - 2 * margin, 1.0f);
    b.maxH = std::max(display.y - 2 * margin - (statusHeight > 0 ? statusHeight + margin : 0.0f), 1.0f);
    if (m.policy.quarter) {
        b.maxW = std::min(b.maxW, std::max(display.x * 0.5f - margin, 1.0f));
        b.maxH = std::min(b.maxH, std::max(display.y * 0.5f - margin, 1.0f));
    }
    return b;
}

// The main window ("Sieve") and its sections; returns the height its open sections want (0: collapsed).
float drawMainWindow(OverlayModel& m, const MainBox& box, ImVec2 display, float margin, OverlayActions& actions) {
    const float scale = box.scale;
    const float maxH = box.maxH;
    const float width = std::min(kMainWidth * scale, box.maxW);
    // Pinned: ImGui moves windows to keep them on a shrinking display (a 1x1 window) and would not move
    // them back. Fixed width; height fitted to the open sections every frame, at most the box.
    ImGui::SetNextWindowPos(ImVec2(margin, margin), ImGuiCond_Always);
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, maxH));
    ImGui::SetNextWindowBgAlpha(0.85f);
    // Small displays open fewer sections at first (a user's choice sticks afterwards).
    const bool tall = display.y >= 560.0f * scale;
    const int open = m.policy.quarter ? m.quarterOpen : 3;
    bool changed = false;
    float idealHeight = 0.0f;
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings;
    if (ImGui::Begin("Sieve", nullptr, flags)) {
        drawFrameSection(m);
        actions = drawActionsSection(m.captureAvailable);
        if (section(m, "counts", tall && open >= 1)) {
            drawCountsSection(m.counts, m.triangles, m.switches, m.binNames);
            drawClusterCounts(m.clusterPath, m.clusters, m.meshPrimitives);
        }
        if (section(m, "culling", open >= 2)) changed |= drawTogglesSection(m.switches);
        if (section(m, "debug view", m.debugView != DebugView::Off && !m.policy.quarter))
            changed |= drawDebugViewSection(m.debugView, !m.clusterPath.empty());
        if (section(m, "Hi-Z", m.hiz.show && !m.policy.quarter)) drawHiZSection(m.hiz);
        // Last, so that its scroll region takes what is left of the box.
        const float bottom = margin + maxH - ImGui::GetStyle().WindowPadding.y - ImGui::GetStyle().ItemSpacing.y;
        if (section(m, "GPU time per pass", open >= 3))
            drawTimingsSection(m.gpuTimes, bottom, idlePasses(m), &m.layout);
        idealHeight = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
        m.layout.window = windowRect("Sieve");
        // A section header scrolled out of the window's box is not visible either.
        for (UiRect& r : m.layout.sections)
            r.visible = r.visible && r.y0 >= m.layout.window.y0 && r.y1 <= m.layout.window.y1;
    }
    ImGui::End();
    actions.togglesChanged = changed;
    return idealHeight;
}

// Under policy.quarter the next frame fits the box: as wide as it may be (not below 3/4 size, where the
// bitmap font stops being readable), then with fewer sections open (headers stay), and only then smaller
// still (down to half size; beyond that the window scrolls).
void fitQuarter(OverlayModel& m, const MainBox& box, float idealHeight) {
    const float maxH = box.maxH;
    if (m.policy.quarter && idealHeight > 0.0f) {
        const float fitW = std::clamp(box.maxW / (kMainWidth * box.scale / m.fitScale), 0.75f, 1.0f);
        const bool tooTall = idealHeight > maxH + 0.5f;
        if (tooTall && m.quarterOpen > 0) {
            --m.quarterOpen;
            m.fitScale = std::min(m.fitScale, fitW);
        } else if (tooTall) {
            // Sizes are close to proportional to the scale: one step gets there.
            m.fitScale = std::clamp(m.fitScale * maxH / idealHeight, 0.5f, fitW);
        } else if (m.quarterOpen == 3 || m.fitScale > fitW) {
            m.fitScale = fitW;
        }
    } else {
        m.fitScale = 1.0f;
    }
}

}  // namespace

OverlayActions drawOverlay(OverlayModel& m) {
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 display = io.DisplaySize;
    const float scale = io.FontGlobalScale;
    const float margin = kMargin * scale;
    m.layout = {};
    m.layout.scale = scale;
    recordControlsInto(&m.layout);
    const float statusHeight = drawStatusBar(m, display, margin);
    const MainBox box = mainBox(m, display, scale, margin, statusHeight);
    OverlayActions actions;
    const float idealHeight = drawMainWindow(m, box, display, margin, actions);
    drawHiZWindow(m.hiz);
    drawPickWindow(m.pick, margin + (statusHeight > 0 ? statusHeight + margin : 0.0f));
    recordControlsInto(nullptr);
    fitQuarter(m, box, idealHeight);
    return actions;
}

OverlayActions newOverlayFrame(ImGuiLayer& layer, OverlayModel& model, VkExtent2D extent, float dtSeconds) {
    if (model.policy.quarter) {
        for (int round = 0; round < 6; ++round) {
            const float fit = model.fitScale;
            const int open = model.quarterOpen;
            const OverlayLayout before = model.layout;
            layer.newFrame(extent, round ? 1e-3f : dtSeconds, fit);
            (void)drawOverlay(model);
            layer.discardFrame();
            const bool stable = model.fitScale == fit && model.quarterOpen == open &&
                                model.layout.window.y1 == before.window.y1 &&
                                model.layout.window.x1 == before.window.x1;
            if (stable) break;
        }
    }
    layer.newFrame(extent, dtSeconds, model.fitScale);
    return drawOverlay(model);
}

}  // namespace engine::ui
