// The overlay's Hi-Z view: its section (show, min/max, mip, the contrast) and its window (the image with
// the frame's aspect, the distance scale, and the min and max of the texel under the cursor).
#include <imgui.h>

#include <algorithm>
#include <cfloat>

#include "engine/ui/overlay.h"
#include "engine/ui/overlay_widgets.h"

namespace engine::ui {

using namespace widgets;

namespace {

// The texel of the shown mip under the cursor, while it is over the image just drawn.
std::optional<HiZTexel> hoveredTexel(const HiZView& v, int mip) {
    if (!ImGui::IsItemHovered()) return std::nullopt;
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax(), m = ImGui::GetIO().MousePos;
    const float u = (m.x - a.x) / std::max(b.x - a.x, 1.0f), t = (m.y - a.y) / std::max(b.y - a.y, 1.0f);
    const uint32_t w = std::max(v.width >> mip, 1u), h = std::max(v.height >> mip, 1u);
    return HiZTexel{mip, std::min(uint32_t(std::max(u, 0.0f) * float(w)), w - 1),
                    std::min(uint32_t(std::max(t, 0.0f) * float(h)), h - 1)};
}

// One line, always there: the probed texel's min and max (and the distances they stand for).
void readoutLine(const HiZView& v) {
    if (!v.probe) {
        ImGui::TextDisabled("hover the image: a texel's min and max");
        return;
    }
    const HiZTexel& p = *v.probe;
    if (!v.readout || !(v.readout->texel == p)) {
        ImGui::Text("mip %d texel (%u, %u): reading back...", p.mip, p.x, p.y);
        return;
    }
    const auto distance = [&](float depth) { return depth > 0.0f && v.nearPlane > 0.0f ? v.nearPlane / depth : 0.0f; };
    ImGui::Text("mip %d (%u, %u): min %.5f (%.1f), max %.5f (%.1f)", p.mip, p.x, p.y, v.readout->min,
                distance(v.readout->min), v.readout->max, distance(v.readout->max));
}

}  // namespace

void drawHiZSection(HiZView& v) {
    if (v.mipCount <= 0) {
        disabledWrapped("no Hi-Z pyramid in this host");
        v.show = false;
        return;
    }
    ImGui::PushID("hiz");
    checkbox("show Hi-Z", &v.show);
    int which = v.showMax ? 1 : 0;
    ImGui::SameLine();
    radio("min", &which, 0, "Hi-Z: min");
    ImGui::SameLine();
    radio("max", &which, 1, "Hi-Z: max");
    v.showMax = which == 1;
    // The selection outlives a smaller pyramid (a 1x1 window has one mip): clamped where shown, kept here.
    int mip = std::clamp(v.mip, 0, v.mipCount - 1);
    const float half = ImGui::GetContentRegionAvail().x * 0.3f;
    ImGui::SetNextItemWidth(half);
    if (ImGui::SliderInt("mip", &mip, 0, v.mipCount - 1)) v.mip = mip;
    recordLast("Hi-Z: mip");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(half);
    // The contrast: the distance shown black (white is the eye).
    ImGui::SliderFloat("black at", &v.range, 1.0f, 10000.0f, "%.0f", ImGuiSliderFlags_Logarithmic);
    recordLast("Hi-Z: range");
    ImGui::PopID();
}

void drawHiZWindow(HiZView& v) {
    v.probe.reset();
    if (!v.show || !v.texture || !v.width || !v.height) return;
    // Its own window at the top right, so that the main window's height does not depend on it. The pyramid
    // covers the frame: shown with the frame's aspect.
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float width = std::min(360.0f, std::max(display.x * 0.3f, 64.0f));
    const float height = std::min(width / std::max(v.aspect, 1e-3f), 2.0f * width);
    ImGui::SetNextWindowPos(ImVec2(std::max(display.x - width - 26.0f, 0.0f), 10.0f), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.85f);
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings;
    if (ImGui::Begin("Hi-Z pyramid", nullptr, flags)) {
        const int mip = std::clamp(v.mip, 0, v.mipCount - 1);
        const uint32_t w = std::max(v.width >> mip, 1u), h = std::max(v.height >> mip, 1u);
        ImGui::Text("%s, mip %d: %ux%u", v.showMax ? "max" : "min", mip, w, h);
        ImGui::Image(reinterpret_cast<ImTextureID>(v.texture), ImVec2(width, height));
        recordLast("Hi-Z image");
        v.probe = hoveredTexel(v, mip);
        if (v.nearPlane > 0.0f)
            ImGui::TextDisabled("distance: white 0, black %.0f; blue: nothing drawn", v.range);
        else
            ImGui::TextDisabled("depth: white near, black far; blue: nothing drawn");
        readoutLine(v);
    }
    ImGui::End();
}

}  // namespace engine::ui
