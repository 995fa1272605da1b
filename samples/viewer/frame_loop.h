#pragma once
// The viewer's frame loop: what one iteration does (input, camera, culling freeze, the scene, the
// overlay, the actions its buttons and keys asked for) over the objects main() made, and what the run
// writes after its last frame.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "auto_framing.h"
#include "camera.h"
#include "camera_path_player.h"
#include "click_pick.h"
#include "debug_view.h"
#include "engine/capture/renderdoc.h"
#include "engine/scene/scene_renderer.h"
#include "engine/ui/imgui_layer.h"
#include "frame_collector.h"
#include "freeze_control.h"
#include "key_actions.h"
#include "options.h"
#include "pick.h"
#include "renderer_maker.h"
#include "shader_hot_reload.h"
#include "viewer_setup.h"
#include "window_input.h"

namespace viewer {

// Everything a run uses, made by main().
struct Session {
    ViewerOptions& opt;
    engine::Context& ctx;
    engine::RenderDoc& renderdoc;
    engine::GlfwWindow* window;  // null: headless
    Targets& targets;
    engine::ui::ImGuiLayer* ui;  // null: --overlay off
    engine::GpuTimestamps& overlayTimer;
    FrameGpuTimer& frameTimer;
    std::unique_ptr<engine::SceneRenderer>& renderer;
    RendererMaker& maker;  // makes the renderer again (L: shadows, K: clusters)
    FlyCamera& camera;
    CameraPathPlayer& path;
    ShaderHotReload& hotReload;
    engine::ui::OverlayModel& model;
    DebugViewDriver& debugView;
    WindowInput* input;                                                                // null: headless
    ResizeSequence* resizes;                                                           // --test-resize-sequence
    std::vector<std::pair<uint64_t, std::map<std::string, std::string>>> testReloads;  // after frame -> sources
    const sieve::assets::SceneData& scene;
    CullingFrame lastFrame;  // what the last frame recorded was drawn and culled with (--pick)
    AutoFraming framing;     // a glTF scene framed beside the overlay until the camera is moved
};

struct RunCounters {
    uint64_t rendered = 0, skipped = 0;
};

// Runs frames until --frames, Escape or the window closes; returns the exit code (0: go on to finishRun).
int runFrames(Session& s, RunCounters& counters);
// After the last frame: the counts still in flight, the screenshot, the stats JSON, the closing lines.
int finishRun(Session& s, const RunCounters& counters);

}  // namespace viewer
