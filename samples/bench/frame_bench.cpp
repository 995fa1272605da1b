// sieve-bench frame: whole frames of the default scene (the city, street camera) through SceneRenderer,
// culling on (every stage) against culling off (every toggle off: the same path draws all instances),
// measured in the same run. Frame time = the sum of the graph's per-pass GPU times (timestamps around
// every pass), median over frames. One JSON line per mode; the "off" line carries the ratio.
#include <cstdio>

#include "bench_util.h"
#include "scene_harness.h"
#include "subcommands.h"

namespace bench {
namespace {

constexpr const char* kName = "frame";

constexpr const char* kDescription =
    "GPU frame time of the city at N instances (default 1e6) at WxH (default 1920x1080), culling on and off.\n"
    "--verify: off draws every instance's primitives, on draws fewer, no overflow.";

void setAll(sieve::CullingToggles& t, bool on) {
    t.frustum = t.distance = t.occlusion = t.twoPhase = t.lod = on;
}

}  // namespace

int frameMain(int argc, char** argv) {
    uint64_t n = 1000000;
    CityOptions o;
    o.frames = 50;
    o.warmup = 10;
    cli::Parser p = subcommandParser(kName, kDescription);
    p.count("--n", "N", "instances of the city (default 1e6)", n, 1, sieve::assets::kMaxCityInstances);
    addCityOptions(p, o, 100000, "check the draws (see above); exit 1 on a mismatch");
    if (auto exit = p.run(argc, argv, 1)) return *exit;
    const VkExtent2D extent = o.extent();
    const bool verify = o.verify;
    const JsonSink sink(o.out);

    auto ctxR = makeContext();
    if (!ctxR) return fail(kName, ctxR.error().message);
    engine::Context& ctx = *ctxR.value();
    auto harnessR = SceneHarness::createCity(ctx, n, uint32_t(o.seed), extent);
    if (!harnessR) return fail(kName, harnessR.error().message);
    SceneHarness& h = *harnessR.value();
    const uint64_t allDraws = h.scene().stats().instancedDraws;

    double onUs = 0;
    uint32_t onDraws = 0;
    bool ok = true;
    for (const bool on : {true, false}) {
        setAll(h.renderer().plugin().toggles(), on);
        auto run = h.run(o.warmup, o.frames);
        if (!run) return fail(kName, run.error().message);
        Json line;
        line.str("scenario", kName)
            .integer("n", n)
            .integer("width", extent.width)
            .integer("height", extent.height)
            .str("culling", on ? "on" : "off")
            .integer("all_draws", allDraws);
        addRun(line, *run);
        const double us = stat(run->frameUs).median;
        if (on) {
            onUs = us;
            onDraws = run->stats.draws();
        } else {
            line.num("speedup", onUs > 0 ? us / onUs : 0);
        }
        if (verify) {
            std::string why;
            const sieve::CullingStats& s = run->stats;
            if (!s.valid)
                why = "no counts read back";
            else if (s.overflow())
                why = "draw list overflow";
            else if (!on && s.draws() != allDraws)
                why = "culling off drew " + std::to_string(s.draws()) + " of " + std::to_string(allDraws) + " draws";
            else if (!on && onDraws >= s.draws())
                why = "culling on drew no fewer draws than off";
            else if (on && s.draws() == 0)
                why = "nothing drawn";
            line.boolean("verified", why.empty());
            if (!why.empty()) {
                std::fprintf(stderr, "sieve-bench frame: culling %s: %s\n", on ? "on" : "off", why.c_str());
                ok = false;
            }
        }
        describe(ctx, line);
        if (!sink.write(line)) return fail(kName, "cannot write the output file");
    }
    return ok ? 0 : 1;
}

}  // namespace bench
