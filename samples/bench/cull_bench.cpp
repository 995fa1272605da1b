// sieve-bench cull: the culling pipeline pass by pass (early flag, early scan+compact, Hi-Z pyramid, late
// flag, late scan+compact, stats) on the city at several instance counts, rendered headless through
// SceneRenderer so that the pyramid is built from the depth of real draws. At every N the stable
// (instance-ordered) draw lists and the atomic-append peer are measured in the same run; the geometry
// passes are reported separately. One JSON line per (N, order).
#include <string>

#include "bench_util.h"
#include "cull_lines.h"
#include "scene_harness.h"
#include "subcommands.h"

namespace bench {
namespace {

constexpr const char* kName = "cull";

constexpr const char* kDescription =
    "The city (assets::makeCity) at each N (default 1e4,1e5,1e6,1e7) at WxH (default 1920x1080), culled and\n"
    "drawn by SceneRenderer; per-pass GPU times (median of F frames after W warm-up frames), stable and\n"
    "atomic-append draw lists. Every line carries the copy-bandwidth and zero-work-dispatch peers and each\n"
    "pass's fewest bytes moved. --verify checks the counts: GPU frustum count = CPU reference, same number\n"
    "of draws in both orders, no overflow, something culled.";

}  // namespace

int cullMain(int argc, char** argv) {
    std::vector<uint64_t> sizes{10000, 100000, 1000000, 10000000};
    uint32_t warmupMs = 500;
    CityOptions o;
    o.frames = 100;
    o.warmup = 20;
    cli::Parser p = subcommandParser(kName, kDescription);
    addCitySizes(p, sizes);
    addCityOptions(p, o, 100000, "check the counts (see above); exit 1 on a mismatch");
    addInstancePassOptions(p, o);
    p.count("--warmup-ms", "MS", "rendering right before each timed run, after which the warm-up frames (default 500)",
            warmupMs, 0, 60000);
    if (auto exit = p.run(argc, argv, 1)) return *exit;
    if (const std::string why = checkCityOptions(o); !why.empty()) return fail(kName, why);
    const VkExtent2D extent = o.extent();
    const bool verify = o.verify;
    const JsonSink sink(o.out);

    auto ctxR = makeContext();
    if (!ctxR) return fail(kName, ctxR.error().message);
    engine::Context& ctx = *ctxR.value();
    auto peers = measurePeers(ctx, peakCopyBytes(ctx), 50);
    if (!peers) return fail(kName, peers.error().message);

    bool allOk = true;
    for (uint64_t n : sizes) {
        auto harnessR = SceneHarness::createCity(
            ctx, n, uint32_t(o.seed), extent,
            {.instanceState = o.instanceState, .lateSplit = lateSplitOf(o), .drawMarks = drawMarksOf(o)});
        if (!harnessR) return fail(kName, harnessR.error().message);
        SceneHarness& h = *harnessR.value();
        CullLines lines;
        lines.scenario = kName;
        lines.n = n;
        lines.warmupMs = warmupMs;
        lines.warmup = o.warmup;
        lines.frames = o.frames;
        lines.verify = verify;
        h.renderer().setDrawDistance(o.drawDistance);
        h.setTurn(o.turn);
        lines.cpuFrustum = verify ? frustumReferenceCount(h.scene(), h.view(), h.proj(), o.drawDistance) : 0;
        lines.fields = [&](Json& j) {
            j.num("draw_distance", o.drawDistance)
                .num("turn_deg_per_frame", o.turn)
                .boolean("instance_state", o.instanceState)
                .str("late_split", o.lateSplit)
                .str("draw_marks", o.drawMarks);
        };
        auto ok = writeCullLines(ctx, h, *peers, lines, sink);
        if (!ok) return fail(kName, ok.error().message);
        allOk = allOk && ok.value();
    }
    return allOk ? 0 : 1;
}

}  // namespace bench
