#include "engine/ui/overlay.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cinttypes>
#include <string>

#include "sieve/cull_tests.h"

namespace engine::ui {

namespace {

constexpr float kMargin = 10.0f;      // between the overlay's windows and the display edge (unscaled)
constexpr float kMainWidth = 400.0f;  // of the main window (unscaled)

// A row of the counts table: label, value ("-" while there are no counts), and for instance counts
// their share of all instances (instances = 0: no share column, e.g. draw records, triangles).
void countRow(const char* label, bool valid, uint64_t value, uint64_t instances) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(label);
    ImGui::TableNextColumn();
    if (valid)
        ImGui::Text("%" PRIu64, value);
    else
        ImGui::TextUnformatted("-");
    ImGui::TableNextColumn();
    if (valid && instances)
        ImGui::Text("%5.1f%%", 100.0 * double(value) / double(instances));
    else
        ImGui::TextUnformatted(instances || !valid ? "-" : "");
}
void instanceRow(const char* label, bool valid, uint64_t value, uint64_t instances) {
    countRow(label, valid, value, std::max<uint64_t>(instances, 1));
}
void plainRow(const char* label, bool valid, uint64_t value) {
    countRow(label, valid, value, 0);
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

UiRect lastItemRect(const char* name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    return {name, a.x, a.y, b.x, b.y, ImGui::IsItemVisible()};
}

UiRect windowRect(const char* name) {
    const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
    return {name, p.x, p.y, p.x + s.x, p.y + s.y, true};
}

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
    if (!frozen && m.status.empty()) return 0.0f;
    ImGui::SetNextWindowPos(ImVec2(margin, display.y - margin), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(std::max(display.x - 2 * margin, 1.0f), FLT_MAX));
    ImGui::SetNextWindowBgAlpha(0.85f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    float height = 0.0f;
    if (ImGui::Begin("##status", nullptr, flags)) {
        ImGui::PushTextWrapPos(std::max(display.x - 4 * margin, 64.0f));
        if (frozen)
            ImGui::TextColored(ImVec4(1.0f, 0.9f, 0.2f, 1.0f),
                               "CULLING FROZEN: the culling camera stays where it was (debug view: culling shows "
                               "its frustum in yellow)");
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

void drawClusterCounts(const std::string& path, const sieve::ClusterStats& s) {
    if (path.empty()) return;
    if (!s.valid) {
        disabledWrapped("no cluster counts yet");
        return;
    }
    const sieve::gpu::ClusterCounters& k = s.counters;
    ImGui::Text("clusters (%s path)", path.c_str());
    if (ImGui::BeginTable("clusters", 3, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
        countRow("clusters tested", true, k.lateTested, k.lateTested);
        countRow("frustum visible", true, k.frustumVisible, k.lateTested);
        countRow("front-facing (cone)", true, k.coneVisible, k.lateTested);
        countRow("occlusion visible", true, k.lateVisible, k.lateTested);
        countRow("drawn (early + late)", true, s.drawn(), k.lateTested);
        countRow("cluster triangles", true, k.triangles, 0);
        countRow("overflow + dropped", true, s.early.overflow + s.late.overflow + k.dropped, 0);
        ImGui::EndTable();
    }
}

void drawCountsSection(const sieve::CullingStats& c, uint64_t triangles, bool singlePhase) {
    // The same rows with or without counts, so that the overlay does not change size when they arrive.
    const bool v = c.valid;
    if (v)
        ImGui::Text("counts of frame %" PRIu64, c.frame);
    else
        disabledWrapped("no culling counts yet (they reach the CPU some frames late)");
    // Instance rows first (with their share of all instances), then draw records, which are per
    // (instance, primitive) and so never a share of instances.
    if (ImGui::BeginTable("counts", 3, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
        ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("count", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("0000000000").x);
        ImGui::TableSetupColumn("share", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("100.0%").x);
        instanceRow("instances", v, c.instances, c.instances);
        if (singlePhase) {
            instanceRow("drawn (single phase)", v, c.lateDrawn, c.instances);
        } else {
            instanceRow("drawn early (visible last frame)", v, c.earlyDrawn, c.instances);
            instanceRow("drawn late (newly visible)", v, c.lateDrawn, c.instances);
        }
        // What each test removed from the main view (the first test that culls an instance counts it); a
        // test that removed nothing (off, or no draw distance) takes no row.
        for (const sieve::CullTest& test : sieve::kCullTests) {
            const uint32_t culled = c.views.empty() ? 0u : c.views.front().culled[test.index];
            if (culled) instanceRow(("culled: " + std::string(test.culledBy)).c_str(), v, culled, c.instances);
        }
        plainRow("draw records (instance x primitive)", v, c.draws());
        plainRow("triangles", v, triangles);
        ImGui::EndTable();
    }
    if (v && c.overflow())
        ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "draw buffer overflow: %u draw records dropped", c.overflow());
    if (v && c.falselyCulledValid)
        ImGui::TextColored(c.falselyCulled ? ImVec4(1, 0.4f, 0.3f, 1) : ImVec4(0.6f, 0.9f, 0.6f, 1),
                           "falsely culled: %u instances", c.falselyCulled);
    if (v) drawViewsTable(c);
}

void drawTimingsSection(const PassTimings& t, float maxHeight, bool singlePhase) {
    if (t.entries().empty()) {
        disabledWrapped("no GPU timings reported");
        return;
    }
    ImGui::Text("GPU total (mean) %.3f ms", t.totalAverage());
    if (singlePhase) disabledWrapped("single phase: draw.early draws everything, draw.late is not recorded");
    // Its own scroll region, as tall as the window has room for: the rest of the overlay never scrolls.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float rowHeight = ImGui::GetTextLineHeight() + 2.0f * style.CellPadding.y;
    const float natural = float(t.entries().size() + 1) * rowHeight + 2.0f * style.CellPadding.y;
    const float height = std::clamp(maxHeight - ImGui::GetCursorScreenPos().y, 2.0f * rowHeight, natural);
    const ImGuiTableFlags flags = ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY;
    if (!ImGui::BeginTable("timings", 4, flags, ImVec2(0.0f, height))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("pass", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    ImGui::TableSetupColumn("ms", ImGuiTableColumnFlags_WidthStretch, 1.3f);
    ImGui::TableSetupColumn("mean", ImGuiTableColumnFlags_WidthStretch, 1.3f);
    ImGui::TableSetupColumn("history", ImGuiTableColumnFlags_WidthStretch, 2.4f);
    ImGui::TableHeadersRow();
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
        plot("##pass", e.ms, ImGui::GetTextLineHeight());
        ImGui::PopID();
    }
    ImGui::EndTable();
}

bool drawTogglesSection(CullingSwitches& s) {
    sieve::CullingToggles& t = s.toggles;
    float& drawDistance = s.drawDistance;
    bool changed = false;
    for (const sieve::CullTest& test : sieve::kCullTests) {
        changed |= ImGui::Checkbox(std::string(test.name).c_str(), &(t.*test.toggle));
        ImGui::SameLine();
    }
    changed |= ImGui::Checkbox("two-phase", &t.twoPhase);
    changed |= ImGui::Checkbox("LOD", &t.lod);
    ImGui::SameLine();
    changed |= ImGui::Checkbox("freeze culling", &t.freeze);
    ImGui::SameLine();
    // The false-culling check: occlusion-culled instances re-tested against the final depth.
    changed |= ImGui::Checkbox("check culling", &t.checkCulling);
    int mode = s.stable ? 0 : 1;
    changed |= ImGui::RadioButton("stable compaction", &mode, 0);
    ImGui::SameLine();
    changed |= ImGui::RadioButton("atomic append", &mode, 1);
    s.stable = mode == 0;
    // One row: the LOD bias, then the draw distance (0 = none; logarithmic, distances span orders of magnitude).
    const float half = ImGui::GetContentRegionAvail().x * 0.25f;
    ImGui::SetNextItemWidth(half);
    changed |= ImGui::SliderInt("LOD bias", &t.lodBias, kLodBiasMin, kLodBiasMax);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(half);
    changed |= ImGui::SliderFloat("draw distance", &drawDistance, 0.0f, 10000.0f, drawDistance > 0.0f ? "%.1f" : "none",
                                  ImGuiSliderFlags_Logarithmic);
    return changed;
}

bool drawDebugViewSection(DebugView& v) {
    int mode = int(v);
    bool changed = ImGui::RadioButton("off", &mode, int(DebugView::Off));
    ImGui::SameLine();
    changed |= ImGui::RadioButton("culling", &mode, int(DebugView::Culling));
    ImGui::SameLine();
    changed |= ImGui::RadioButton("LOD", &mode, int(DebugView::Lod));
    ImGui::SameLine();
    changed |= ImGui::RadioButton("clusters", &mode, int(DebugView::Clusters));
    v = DebugView(mode);
    if (v == DebugView::Culling) {
        ImGui::TextColored(ImVec4(0.4f, 1.0f, 0.4f, 1.0f), "drawn early");
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(0.45f, 0.6f, 1.0f, 1.0f), "drawn late / single phase");
        for (const sieve::CullTest& test : sieve::kCullTests) {
            const ImVec4 colour(test.colour[0], test.colour[1], test.colour[2], 1.0f);
            ImGui::TextColored(colour, "%s", std::string(test.culledBy).c_str());
            ImGui::SameLine();
        }
        ImGui::TextColored(ImVec4(1.0f, 1.0f, 0.2f, 1.0f), "frozen frustum");
    } else if (v == DebugView::Lod) {
        disabledWrapped("LOD 0 white, 1 yellow, 2 orange, 3 and coarser red");
    }
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
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 display = io.DisplaySize;
    const float scale = io.FontGlobalScale;
    const float margin = kMargin * scale;
    m.layout = {};
    m.layout.scale = scale;
    const float statusHeight = drawStatusBar(m, display, margin);

    // The main window's box: below the top margin, above the status bar; under policy.quarter, at most
    // half the display's width and height.
    float maxW = std::max(display.x - 2 * margin, 1.0f);
    float maxH = std::max(display.y - 2 * margin - (statusHeight > 0 ? statusHeight + margin : 0.0f), 1.0f);
    if (m.policy.quarter) {
        maxW = std::min(maxW, std::max(display.x * 0.5f - margin, 1.0f));
        maxH = std::min(maxH, std::max(display.y * 0.5f - margin, 1.0f));
    }
    const float width = std::min(kMainWidth * scale, maxW);
    // Pinned: ImGui moves windows to keep them on a shrinking display (a 1x1 window) and would not move
    // them back. Fixed width; height fitted to the open sections every frame, at most the box.
    ImGui::SetNextWindowPos(ImVec2(margin, margin), ImGuiCond_Always);
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, maxH));
    ImGui::SetNextWindowBgAlpha(0.85f);
    // Small displays open fewer sections at first (a user's choice sticks afterwards).
    const bool tall = display.y >= 560.0f * scale;
    const int open = m.policy.quarter ? m.quarterOpen : 3;
    OverlayActions actions;
    bool changed = false;
    float idealHeight = 0.0f;
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings;
    if (ImGui::Begin("Sieve", nullptr, flags)) {
        drawFrameSection(m);
        actions = drawActionsSection(m.captureAvailable);
        const bool singlePhase = !m.switches.toggles.twoPhase;
        if (section(m, "counts", tall && open >= 1)) {
            drawCountsSection(m.counts, m.triangles, singlePhase);
            drawClusterCounts(m.clusterPath, m.clusters);
        }
        if (section(m, "culling", open >= 2)) changed |= drawTogglesSection(m.switches);
        if (section(m, "debug view", m.debugView != DebugView::Off && !m.policy.quarter))
            changed |= drawDebugViewSection(m.debugView);
        if (section(m, "Hi-Z", m.hiz.show && !m.policy.quarter)) drawHiZSection(m.hiz);
        // Last, so that its scroll region takes what is left of the box.
        const float bottom = margin + maxH - ImGui::GetStyle().WindowPadding.y - ImGui::GetStyle().ItemSpacing.y;
        if (section(m, "GPU time per pass", open >= 3)) drawTimingsSection(m.gpuTimes, bottom, singlePhase);
        idealHeight = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
        m.layout.window = windowRect("Sieve");
        // A section header scrolled out of the window's box is not visible either.
        for (UiRect& r : m.layout.sections)
            r.visible = r.visible && r.y0 >= m.layout.window.y0 && r.y1 <= m.layout.window.y1;
    }
    ImGui::End();
    drawHiZWindow(m.hiz);
    actions.togglesChanged = changed;
    // Under policy.quarter the next frame fits the box: as wide as it may be (not below 3/4 size, where
    // the bitmap font stops being readable), then with fewer sections open (headers stay), and only
    // then smaller still (down to half size; beyond that the window scrolls).
    if (m.policy.quarter && idealHeight > 0.0f) {
        const float fitW = std::clamp(maxW / (kMainWidth * scale / m.fitScale), 0.75f, 1.0f);
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
