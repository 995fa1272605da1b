// sieve-viewer: the viewer shell. Parses options, loads RenderDoc (before the Vulkan instance), opens a
// window (or falls back to headless), and runs the frame loop: beginFrame -> clear -> overlay -> endFrame.
// After the last frame it writes the screenshot and the stats JSON.
#include <volk.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "assets/procedural_city.h"
#include "camera.h"
#include "camera_setup.h"
#include "cluster_setup.h"
#include "debug_view.h"
#include "engine/capture/renderdoc.h"
#include "engine/scene/scene_renderer.h"
#include "engine/target/glfw_window.h"
#include "engine/target/headless_target.h"
#include "engine/target/window_target.h"
#include "engine/ui/imgui_layer.h"
#include "engine/ui/overlay.h"
#include "engine/ui/stats_json.h"
#include "engine/vk/context.h"
#include "engine/vk/timestamps.h"
#include "key_actions.h"
#include "memory_report.h"
#include "options.h"
#include "run_report.h"
#include "scene_setup.h"
#include "shader_hot_reload.h"
#include "sieve/culling_tuning.h"
#include "window_input.h"

namespace {

int fail(const std::string& message) {
    std::fprintf(stderr, "sieve-viewer: %s\n", message.c_str());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    viewer::ViewerOptions opt;
    if (auto exit = viewer::optionParser(opt).run(argc, argv, 2)) return *exit;

    // RenderDoc first: its Vulkan layer only hooks instances created after it is loaded. Loading it
    // changes the Vulkan stack, so it is loaded only when a capture was asked for; an injected RenderDoc
    // (renderdoccmd / qrenderdoc) is always used.
    const bool wantCapture = opt.captureFrame >= 0 || !opt.captureFile.empty();
    auto renderdoc = engine::RenderDoc::create(wantCapture ? engine::RenderDoc::Load::InjectedOrLoad
                                                           : engine::RenderDoc::Load::IfInjected);
    if (wantCapture || renderdoc->available()) std::printf("RenderDoc: %s\n", renderdoc->message().c_str());
    if (!opt.captureFile.empty()) renderdoc->setCaptureFilePathTemplate(opt.captureFile);

    // A window when a display is present and GLFW works, otherwise headless.
    std::unique_ptr<engine::GlfwWindow> window;
    if (!opt.headless) {
        if (!engine::GlfwWindow::displayPresent()) {
            std::printf("no display (DISPLAY/WAYLAND_DISPLAY unset): falling back to headless\n");
        } else {
            auto w = engine::GlfwWindow::create(opt.width, opt.height, "Sieve");
            if (w)
                window = std::move(w).value();
            else
                std::printf("cannot open a window (%s): falling back to headless\n", w.error().message.c_str());
        }
    }
    const bool headless = !window;
    if (headless) viewer::applyHeadlessOutputs(opt);

    engine::ContextDesc desc;
    desc.appName = "sieve-viewer";
    desc.validation = opt.validation;
    if (window) {
        desc.instanceExtensions = window->requiredInstanceExtensions();
        desc.swapchain = true;
    }
    auto ctxResult = engine::Context::create(desc);
    if (!ctxResult) {
        std::string hint;
        if (renderdoc->available())
            hint = "\nnote: RenderDoc is loaded, and its capture layer (Debian's 1.24) reports at most Vulkan 1.2";
        return fail(ctxResult.error().message + "\nrequires " + engine::Context::requirementsText() + hint);
    }
    engine::Context& ctx = *ctxResult.value();
    const std::string deviceName = ctx.properties().deviceName;
    std::printf("device: %s, %s\n", deviceName.c_str(), headless ? "headless" : "window");

    std::unique_ptr<engine::Target> target;
    engine::HeadlessTarget* headlessTarget = nullptr;
    engine::WindowTarget* windowTarget = nullptr;
    if (headless) {
        engine::HeadlessTargetDesc hd;
        hd.extent = {uint32_t(opt.width), uint32_t(opt.height)};
        auto t = engine::HeadlessTarget::create(ctx, hd);
        if (!t) return fail(t.error().message);
        headlessTarget = t.value().get();
        target = std::move(t).value();
    } else {
        auto t = engine::WindowTarget::create(ctx, *window);
        if (!t) return fail(t.error().message);
        windowTarget = t.value().get();
        target = std::move(t).value();
    }
    if (headless && opt.frames == 0) opt.frames = viewer::defaultHeadlessFrames(target->framesInFlight());

    std::unique_ptr<engine::ui::ImGuiLayer> ui;
    if (opt.overlay) {
        auto l = engine::ui::ImGuiLayer::create(
            ctx, {target->colorFormat(), target->framesInFlight(), window ? window->handle() : nullptr});
        if (!l) return fail(l.error().message);
        ui = std::move(l).value();
    }
    auto timerResult = engine::GpuTimestamps::create(ctx, 1, target->framesInFlight(), "viewer overlay");
    if (!timerResult) return fail(timerResult.error().message);
    engine::GpuTimestamps& timer = timerResult.value();
    auto frameTimer = viewer::FrameGpuTimer::create(ctx, target->framesInFlight());
    if (!frameTimer) return fail(frameTimer.error().message);
    // On every exit path, frames in flight finish before the overlay's and the timer's objects die.
    struct FinishGuard {
        engine::Target* target;
        ~FinishGuard() { (void)target->finish(); }
    } finishGuard{target.get()};

    auto loaded = viewer::loadScene(opt);
    if (!loaded) return fail(loaded.error());
    viewer::FlyCamera camera;
    const float startAspect = float(target->extent().width) / float(std::max(target->extent().height, 1u));
    if (!opt.cameraPath.empty() && !viewer::cameraPathPose(*loaded, opt.cameraPath, 0.0f, camera, startAspect)) {
        std::string names;
        for (const std::string& n : viewer::cameraPathNames(*loaded)) names += (names.empty() ? "" : ", ") + n;
        std::fprintf(stderr, "sieve-viewer: unknown --camera-path '%s' (this scene has: %s)\n", opt.cameraPath.c_str(),
                     names.c_str());
        return 2;
    }
    auto clusters = viewer::setupClusters(opt, loaded->data, ctx);
    if (!clusters) return fail(clusters.error());
    const engine::ClusterSetup clusterSetup{*clusters ? &(*clusters)->data : nullptr,
                                            *clusters ? (*clusters)->path : engine::ClusterPath::Indirect};
    auto cameraLine = viewer::setUpCamera(camera, *loaded, opt, startAspect);
    if (!cameraLine) {
        std::fprintf(stderr, "sieve-viewer: %s\n", cameraLine.error().c_str());
        return 2;
    }
    std::printf("%s\n", cameraLine->c_str());
    std::printf("uploading the scene and creating the pipelines\n");
    std::fflush(stdout);
    engine::SceneRendererOptions ro;
    ro.framesInFlight = target->framesInFlight();
    ro.shadowCascades = opt.shadowCascades();
    ro.clusters = *clusters ? &clusterSetup : nullptr;
    // With clusters too the scene's materials: both cluster paths shade as the instance draws do.
    ro.materials = true;
    auto rendererResult = engine::SceneRenderer::create(ctx, loaded->data, target->colorFormat(), target->extent(), ro);
    if (!rendererResult) return fail(rendererResult.error().message);
    engine::SceneRenderer& renderer = *rendererResult.value();
    if (renderer.clusterPlugin()) renderer.clusterPlugin()->toggles().cone = opt.clusterCone;
    if (headless && !*clusters && viewer::checkTrianglesFits(renderer.cameraDrawCapacity(), target->framesInFlight()))
        if (auto r = renderer.checkTriangles(true); !r)
            std::printf("triangles unchecked: %s\n", r.error().message.c_str());
    camera.groundY = loaded->data.boundsMin.y;
    if (ui)
        if (auto r = renderer.enableHiZView(); !r) return fail(r.error().message);
    if (ui || opt.debugView != engine::ui::DebugView::Off)
        if (auto r = renderer.enableCullDebug(); !r) return fail(r.error().message);
    if (std::getenv("SIEVE_DUMP_GRAPH")) std::printf("%s\n", renderer.graphDump().c_str());
    viewer::ShaderHotReload hotReload(opt.shaderDir.empty() ? viewer::defaultShaderDir()
                                                            : std::filesystem::path(opt.shaderDir));

    std::unique_ptr<viewer::WindowInput> input;
    std::unique_ptr<viewer::ResizeSequence> resizes;
    if (window) {
        input = std::make_unique<viewer::WindowInput>(window->handle());
        if (!opt.testResizeSequence.empty())
            resizes = std::make_unique<viewer::ResizeSequence>(window->handle(), opt.testResizeSequence);
    }

    engine::ui::OverlayModel model;
    model.deviceName = deviceName;
    if (*clusters) model.clusterPath = engine::clusterPathName((*clusters)->path);
    model.switches = {opt.culling, opt.drawDistance, opt.stableCompaction};
    model.captureAvailable = renderdoc->available();
    model.hiz.show = opt.hizView;
    model.hiz.showMax = opt.hizMax;
    model.hiz.mip = opt.hizMip;
    model.debugView = opt.debugView;
    model.policy.quarter = headless;  // a screenshot's overlay covers at most a quarter of it
    viewer::ChangeLog changeLog(model);
    viewer::DebugViewDriver debugView(0.25f * glm::length(loaded->data.boundsMax - loaded->data.boundsMin));
    // --test-reload-shader: the k-th substitution reloads after frame 2k+2 (sources read up front).
    std::vector<std::pair<uint64_t, std::map<std::string, std::string>>> testReloads;
    for (size_t k = 0; k < opt.testReloadShaders.size(); ++k) {
        auto text = engine::readTextFile(opt.testReloadShaders[k].file);
        if (!text) return fail(text.error().message);
        testReloads.push_back({2 * k + 2, {{opt.testReloadShaders[k].name, std::move(text).value()}}});
    }

    // GPU times and culling counts of a frame slot whose fence has been waited for.
    auto collectFrame = [&](uint32_t slot) {
        if (auto overlay = timer.read(slot))
            for (const engine::GpuTimestamps::Scope& t : overlay.value()) model.gpuTimes.add(t.name, float(t.ms));
        std::vector<engine::graph::PassTiming> passTimes;
        engine::FrameCounts counts;
        renderer.collect(slot, passTimes, counts);
        for (const auto& t : passTimes) model.gpuTimes.add(t.name, float(t.ms));
        frameTimer->collect(slot, model.gpuFrameMs);
        const sieve::CullingStats& c = counts.cull;
        model.counts = c;
        model.triangles = counts.triangles;
        model.clusters = counts.clusters;
        model.trianglesSource = counts.trianglesSource;
        model.trianglesQuery = counts.trianglesQuery;
        if (std::getenv("SIEVE_DEBUG_COUNTS") && c.valid)
            std::printf("frame %llu: fr %u eD %u lV %u lD %u early %u/%u/%u late %u/%u/%u\n",
                        (unsigned long long)c.frame, c.frustumVisible, c.earlyDrawn, c.lateVisible, c.lateDrawn,
                        c.early.count, c.early.total, c.early.overflow, c.late.count, c.late.total, c.late.overflow);
    };

    uint64_t rendered = 0, skipped = 0, failedInARow = 0;
    bool captureNext = false, capturing = false, shotRequested = false, quit = false, iconified = false;
    auto last = std::chrono::steady_clock::now();
    while (true) {
        if (window) {
            window->pollEvents();
            if (window->shouldClose()) break;
            if (resizes) resizes->tick();
        }
        const bool sequenceDone = !resizes || resizes->done();
        // A window screenshot is taken by one extra frame after the last, so that it shows the final size.
        const bool windowShot = window && !opt.screenshot.empty();
        if (opt.frames > 0 && rendered >= uint64_t(opt.frames) && sequenceDone && (!windowShot || shotRequested)) break;
        const bool takeShot = windowShot && opt.frames > 0 && rendered >= uint64_t(opt.frames) && sequenceDone;

        const auto now = std::chrono::steady_clock::now();
        const float dt = std::chrono::duration<float>(now - last).count();
        last = now;

        if ((int64_t(rendered) == opt.captureFrame || captureNext) && !capturing && renderdoc->available()) {
            renderdoc->startCapture(ctx.instance());
            capturing = true;
            captureNext = false;
        }
        auto frame = target->beginFrame();
        if (!frame) return fail(frame.error().message);
        if (windowTarget && windowTarget->iconified() != iconified) {
            iconified = windowTarget->iconified();
            std::printf(iconified ? "window iconified: waiting for events, no frames\n" : "window restored\n");
            std::fflush(stdout);
        }
        if (frame->skipped) {  // minimized or out of date: nothing was acquired
            ++skipped;
            continue;
        }
        const uint32_t slot = frame->info.frameSlot;
        collectFrame(slot);
        frameTimer->begin(frame->cmd, slot);
        model.frameMs.add(dt * 1000.0f);
        model.width = frame->extent.width;
        model.height = frame->extent.height;

        if (input) camera.update(input->poll(ui && ui->wantsMouse(), ui && ui->wantsKeyboard()), dt);

        if (!opt.cameraPath.empty()) {
            // Repeatable runs: position along the path by frame number (headless) or time (window).
            const float t =
                opt.frames > 1 ? float(rendered) / float(opt.frames - 1) : float(std::fmod(glfwGetTime() / 30.0, 1.0));
            const float aspect = float(frame->extent.width) / float(std::max(frame->extent.height, 1u));
            if (auto pose = viewer::cameraPathPose(*loaded, opt.cameraPath, t, camera, aspect)) camera.setPose(*pose);
        }
        renderer.plugin().toggles() = model.switches.toggles;
        renderer.setDrawDistance(model.switches.drawDistance);
        sieve::tuning(renderer.plugin()).stable = model.switches.stable;
        renderer.plugin().toggles().freeze &= rendered > 0;  // frozen at the start camera: culled once first
        engine::ui::HiZViewPass* hizView = renderer.hizView();
        if (hizView) hizView->select(model.hiz.show, model.hiz.showMax, model.hiz.mip);
        const float aspect = float(frame->extent.width) / float(std::max(frame->extent.height, 1u));
        debugView.apply(model.debugView, renderer.plugin().toggles(), camera.view(), camera.projection(aspect),
                        renderer);
        auto recorded = renderer.record(*target, *frame, camera.view(), camera.projection(aspect));
        for (const viewer::ViewerOptions::TestAction& a : opt.testActions)
            if (a.name == "fail" && uint64_t(a.frame) == rendered && recorded)
                recorded = sieve::makeError(VK_ERROR_UNKNOWN,
                                            "test-actions: an error forced in frame " + std::to_string(rendered));
        if (!recorded) {
            // A failed frame is dropped (the target submits it cleared) and the next one tries again; only
            // an error that repeats for a second's worth of frames ends the viewer.
            std::fprintf(stderr, "frame %llu failed, dropped: %s\n", static_cast<unsigned long long>(rendered),
                         recorded.error().message.c_str());
            if (auto r = target->abandonFrame(); !r) return fail(r.error().message);
            if (++failedInARow >= 60) return fail("60 frames in a row failed: " + recorded.error().message);
            ++rendered;
            continue;
        }
        failedInARow = 0;
        if (hizView) {  // after record: a viewport change rebuilds the view's image
            model.hiz.mipCount = int(hizView->mipCount());
            model.hiz.width = hizView->pyramidExtent().width;
            model.hiz.height = hizView->pyramidExtent().height;
            model.hiz.texture = reinterpret_cast<void*>(hizView->texture());
        }

        engine::ui::OverlayActions actions;
        if (ui) {
            actions = engine::ui::newOverlayFrame(*ui, model, frame->extent, dt);
            timer.reset(frame->cmd, slot);
            timer.begin(frame->cmd, "overlay", slot);
            auto r = ui->render(frame->cmd, frame->colorView, frame->extent, slot);
            timer.end(frame->cmd, slot);
            if (!r) return fail(r.error().message);
        }
        if (takeShot) {
            target->requestScreenshot(opt.screenshot);
            shotRequested = true;
        }
        if (input) quit = viewer::applyKeys(input->actions(), actions, model);
        for (const viewer::ViewerOptions::TestAction& a : opt.testActions) {
            if (uint64_t(a.frame) != rendered) continue;
            std::printf("test-actions: %s in frame %d\n", a.name.c_str(), a.frame);
            actions.screenshot |= a.name == "screenshot";
            actions.capture |= a.name == "capture" && model.captureAvailable;
            actions.reloadShaders |= a.name == "reload";
        }
        if (actions.screenshot) {
            const std::string path = "sieve-screenshot-" + std::to_string(frame->info.frameIndex) + ".png";
            target->requestScreenshot(path);
            model.status = "screenshot: " + path + " (written when the frame completes)";
            model.statusIsError = false;
            std::printf("%s\n", model.status.c_str());
        }
        frameTimer->end(frame->cmd, slot);
        if (auto r = target->endFrame(); !r) return fail(r.error().message);
        ++rendered;
        if (opt.reportMemory > 0 && rendered % uint64_t(opt.reportMemory) == 0)
            viewer::printMemoryReport(rendered, ctx);

        if (capturing) {
            const bool ok = renderdoc->endCapture(ctx.instance());
            capturing = false;
            const uint32_t n = renderdoc->captureCount();
            const std::string path = n ? renderdoc->capturePath(n - 1) : "";
            model.status = ok ? "RenderDoc capture: " + path : "RenderDoc capture failed";
            model.statusIsError = !ok;
            std::printf("%s\n", model.status.c_str());
        }
        if (actions.capture) captureNext = true;
        std::map<std::string, std::string> substitutes;
        for (auto& [after, subs] : testReloads)
            if (after == rendered) {
                actions.reloadShaders = true;
                substitutes = subs;
            }
        if (actions.reloadShaders) {
            const viewer::ReloadOutcome outcome = hotReload.run(*target, renderer, ui.get(), substitutes);
            model.status = outcome.message;
            model.statusIsError = !outcome.ok;
            std::printf("%s\n", outcome.message.c_str());
            std::fflush(stdout);
        }
        changeLog.print(model);
        if (quit) {
            std::printf("Escape: quitting\n");
            break;
        }
    }

    if (auto r = target->finish(); !r) return fail(r.error().message);
    // Every frame has completed: the last frame's times, and the counts its recording read back (for the
    // stats JSON; counts lag framesInFlight frames, so a short run has them only from here).
    // The frames in flight at the end were not collected yet: oldest first.
    for (uint64_t k = target->framesInFlight(); k >= 1; --k)
        if (target->frameIndex() >= k && rendered >= k)
            collectFrame(uint32_t((target->frameIndex() - k) % target->framesInFlight()));
    if (opt.reportMemory > 0) viewer::printMemoryReport(rendered, ctx);
    if (headlessTarget && !opt.screenshot.empty() && rendered > 0) {
        if (auto r = headlessTarget->readback(opt.screenshot); !r) return fail(r.error().message);
    }
    if (!opt.screenshot.empty() && rendered > 0) std::printf("screenshot: %s\n", opt.screenshot.c_str());
    if (!opt.stats.empty()) {
        engine::ui::RunSummary run = viewer::runSummary(deviceName, model, rendered);
        run.clusterPath = model.clusterPath;
        run.clusters = model.clusters;
        run.debugView = engine::ui::debugViewName(model.debugView);
        run.binNames = renderer.streamNames();
        if (ui) run.overlay = model.layout;
        if (auto r = engine::ui::writeStatsJson(opt.stats, model.counts, model.triangles, model.gpuTimes,
                                                model.switches.toggles, run);
            !r)
            return fail(r.error().message);
        std::printf("stats: %s\n", opt.stats.c_str());
    }
    std::printf("%s\n", viewer::closingLines(model, rendered, skipped, target->framesInFlight()).c_str());
    if (windowTarget) std::printf("swapchain: created %u times\n", windowTarget->recreateCount());
    std::printf("camera: %.3f,%.3f,%.3f,%.2f,%.2f\n", camera.position.x, camera.position.y, camera.position.z,
                camera.yawDeg, camera.pitchDeg);  // the --camera format
    if (ctx.validationEnabled() && ctx.validationMessageCount())
        return fail(std::to_string(ctx.validationMessageCount()) + " validation message(s)");
    return 0;
}
