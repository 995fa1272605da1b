#include "frame_loop.h"

#include <volk.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <chrono>
#include <cstdio>

#include "engine/ui/overlay.h"
#include "engine/ui/stats_json.h"
#include "memory_report.h"
#include "run_report.h"
#include "sieve/culling_tuning.h"

namespace viewer {

namespace {

int fail(const std::string& message) {
    std::fprintf(stderr, "sieve-viewer: %s\n", message.c_str());
    return 1;
}

// The loop's state between iterations.
struct LoopState {
    RunCounters& counters;
    FreezeControl freeze;
    LoopControls controls;
    ChangeLog changeLog;
    ClickPick clicks;
    bool shadows = false;   // the renderer draws cascaded shadows
    bool clusters = false;  // ... and the cluster lists
    uint64_t failedInARow = 0;
    bool captureNext = false, capturing = false, shotRequested = false, quit = false, iconified = false;
    std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};

float aspectOf(VkExtent2D e) {
    return float(e.width) / float(std::max(e.height, 1u));
}

// The camera of this frame: the path while it plays, else the user's input; then the culling freeze
// decides what is drawn and culled with.
FreezeControl::Frame moveCamera(Session& s, LoopState& st, const CameraInput& in, float dt, VkExtent2D extent) {
    const float aspect = aspectOf(extent);
    const bool overlay = s.ui && st.controls.overlayShown;  // its rectangles: the last frame's
    s.framing.follow(s.camera, aspect,
                     freeParts(extent, overlay ? s.model.layout.window : engine::ui::UiRect{},
                               overlay ? s.model.layout.status : engine::ui::UiRect{}));
    if (!s.path.update(s.camera, in, s.window != nullptr, dt, st.counters.rendered, aspect)) s.camera.update(in, dt);
    s.model.cameraPathLabel = s.path.label();
    s.model.hiz.nearPlane = s.camera.orthographic ? 0.0f : s.camera.nearPlane;  // infinite reverse-Z perspective
    s.model.hiz.aspect = aspect;
    const FreezeControl::Frame f =
        st.freeze.next(s.model.switches.toggles.freeze, s.camera.view(), s.camera.projection(aspect), extent);
    s.model.freezeWarmUp = st.freeze.warmUpLeft();
    return f;
}

// The plugin's switches from the overlay's model, the debug views, and the scene's passes.
sieve::Result<void> recordScene(Session& s, const engine::Frame& frame, const FreezeControl::Frame& cull,
                                uint64_t rendered) {
    engine::SceneRenderer& r = *s.renderer;
    r.plugin().toggles() = s.model.switches.toggles;
    r.plugin().toggles().freeze = cull.freeze;
    r.setDrawDistance(s.model.switches.drawDistance);
    sieve::tuning(r.plugin()).stable = s.model.switches.stable;
    sieve::tuning(r.plugin()).debugRadiusShrink = s.opt.testRadiusShrink;
    const engine::ui::HiZView& h = s.model.hiz;
    if (engine::ui::HiZViewPass* hiz = r.hizView()) hiz->select(h.show, h.showMax, h.mip, h.nearPlane, h.range);
    s.debugView.apply(s.model.debugView, r.plugin().toggles(), cull.view, cull.projection, r,
                      s.model.pick ? s.model.pick->instance : std::nullopt);
    auto recorded = r.record(*s.targets.target, frame, cull.view, cull.projection);
    for (const ViewerOptions::TestAction& a : s.opt.testActions)
        if (a.name == "fail" && uint64_t(a.frame) == rendered && recorded)
            recorded = sieve::makeError(VK_ERROR_UNKNOWN,
                                        "test-actions: an error forced in frame " + std::to_string(rendered));
    if (engine::ui::HiZViewPass* hiz = r.hizView(); hiz && recorded) {  // after record: a viewport change
        s.model.hiz.mipCount = int(hiz->mipCount());                    // rebuilds the view's image
        s.model.hiz.width = hiz->pyramidExtent().width;
        s.model.hiz.height = hiz->pyramidExtent().height;
        s.model.hiz.texture = reinterpret_cast<void*>(hiz->texture());
    }
    return recorded;
}

// The pyramid and the decisions are read back for --pick, a right click's pick, and the Hi-Z view's texel
// under the cursor; not otherwise (a copy of the whole pyramid).
void armReadback(Session& s, const LoopState& st) {
    const engine::ui::HiZView& h = s.model.hiz;
    if (engine::ui::PickReadbackPass* pick = s.renderer->pickReadback())
        pick->arm(!s.opt.picks.empty() || s.opt.testPickVerify || (h.show && h.probe) || st.clicks.wantsReadback(),
                  s.model.switches.toggles.checkCulling);  // the final depth: the check's verdict in a pick
}

// The overlay (when shown), then what its buttons, the keys and --test-actions asked for this frame.
sieve::Result<engine::ui::OverlayActions> drawOverlay(Session& s, LoopState& st, const engine::Frame& frame, float dt) {
    engine::ui::OverlayActions actions;
    const uint32_t slot = frame.info.frameSlot;
    s.overlayTimer.reset(frame.cmd, slot);
    if (s.ui && st.controls.overlayShown) {
        actions = engine::ui::newOverlayFrame(*s.ui, s.model, frame.extent, dt);
        s.overlayTimer.begin(frame.cmd, "overlay", slot);
        auto r = s.ui->render(frame.cmd, frame.colorView, frame.extent, slot);
        s.overlayTimer.end(frame.cmd, slot);
        if (!r) return r.error();
    }
    if (s.input) st.quit = applyKeys(s.input->actions(), actions, s.model, st.controls);
    for (const ViewerOptions::TestAction& a : s.opt.testActions) {
        if (uint64_t(a.frame) != st.counters.rendered) continue;
        std::printf("test-actions: %s in frame %d\n", a.name.c_str(), a.frame);
        actions.screenshot |= a.name == "screenshot";
        actions.capture |= a.name == "capture" && s.model.captureAvailable;
        actions.reloadShaders |= a.name == "reload";
    }
    return actions;
}

void endCapture(Session& s, LoopState& st) {
    const bool ok = s.renderdoc.endCapture(s.ctx.instance());
    st.capturing = false;
    const uint32_t n = s.renderdoc.captureCount();
    const std::string path = n ? s.renderdoc.capturePath(n - 1) : "";
    s.model.status = ok ? "RenderDoc capture: " + path : "RenderDoc capture failed";
    s.model.statusIsError = !ok;
    std::printf("%s\n", s.model.status.c_str());
}

// L / K: the renderer made again with shadows or clusters switched (the frames in flight finish first;
// the culling freeze starts again at its camera: the new plugin has no pyramid).
void switchRenderer(Session& s, LoopState& st, bool shadows, bool clusters) {
    const bool shadowsSwitched = shadows != st.shadows;
    const std::string what = shadowsSwitched ? "shadows" : "clusters";
    const bool on = shadowsSwitched ? shadows : clusters;
    std::string message;
    bool ok = false;
    if (auto r = s.targets.target->finish(); !r) {
        message = what + ": " + r.error().message;
    } else if (auto made = s.maker.make(shadows, clusters); !made) {
        message = what + " stay " + (on ? "off" : "on") + ": " + made.error().message;
    } else {
        s.renderer = std::move(made).value();
        st.shadows = shadows;
        st.clusters = clusters;
        st.freeze.pluginRecreated();
        s.model.clusterPath = s.maker.clusterPath(clusters);
        s.model.binNames = s.renderer->streamNames();
        ok = true;
        const uint32_t cascades = s.opt.cascades ? s.opt.cascades : 3u;
        message = !on               ? what + " off"
                  : shadowsSwitched ? "shadows on: " + std::to_string(cascades) + " cascades, each a culling view"
                                    : "clusters on: the " + s.model.clusterPath + " path";
    }
    s.model.status = message;
    s.model.statusIsError = !ok;
    std::printf("%s\n", message.c_str());
    std::fflush(stdout);
}

// After endFrame: the capture, a shader reload (the culling freeze starts again at its camera: the new
// plugin has neither), the log of what changed.
void afterFrame(Session& s, LoopState& st, engine::ui::OverlayActions& actions) {
    if (st.capturing) endCapture(s, st);
    if (actions.capture) st.captureNext = true;
    std::map<std::string, std::string> substitutes;
    for (auto& [after, subs] : s.testReloads)
        if (after == st.counters.rendered) {
            actions.reloadShaders = true;
            substitutes = subs;
        }
    if (actions.reloadShaders) {
        const ReloadOutcome outcome = s.hotReload.run(*s.targets.target, *s.renderer, s.ui, substitutes);
        if (outcome.ok) st.freeze.pluginRecreated();
        s.model.status = outcome.message;
        s.model.statusIsError = !outcome.ok;
        std::printf("%s\n", outcome.message.c_str());
        std::fflush(stdout);
    }
    if (st.controls.toggleShadows) switchRenderer(s, st, !st.shadows, st.clusters);
    if (st.controls.toggleClusters) switchRenderer(s, st, st.shadows, !st.clusters);
    st.changeLog.print(s.model);
}

// Paused (Space): events and keys only, no frames, until Space again or N (one frame). Returns whether
// this iteration renders.
bool pausedWait(Session& s, LoopState& st) {
    if (!st.controls.paused || !s.input) return true;
    engine::ui::OverlayActions ignored;
    (void)s.input->poll(false, false);
    st.quit = applyKeys(s.input->actions(), ignored, s.model, st.controls);
    if (st.controls.stepOnce) std::printf("step: one frame\n");
    if (!st.controls.stepOnce && !st.quit) glfwWaitEventsTimeout(0.05);
    st.last = std::chrono::steady_clock::now();  // no time passes while paused
    return st.controls.stepOnce;
}

enum class Step { Next, Stop, Fail };

// One iteration: a frame rendered, skipped (minimised), or dropped (its recording failed).
// The frame's cameras: input, the camera path, the freeze; what the pick of this frame will need.
FreezeControl::Frame frameCameras(Session& s, LoopState& st, const engine::Frame& frame, float dt) {
    const bool uiShown = s.ui && st.controls.overlayShown;
    const CameraInput in =
        s.input ? s.input->poll(uiShown && s.ui->wantsMouse(), uiShown && s.ui->wantsKeyboard()) : CameraInput{};
    const FreezeControl::Frame cull = moveCamera(s, st, in, dt, frame.extent);
    const auto& frozen = st.freeze.frozenCamera();
    const bool useFrozen = cull.freeze && frozen;
    s.lastFrame = {cull.view,
                   cull.projection,
                   useFrozen ? frozen->view : cull.view,
                   useFrozen ? frozen->projection : cull.projection,
                   frame.extent,
                   s.model.switches.toggles,
                   s.model.switches.drawDistance};
    s.lastFrame.toggles.freeze = cull.freeze;
    s.lastFrame.debugRadiusShrink = s.opt.testRadiusShrink;
    if (s.input && s.input->pickClick()) st.clicks.request(s.input->pickClick()->first, s.input->pickClick()->second);
    return cull;
}

// A failed frame is dropped (the target submits it cleared) and the next one tries again; only an error
// that repeats for a second's worth of frames ends the viewer.
Step dropFrame(Session& s, LoopState& st, const std::string& error, int& exitCode) {
    std::fprintf(stderr, "frame %llu failed, dropped: %s\n", static_cast<unsigned long long>(st.counters.rendered),
                 error.c_str());
    if (auto r = s.targets.target->abandonFrame(); !r) return exitCode = fail(r.error().message), Step::Fail;
    if (++st.failedInARow >= 60) return exitCode = fail("60 frames in a row failed: " + error), Step::Fail;
    ++st.counters.rendered;
    return Step::Next;
}

// The screenshots asked for: --screenshot's in a window (one frame after the last), P's / the button's.
void requestScreenshots(Session& s, LoopState& st, const engine::Frame& frame, bool windowShot, bool screenshot) {
    if (windowShot) {
        s.targets.target->requestScreenshot(s.opt.screenshot);
        st.shotRequested = true;
    }
    if (!screenshot) return;
    const std::string path = "sieve-screenshot-" + std::to_string(frame.info.frameIndex) + ".png";
    s.targets.target->requestScreenshot(path);
    s.model.status = "screenshot: " + path + " (written when the frame completes)";
    s.model.statusIsError = false;
    std::printf("%s\n", s.model.status.c_str());
}

// Starts a RenderDoc capture where one was asked for, then the target's frame.
sieve::Result<engine::Frame> beginFrame(Session& s, LoopState& st) {
    if ((int64_t(st.counters.rendered) == s.opt.captureFrame || st.captureNext) && !st.capturing &&
        s.renderdoc.available()) {
        s.renderdoc.startCapture(s.ctx.instance());
        st.capturing = true;
        st.captureNext = false;
    }
    auto frame = s.targets.target->beginFrame();
    if (frame && s.targets.window && s.targets.window->iconified() != st.iconified) {
        st.iconified = s.targets.window->iconified();
        std::printf(st.iconified ? "window iconified: waiting for events, no frames\n" : "window restored\n");
        std::fflush(stdout);
    }
    return frame;
}

// One iteration: a frame rendered, skipped (minimised), or dropped (its recording failed).
Step iterate(Session& s, LoopState& st, int& exitCode) {
    const ViewerOptions& opt = s.opt;
    const bool sequenceDone = !s.resizes || s.resizes->done();
    // A window screenshot is taken by one extra frame after the last, so that it shows the final size.
    const bool windowShot = s.window && !opt.screenshot.empty();
    const bool allRendered = opt.frames > 0 && st.counters.rendered >= uint64_t(opt.frames) && sequenceDone;
    if (allRendered && (!windowShot || st.shotRequested)) return Step::Stop;
    const auto now = std::chrono::steady_clock::now();
    const float dt = std::chrono::duration<float>(now - st.last).count();
    st.last = now;
    auto frame = beginFrame(s, st);
    if (!frame) return exitCode = fail(frame.error().message), Step::Fail;
    if (frame->skipped) {  // minimized or out of date: nothing was acquired
        ++st.counters.skipped;
        return Step::Next;
    }
    const uint32_t slot = frame->info.frameSlot;
    FrameCollector(s.overlayTimer, s.frameTimer, *s.renderer, s.model).collect(slot);
    st.clicks.collected(slot, s.renderer->pickReadback(), s.scene, s.model);
    s.frameTimer.begin(frame->cmd, slot);
    s.model.frameMs.add(dt * 1000.0f);
    s.model.width = frame->extent.width;
    s.model.height = frame->extent.height;
    const FreezeControl::Frame cull = frameCameras(s, st, *frame, dt);
    armReadback(s, st);
    if (auto recorded = recordScene(s, *frame, cull, st.counters.rendered); !recorded)
        return dropFrame(s, st, recorded.error().message, exitCode);
    st.failedInARow = 0;
    st.clicks.recorded(slot, s.lastFrame);
    auto actions = drawOverlay(s, st, *frame, dt);
    if (!actions) return exitCode = fail(actions.error().message), Step::Fail;
    requestScreenshots(s, st, *frame, windowShot && allRendered, actions->screenshot);
    s.frameTimer.end(frame->cmd, slot);
    if (auto r = s.targets.target->endFrame(); !r) return exitCode = fail(r.error().message), Step::Fail;
    ++st.counters.rendered;
    if (opt.reportMemory > 0 && st.counters.rendered % uint64_t(opt.reportMemory) == 0)
        printMemoryReport(st.counters.rendered, s.ctx);
    afterFrame(s, st, *actions);
    return Step::Next;
}

}  // namespace

int runFrames(Session& s, RunCounters& counters) {
    LoopState st{
        counters,      {}, {}, ChangeLog(s.model), ClickPick(s.targets.target->framesInFlight()), s.opt.shadows,
        s.opt.clusters};
    int exitCode = 0;
    while (true) {
        if (s.window) {
            s.window->pollEvents();
            if (s.window->shouldClose()) break;
            if (s.resizes) s.resizes->tick();
        }
        if (!pausedWait(s, st) && !st.quit) continue;
        if (!st.quit) {
            const Step step = iterate(s, st, exitCode);
            if (step == Step::Fail) return exitCode;
            if (step == Step::Stop) break;
        }
        if (st.quit) {
            std::printf("Escape: quitting\n");
            break;
        }
    }
    return 0;
}

}  // namespace viewer
