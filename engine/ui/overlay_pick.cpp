// The overlay's pick window: the picked instance and each culling test's verdict (the viewer's right
// click); a disagreement between the CPU reference and the GPU, and a false cull the check found, in red.
#include <imgui.h>

#include <algorithm>

#include "engine/ui/overlay.h"
#include "engine/ui/overlay_widgets.h"

namespace engine::ui {

void drawPickWindow(std::optional<PickPanel>& pick, float bottomMargin) {
    if (!pick) return;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(std::max(display.x - 10.0f, 0.0f), std::max(display.y - bottomMargin, 0.0f)),
                            ImGuiCond_Always, ImVec2(1.0f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.85f);
    bool open = true;
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings;
    if (ImGui::Begin("why? (right click to pick)", &open, flags)) {
        ImGui::TextUnformatted(pick->title.c_str());
        for (const std::string& line : pick->lines) {
            const size_t i = size_t(&line - pick->lines.data());
            const bool red = std::find(pick->red.begin(), pick->red.end(), i) != pick->red.end();
            if (red)
                ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "%s", line.c_str());
            else
                ImGui::TextUnformatted(line.c_str());
        }
        widgets::recordWindow("pick window");
    }
    ImGui::End();
    if (!open) pick.reset();
}

}  // namespace engine::ui
