#include "key_actions.h"

#include <cstdio>

#include "engine/ui/toggle_log.h"

namespace viewer {

namespace {
void say(const char* line) {
    std::printf("%s\n", line);
    std::fflush(stdout);
}
}  // namespace

engine::ui::DebugView nextDebugView(engine::ui::DebugView v) {
    using engine::ui::DebugView;
    switch (v) {
        case DebugView::Off: return DebugView::Culling;
        case DebugView::Culling: return DebugView::Lod;
        case DebugView::Lod: return DebugView::Clusters;
        case DebugView::Clusters: break;
    }
    return DebugView::Off;
}

bool applyKeys(const WindowInput::Actions& keys, engine::ui::OverlayActions& actions, engine::ui::OverlayModel& model,
               LoopControls& loop) {
    actions.screenshot |= keys.screenshot;
    actions.reloadShaders |= keys.reloadShaders;
    if (keys.capture && !model.captureAvailable) {
        model.status =
            "C: no RenderDoc capture, RenderDoc is not loaded in this run (--capture-file PATH or --capture-frame N "
            "loads it; or start the viewer under renderdoccmd / qrenderdoc)";
        model.statusIsError = true;
        say(model.status.c_str());
    }
    actions.capture |= keys.capture && model.captureAvailable;
    if (keys.freeze) model.switches.toggles.freeze = !model.switches.toggles.freeze;  // logged by ChangeLog
    if (keys.debugView) model.debugView = nextDebugView(model.debugView);
    if (keys.hiz) model.hiz.show = !model.hiz.show;
    if (keys.overlay) {
        loop.overlayShown = !loop.overlayShown;
        say(loop.overlayShown ? "overlay shown" : "overlay hidden (O or F1 shows it)");
    }
    if (keys.pause) {
        loop.paused = !loop.paused;
        say(loop.paused ? "paused: no frames (Space resumes, N renders one)" : "resumed");
    }
    loop.stepOnce = loop.paused && keys.step;
    loop.toggleShadows = keys.shadows;
    loop.toggleClusters = keys.clusters;
    return keys.quit;
}

void ChangeLog::print(const engine::ui::OverlayModel& model) {
    const std::string toggles = engine::ui::describeToggleChanges(switches_, model.switches);
    if (!toggles.empty()) std::printf("culling: %s\n", toggles.c_str());
    const std::string view = engine::ui::describeDebugViewChange(view_, model.debugView);
    if (!view.empty()) std::printf("%s\n", view.c_str());
    const std::string hiz = hizLine(model.hiz);
    if (hiz_ != hiz) std::printf("%s\n", hiz.c_str());
    if (!toggles.empty() || !view.empty() || hiz_ != hiz) std::fflush(stdout);
    switches_ = model.switches;
    view_ = model.debugView;
    hiz_ = hiz;
}

std::string ChangeLog::hizLine(const engine::ui::HiZView& h) {
    if (!h.show) return "Hi-Z view off";
    return std::string("Hi-Z view ") + (h.showMax ? "max" : "min") + ", mip " + std::to_string(h.mip);
}

}  // namespace viewer
