#include "engine/ui/overlay_widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cinttypes>

namespace engine::ui::widgets {

namespace {
OverlayLayout* recorded = nullptr;
}  // namespace

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

void greyRow(const char* label) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    countRow(label, false, 0, 0);
    ImGui::PopStyleColor();
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

UiRect lastItemRect(const std::string& name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    return {name, a.x, a.y, b.x, b.y, ImGui::IsItemVisible()};
}

UiRect windowRect(const char* name) {
    const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
    return {name, p.x, p.y, p.x + s.x, p.y + s.y, true};
}

void recordControlsInto(OverlayLayout* layout) {
    recorded = layout;
}

void recordLast(const char* name) {
    if (recorded) recorded->controls.push_back(lastItemRect(name));
}

void recordWindow(const char* name) {
    if (recorded) recorded->controls.push_back(windowRect(name));
}

bool checkbox(const char* label, bool* value, const char* name) {
    const bool changed = ImGui::Checkbox(label, value);
    recordLast(name ? name : label);
    return changed;
}

bool radio(const char* label, int* value, int option, const char* name) {
    const bool changed = ImGui::RadioButton(label, value, option);
    recordLast(name ? name : label);
    return changed;
}

bool button(const char* label, const char* name) {
    const bool pressed = ImGui::Button(label);
    recordLast(name ? name : label);
    return pressed;
}

}  // namespace engine::ui::widgets
