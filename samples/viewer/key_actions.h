#pragma once
// What the viewer's keys do besides moving the camera (R reload, P screenshot, C capture, Escape quit,
// F freeze, O/F1 overlay, V debug view, H Hi-Z view, Space pause, N step, L shadows), merged into the overlay's
// actions and model with feedback for what cannot be done; and the log line that names each toggle the
// user changed.
#include "engine/ui/frame_stats.h"
#include "window_input.h"

namespace viewer {

// The frame loop's own switches the keys drive.
struct LoopControls {
    bool overlayShown = true;
    bool paused = false;          // no frames are rendered (the window keeps the last)
    bool stepOnce = false;        // while paused: render one frame
    bool toggleShadows = false;   // L this frame: the renderer is made again with shadows switched
    bool toggleClusters = false;  // K this frame: ... with clusters switched
};

// Adds the keys to `actions`, `model` and `loop`; a capture without RenderDoc becomes a status line
// instead. Returns whether Escape asked to quit.
bool applyKeys(const WindowInput::Actions& keys, engine::ui::OverlayActions& actions, engine::ui::OverlayModel& model,
               LoopControls& loop);

// The debug view after `v` in the order V cycles through: off, culling, lod, clusters.
engine::ui::DebugView nextDebugView(engine::ui::DebugView v);

// Prints "culling: <changes>" / "debug view <name>" / "Hi-Z view min|max, mip N" or "Hi-Z view off" once per
// change of the model's toggles or views.
class ChangeLog {
public:
    explicit ChangeLog(const engine::ui::OverlayModel& model)
        : switches_(model.switches), view_(model.debugView), hiz_(hizLine(model.hiz)) {}
    void print(const engine::ui::OverlayModel& model);

private:
    engine::ui::CullingSwitches switches_;
    static std::string hizLine(const engine::ui::HiZView& h);  // "Hi-Z view min, mip 2" or "Hi-Z view off"
    engine::ui::DebugView view_;
    std::string hiz_;
};

}  // namespace viewer
