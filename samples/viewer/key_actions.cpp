#include "key_actions.h"

#include <cstdio>

#include "engine/ui/toggle_log.h"

namespace viewer {

bool applyKeys(const WindowInput::Actions& keys, engine::ui::OverlayActions& actions, engine::ui::OverlayModel& model) {
    actions.screenshot |= keys.screenshot;
    actions.reloadShaders |= keys.reloadShaders;
    if (keys.capture && !model.captureAvailable) {
        model.status =
            "C: no RenderDoc capture, RenderDoc is not loaded (install renderdoc, or start the viewer "
            "under renderdoccmd / qrenderdoc, or pass --capture-file)";
        model.statusIsError = true;
        std::printf("%s\n", model.status.c_str());
    }
    actions.capture |= keys.capture && model.captureAvailable;
    return keys.quit;
}

void ChangeLog::print(const engine::ui::OverlayModel& model) {
    const std::string toggles = engine::ui::describeToggleChanges(switches_, model.switches);
    if (!toggles.empty()) std::printf("culling: %s\n", toggles.c_str());
    const std::string view = engine::ui::describeDebugViewChange(view_, model.debugView);
    if (!view.empty()) std::printf("%s\n", view.c_str());
    if (!toggles.empty() || !view.empty()) std::fflush(stdout);
    switches_ = model.switches;
    view_ = model.debugView;
}

}  // namespace viewer
