#pragma once
// What the viewer's keys do besides moving the camera (R reload, P screenshot, C capture, Escape quit),
// merged into the overlay's actions with feedback on screen for what cannot be done; and the log line
// that names each toggle the user changed.
#include "engine/ui/frame_stats.h"
#include "window_input.h"

namespace viewer {

// Adds the keys to `actions`; a capture without RenderDoc becomes a status line instead. Returns
// whether Escape asked to quit.
bool applyKeys(const WindowInput::Actions& keys, engine::ui::OverlayActions& actions, engine::ui::OverlayModel& model);

// Prints "culling: <changes>" / "debug view <name>" once per change of the model's toggles or view.
class ChangeLog {
public:
    explicit ChangeLog(const engine::ui::OverlayModel& model) : switches_(model.switches), view_(model.debugView) {}
    void print(const engine::ui::OverlayModel& model);

private:
    engine::ui::CullingSwitches switches_;
    engine::ui::DebugView view_;
};

}  // namespace viewer
