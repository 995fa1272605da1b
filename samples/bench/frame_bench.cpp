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

void usage() {
    std::printf(
        "usage: sieve-bench frame [--n N] [--width W] [--height H] [--frames F] [--warmup W] [--seed S] [--verify]\n"
        "                         [--out FILE]\n"
        "GPU frame time of the city at N instances (default 1e6) at WxH (default 1920x1080), culling on and off.\n"
        "--verify: off draws every instance's primitives, on draws fewer, no overflow.\n");
}

void setAll(sieve::CullingToggles& t, bool on) {
    t.frustum = t.occlusion = t.twoPhase = t.lod = on;
    t.stable = true;
}

}  // namespace

int frameMain(int argc, char** argv) {
    auto opt =
        Options::parse(argc, argv, {"n", "width", "height", "frames", "warmup", "seed", "out"}, {"verify", "help"});
    if (!opt) return fail(kName, opt.error().message);
    if (opt->flag("help")) {
        usage();
        return 0;
    }
    auto n = opt->u64("n", 1000000);
    auto width = opt->u64("width", 1920), height = opt->u64("height", 1080);
    auto frames = opt->u64("frames", 50), warmup = opt->u64("warmup", 10), seed = opt->u64("seed", 1);
    if (!n || !width || !height || !frames || !warmup || !seed || *n == 0 || *n > sieve::assets::kMaxCityInstances ||
        *width == 0 || *height == 0 || *width > 16384 || *height > 16384 || *frames == 0 || *frames > 100000 ||
        *warmup > 100000)
        return fail(kName, "bad --n/--width/--height/--frames/--warmup/--seed");
    const VkExtent2D extent{uint32_t(*width), uint32_t(*height)};
    const bool verify = opt->flag("verify");
    const JsonSink sink(opt->str("out", ""));

    auto ctxR = makeContext();
    if (!ctxR) return fail(kName, ctxR.error().message);
    engine::Context& ctx = *ctxR.value();
    auto city = buildCity(*n, uint32_t(*seed));
    if (!city) return fail(kName, city.error().message);
    const uint64_t allDraws = city->stats().instancedDraws;
    auto harnessR = SceneHarness::create(ctx, std::move(city).value(), extent);
    if (!harnessR) return fail(kName, harnessR.error().message);
    SceneHarness& h = *harnessR.value();

    double onUs = 0;
    uint32_t onDraws = 0;
    bool ok = true;
    for (const bool on : {true, false}) {
        setAll(h.renderer().plugin().toggles(), on);
        auto run = h.run(uint32_t(*warmup), uint32_t(*frames));
        if (!run) return fail(kName, run.error().message);
        Json line;
        line.str("scenario", kName)
            .integer("n", *n)
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
