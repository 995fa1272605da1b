// The culling plugin's ImGui widgets: toggles and counts. Emits widgets only (no window of its own).
#include "sieve/culling.h"

#ifdef SIEVE_HAVE_IMGUI
#include <imgui.h>
#endif

namespace sieve {

void CullingPlugin::drawUi() {
#ifdef SIEVE_HAVE_IMGUI
    ImGui::Checkbox("frustum", &toggles_.frustum);
    ImGui::Checkbox("occlusion (Hi-Z)", &toggles_.occlusion);
    ImGui::Checkbox("two-phase", &toggles_.twoPhase);
    ImGui::Checkbox("LOD", &toggles_.lod);
    ImGui::Checkbox("stable order", &toggles_.stable);
    ImGui::Checkbox("freeze culling", &toggles_.freeze);
    ImGui::Checkbox("single-dispatch Hi-Z", &toggles_.singleDispatchHiZ);
    ImGui::SliderInt("LOD bias", &toggles_.lodBias, -4, 4);
    if (stats_.valid) {
        ImGui::Text("frame %llu: %u instances, %u in frustum", (unsigned long long)stats_.frame, stats_.instances,
                    stats_.frustumVisible);
        ImGui::Text("early %u, late %u (visible %u); draws %u, overflow %u", stats_.earlyDrawn, stats_.lateDrawn,
                    stats_.lateVisible, stats_.draws(), stats_.overflow());
    }
#endif
}

}  // namespace sieve
