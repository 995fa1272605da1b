// sieve-viewer: the viewer shell. Parses options, loads RenderDoc (before the Vulkan instance), opens a
// window (or falls back to headless), makes the scene, its renderer and the overlay, and runs the frame
// loop (frame_loop.h). After the last frame it writes the screenshot and the stats JSON.
#include <volk.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "camera_setup.h"
#include "cluster_setup.h"
#include "frame_loop.h"
#include "memory_report.h"
#include "renderer_maker.h"
#include "run_report.h"
#include "scene_setup.h"

namespace {

int fail(const std::string& message) {
    std::fprintf(stderr, "sieve-viewer: %s\n", message.c_str());
    return 1;
}

// RenderDoc first: its Vulkan layer only hooks instances created after it is loaded. Loading it changes
// the Vulkan stack, so it is loaded only when a capture was asked for; an injected RenderDoc (renderdoccmd
// / qrenderdoc) is always used.
std::unique_ptr<engine::RenderDoc> loadRenderDoc(const viewer::ViewerOptions& opt) {
    const bool wantCapture = opt.captureFrame >= 0 || !opt.captureFile.empty();
    auto renderdoc = engine::RenderDoc::create(wantCapture ? engine::RenderDoc::Load::InjectedOrLoad
                                                           : engine::RenderDoc::Load::IfInjected);
    if (wantCapture || renderdoc->available()) std::printf("RenderDoc: %s\n", renderdoc->message().c_str());
    if (!opt.captureFile.empty()) renderdoc->setCaptureFilePathTemplate(opt.captureFile);
    return renderdoc;
}

sieve::Result<std::unique_ptr<engine::Context>> createContext(const viewer::ViewerOptions& opt,
                                                              engine::GlfwWindow* window, bool renderdocLoaded) {
    engine::ContextDesc desc;
    desc.appName = "sieve-viewer";
    desc.validation = opt.validation;
    if (window) {
        desc.instanceExtensions = window->requiredInstanceExtensions();
        desc.swapchain = true;
    }
    auto ctx = engine::Context::create(desc);
    if (ctx) return ctx;
    std::string hint;
    if (renderdocLoaded)
        hint = "\nnote: RenderDoc is loaded, and its capture layer (Debian's 1.24) reports at most Vulkan 1.2";
    return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED,
                            ctx.error().message + "\nrequires " + engine::Context::requirementsText() + hint);
}

// The overlay's model at the start: the switches and views the command line set.
engine::ui::OverlayModel startModel(const viewer::ViewerOptions& opt, const std::string& deviceName,
                                    const std::string& clusterPath, bool captureAvailable, bool headless) {
    engine::ui::OverlayModel model;
    model.deviceName = deviceName;
    model.clusterPath = clusterPath;
    model.switches = {opt.culling, opt.drawDistance, opt.stableCompaction};
    model.captureAvailable = captureAvailable;
    model.hiz.show = opt.hizView;
    model.hiz.showMax = opt.hizMax;
    model.hiz.mip = opt.hizMip;
    model.debugView = opt.debugView;
    model.policy.quarter = headless;  // a screenshot's overlay covers at most a quarter of it
    return model;
}

// --test-reload-shader: the k-th substitution reloads after frame 2k+2 (sources read up front).
sieve::Result<std::vector<std::pair<uint64_t, std::map<std::string, std::string>>>> readTestReloads(
    const viewer::ViewerOptions& opt) {
    std::vector<std::pair<uint64_t, std::map<std::string, std::string>>> out;
    for (size_t k = 0; k < opt.testReloadShaders.size(); ++k) {
        auto text = engine::readTextFile(opt.testReloadShaders[k].file);
        if (!text) return text.error();
        out.push_back({2 * k + 2, {{opt.testReloadShaders[k].name, std::move(text).value()}}});
    }
    return out;
}

// --camera-path names a path this scene has (else the names it has, on stderr).
bool knownCameraPath(const viewer::ViewerOptions& opt, const viewer::LoadedScene& scene, viewer::FlyCamera& camera,
                     float aspect) {
    if (opt.cameraPath.empty() || viewer::cameraPathPose(scene, opt.cameraPath, 0.0f, camera, aspect)) return true;
    std::string names;
    for (const std::string& n : viewer::cameraPathNames(scene)) names += (names.empty() ? "" : ", ") + n;
    std::fprintf(stderr, "sieve-viewer: unknown --camera-path '%s' (this scene has: %s)\n", opt.cameraPath.c_str(),
                 names.c_str());
    return false;
}

// The start camera (said on stdout), or false for one the scene cannot give (said on stderr).
bool startCamera(viewer::FlyCamera& camera, const viewer::LoadedScene& scene, const viewer::ViewerOptions& opt,
                 float aspect) {
    auto cameraLine = viewer::setUpCamera(camera, scene, opt, aspect);
    if (!cameraLine) {
        std::fprintf(stderr, "sieve-viewer: %s\n", cameraLine.error().c_str());
        return false;
    }
    std::printf("%s\n", cameraLine->c_str());
    std::printf("uploading the scene and creating the pipelines\n");
    std::fflush(stdout);
    return true;
}

// The overlay's ImGui layer (null with --overlay off).
sieve::Result<std::unique_ptr<engine::ui::ImGuiLayer>> createOverlay(engine::Context& ctx, engine::Target& target,
                                                                     engine::GlfwWindow* window, bool overlay) {
    if (!overlay) return std::unique_ptr<engine::ui::ImGuiLayer>();
    return engine::ui::ImGuiLayer::create(
        ctx, {target.colorFormat(), target.framesInFlight(), window ? window->handle() : nullptr});
}

// Waits for the frames in flight when it goes out of scope (before what they use dies), on every path.
struct FinishGuard {
    engine::Target* target;
    ~FinishGuard() { (void)target->finish(); }
};

// What main() started: the options, RenderDoc, the window (or none), the device, the target, the overlay
// and the timers.
struct Started {
    viewer::ViewerOptions& opt;
    engine::RenderDoc& renderdoc;
    engine::GlfwWindow* window;
    engine::Context& ctx;
    viewer::Targets& targets;
    engine::ui::ImGuiLayer* ui;
    engine::GpuTimestamps& overlayTimer;
    viewer::FrameGpuTimer& frameTimer;
    bool headless;
};

// The scene, its camera and renderer, the overlay's model, then the frames and what the run writes.
int runScene(Started& b) {
    viewer::ViewerOptions& opt = b.opt;
    engine::Context& ctx = b.ctx;
    auto loaded = viewer::loadScene(opt);
    if (!loaded) return fail(loaded.error());
    viewer::FlyCamera camera;
    const float startAspect =
        float(b.targets.target->extent().width) / float(std::max(b.targets.target->extent().height, 1u));
    if (!knownCameraPath(opt, *loaded, camera, startAspect)) return 2;
    auto clusters = viewer::setupClusters(opt, loaded->data, ctx);
    if (!clusters) return fail(clusters.error());
    if (!startCamera(camera, *loaded, opt, startAspect)) return 2;
    // The renderer with every optional pass (L and K make it again, with shadows or clusters switched).
    viewer::RendererMaker maker(ctx, *b.targets.target, opt, *loaded, b.headless, b.ui != nullptr,
                                std::move(*clusters));
    auto rendererResult = maker.make(opt.shadows, opt.clusters);
    if (!rendererResult) return fail(rendererResult.error().message);
    std::unique_ptr<engine::SceneRenderer> renderer = std::move(rendererResult).value();
    const FinishGuard rendererGuard{b.targets.target.get()};  // frames in flight finish before it dies
    camera.groundY = loaded->data.boundsMin.y;
    viewer::ShaderHotReload hotReload(opt.shaderDir.empty() ? viewer::defaultShaderDir()
                                                            : std::filesystem::path(opt.shaderDir));
    std::unique_ptr<viewer::WindowInput> input;
    std::unique_ptr<viewer::ResizeSequence> resizes;
    if (b.window) {
        input = std::make_unique<viewer::WindowInput>(b.window->handle());
        if (!opt.testResizeSequence.empty())
            resizes = std::make_unique<viewer::ResizeSequence>(b.window->handle(), opt.testResizeSequence);
    }
    engine::ui::OverlayModel model = startModel(opt, b.ctx.properties().deviceName, maker.clusterPath(opt.clusters),
                                                b.renderdoc.available(), b.headless);
    model.binNames = renderer->streamNames();
    model.hiz.range = 0.1f * glm::length(loaded->data.boundsMax - loaded->data.boundsMin);  // the contrast
    viewer::DebugViewDriver debugView(0.25f * glm::length(loaded->data.boundsMax - loaded->data.boundsMin));
    viewer::CameraPathPlayer path(*loaded, {opt.cameraPath, opt.cameraPathLoop, opt.cameraPathSeconds, opt.frames});
    auto testReloads = readTestReloads(opt);
    if (!testReloads) return fail(testReloads.error().message);

    viewer::Session session{opt,
                            ctx,
                            b.renderdoc,
                            b.window,
                            b.targets,
                            b.ui,
                            b.overlayTimer,
                            b.frameTimer,
                            renderer,
                            maker,
                            camera,
                            path,
                            hotReload,
                            model,
                            debugView,
                            input.get(),
                            resizes.get(),
                            std::move(testReloads).value(),
                            loaded->data,
                            {},
                            {}};
    // A glTF scene without a chosen camera is framed in the part of the picture the overlay leaves free.
    const bool framed = b.ui && !loaded->procedural && opt.cameraFromFile < 0 && !opt.camera && opt.cameraPath.empty();
    session.framing = viewer::AutoFraming(framed, loaded->boundsMin, loaded->boundsMax);
    viewer::RunCounters counters;
    if (int code = viewer::runFrames(session, counters); code) return code;
    return viewer::finishRun(session, counters);
}

// --pick pixels inside the frame (else exit code 2).
bool picksInside(const viewer::ViewerOptions& opt) {
    for (const auto& [x, y] : opt.picks)
        if (x >= opt.width || y >= opt.height) {
            std::fprintf(stderr, "sieve-viewer: --pick %d,%d lies outside the %dx%d frame\n", x, y, opt.width,
                         opt.height);
            return false;
        }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    viewer::ViewerOptions opt;
    if (auto exit = viewer::optionParser(opt).run(argc, argv, 2)) return *exit;
    if (!picksInside(opt)) return 2;
    auto renderdoc = loadRenderDoc(opt);
    std::unique_ptr<engine::GlfwWindow> window = viewer::openWindow(opt);
    const bool headless = !window;
    if (headless) viewer::applyHeadlessOutputs(opt);
    auto ctxResult = createContext(opt, window.get(), renderdoc->available());
    if (!ctxResult) return fail(ctxResult.error().message);
    engine::Context& ctx = *ctxResult.value();
    const std::string deviceName = ctx.properties().deviceName;
    std::printf("device: %s, %s\n", deviceName.c_str(), headless ? "headless" : "window");

    auto targets = viewer::createTarget(ctx, window.get(), opt);
    if (!targets) return fail(targets.error().message);
    engine::Target& target = *targets->target;
    if (headless && opt.frames == 0) opt.frames = viewer::defaultHeadlessFrames(target.framesInFlight());
    auto uiResult = createOverlay(ctx, target, window.get(), opt.overlay);
    if (!uiResult) return fail(uiResult.error().message);
    std::unique_ptr<engine::ui::ImGuiLayer> ui = std::move(uiResult).value();
    auto timerResult = engine::GpuTimestamps::create(ctx, 1, target.framesInFlight(), "viewer overlay");
    if (!timerResult) return fail(timerResult.error().message);
    auto frameTimer = viewer::FrameGpuTimer::create(ctx, target.framesInFlight());
    if (!frameTimer) return fail(frameTimer.error().message);
    // On every exit path, frames in flight finish before the overlay's and the timer's objects die.
    const FinishGuard finishGuard{&target};

    Started started{opt, *renderdoc, window.get(), ctx, *targets, ui.get(), *timerResult, *frameTimer, headless};
    return runScene(started);
}
