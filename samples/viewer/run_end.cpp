// What a viewer run writes after its last frame (frame_loop.h finishRun): the counts still in flight, the
// picks (--pick, --test-pick-verify), the screenshot, the stats JSON and the closing lines.
#include <cstdio>

#include "engine/ui/pick_verify.h"
#include "engine/ui/stats_json.h"
#include "frame_loop.h"
#include "memory_report.h"
#include "run_report.h"

namespace viewer {

namespace {

int fail(const std::string& message) {
    std::fprintf(stderr, "sieve-viewer: %s\n", message.c_str());
    return 1;
}

// --pick and --test-pick-verify, on the last frame's readback. Returns the exit code (0: fine).
int explainPick(Session& s) {
    engine::ui::PickReadbackPass* pass = s.renderer->pickReadback();
    if (!pass || (s.opt.picks.empty() && !s.opt.testPickVerify)) return 0;
    std::optional<engine::ui::PickReadbackPass::Frame> last;
    for (uint32_t slot = 0; slot < s.targets.target->framesInFlight(); ++slot)
        if (auto f = pass->read(slot); f && (!last || f->frameIndex > last->frameIndex)) last = std::move(f);
    if (!last) return fail("--pick: no frame was read back");
    for (const auto& [x, y] : s.opt.picks) {
        auto j = pickJson(s.scene, s.lastFrame, *last, x, y);
        if (!j) return fail(j.error().message);
        std::printf("pick: %s\n", j->c_str());
    }
    if (s.opt.testPickVerify) {
        auto v = engine::ui::verifyFrame(s.scene, s.lastFrame, *last);
        if (!v) return fail(v.error().message);
        std::printf("%s\n", engine::ui::verdictSummary(*v).c_str());
        if (!v->allAgree()) return 1;
    }
    return 0;
}

}  // namespace

int finishRun(Session& s, const RunCounters& counters) {
    engine::Target& target = *s.targets.target;
    const ViewerOptions& opt = s.opt;
    const uint64_t rendered = counters.rendered;
    if (auto r = target.finish(); !r) return fail(r.error().message);
    // Every frame has completed: the last frame's times, and the counts its recording read back (for the
    // stats JSON; counts lag framesInFlight frames, so a short run has them only from here).
    // The frames in flight at the end were not collected yet: oldest first.
    FrameCollector collector(s.overlayTimer, s.frameTimer, *s.renderer, s.model);
    for (uint64_t k = target.framesInFlight(); k >= 1; --k)
        if (target.frameIndex() >= k && rendered >= k)
            collector.collect(uint32_t((target.frameIndex() - k) % target.framesInFlight()));
    if (opt.reportMemory > 0) printMemoryReport(rendered, s.ctx);
    if (int code = explainPick(s)) return code;
    if (s.targets.headless && !opt.screenshot.empty() && rendered > 0)
        if (auto r = s.targets.headless->readback(opt.screenshot); !r) return fail(r.error().message);
    if (!opt.screenshot.empty() && rendered > 0) std::printf("screenshot: %s\n", opt.screenshot.c_str());
    if (!opt.stats.empty()) {
        engine::ui::RunSummary run = runSummary(s.ctx.properties().deviceName, s.model, rendered);
        run.clusterPath = s.model.clusterPath;
        run.clusters = s.model.clusters;
        run.clusterTriangleCull = opt.clusterTriangleCull && s.model.clusterPath == "mesh";
        run.meshPrimitives = s.model.meshPrimitives;
        run.debugView = engine::ui::debugViewName(s.model.debugView);
        run.binNames = s.model.binNames;
        if (s.ui) run.overlay = s.model.layout;
        run.hizReadout = s.model.hiz.readout;
        if (auto r = engine::ui::writeStatsJson(opt.stats, s.model.counts, s.model.triangles, s.model.gpuTimes,
                                                s.model.switches.toggles, run);
            !r)
            return fail(r.error().message);
        std::printf("stats: %s\n", opt.stats.c_str());
    }
    std::printf("%s\n", closingLines(s.model, rendered, counters.skipped, target.framesInFlight()).c_str());
    if (s.targets.window) std::printf("swapchain: created %u times\n", s.targets.window->recreateCount());
    const FlyCamera& c = s.camera;
    std::printf("camera: %.3f,%.3f,%.3f,%.2f,%.2f\n", c.position.x, c.position.y, c.position.z, c.yawDeg,
                c.pitchDeg);  // the --camera format
    if (s.ctx.validationEnabled() && s.ctx.validationMessageCount())
        return fail(std::to_string(s.ctx.validationMessageCount()) + " validation message(s)");
    return 0;
}

}  // namespace viewer
