// sieve-bench cull: the culling pipeline pass by pass (early flag, early scan+compact, Hi-Z pyramid, late
// flag, late scan+compact, stats) on the city at several instance counts, rendered headless through
// SceneRenderer so that the pyramid is built from the depth of real draws. At every N the stable
// (instance-ordered) draw lists and the atomic-append peer are measured in the same run; the geometry
// passes are reported separately. One JSON line per (N, order).
#include <cstdio>
#include <string>

#include "bench_util.h"
#include "scene_harness.h"
#include "sieve/culling_tuning.h"
#include "sieve/hiz.h"
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

// Fewest bytes each culling pass moves (DRAM, 32-byte sectors), from the shaders' accesses:
// - flag passes read the sphere of an instance (16 bytes at offset 48 of the 80-byte record: one 32-byte
//   sector) only where they need it: early reads visibleLast (4) of every instance and the sphere of the
//   instances visible last frame; late reads every sphere and flagsEarly (4) of the visible ones. Both
//   write flags, drawCounts, lods (12) and late visibleLast (4); mesh and LOD data are read only for
//   flagged instances (one more sector each; the mesh and primitive tables are small and cached).
// - stable compaction: the scan reads drawCounts and writes offsets (8 per instance); the expansion reads
//   drawCounts (4 per instance) and, per flagged instance, offsets + lods (8) and its instance's mesh
//   field (one 32-byte sector), and writes 32 bytes per draw. The atomic peer has no scan and no offsets.
// - Hi-Z: the depth read once (4 per pixel) and every mip written once (8 per texel).
struct PassBytes {
    double earlyFlag, earlyCompact, hiz, lateFlag, lateCompact;
};
PassBytes passBytes(uint64_t n, const sieve::CullingStats& s, bool stable, VkExtent2D extent) {
    PassBytes b{};
    const double N = double(n);
    b.earlyFlag = N * (4 + 12) + double(s.earlyDrawn) * (32 + 32);
    b.lateFlag = N * (32 + 4 + 12) + double(s.lateVisible) * 32 + double(s.lateDrawn) * 32;
    auto compact = [&](double flagged, double draws) {
        return stable ? N * (8 + 4) + flagged * (8 + 32) + draws * 32 : N * 4 + flagged * (4 + 32) + draws * 32;
    };
    b.earlyCompact = compact(s.earlyDrawn, s.early.count);
    b.lateCompact = compact(s.lateDrawn, s.late.count);
    const VkExtent2D base = sieve::HiZBuilder::pyramidExtent(extent);
    double pyramid = 0;
    for (uint32_t m = 0; m < sieve::HiZBuilder::mipCount(base); ++m) {
        const VkExtent2D e = sieve::HiZBuilder::mipExtent(base, m);
        pyramid += double(e.width) * e.height * 8;
    }
    b.hiz = double(extent.width) * extent.height * 4 + pyramid;
    return b;
}

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
    p.count("--warmup-ms", "MS", "rendering right before each timed run, after which the warm-up frames (default 500)",
            warmupMs, 0, 60000);
    if (auto exit = p.run(argc, argv, 1)) return *exit;
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
        auto city = buildCity(n, uint32_t(o.seed));
        if (!city) return fail(kName, city.error().message);
        auto harnessR = SceneHarness::create(ctx, std::move(city).value(), extent);
        if (!harnessR) return fail(kName, harnessR.error().message);
        SceneHarness& h = *harnessR.value();
        h.renderer().setDrawDistance(o.drawDistance);
        const uint64_t cpuFrustum = verify ? frustumReferenceCount(h.scene(), h.view(), h.proj(), o.drawDistance) : 0;
        uint32_t drawsStable = 0;
        for (const bool stable : {true, false}) {
            sieve::tuning(h.renderer().plugin()).stable = stable;
            auto run = h.runWarm(warmupMs, o.warmup, o.frames);
            if (!run) return fail(kName, run.error().message);
            const sieve::CullingStats& s = run->stats;
            Json line;
            line.str("scenario", kName)
                .integer("n", n)
                .integer("width", extent.width)
                .integer("height", extent.height)
                .str("order", stable ? "stable" : "atomic")
                .num("draw_distance", o.drawDistance);
            addRun(line, *run);
            const PassBytes b = passBytes(n, s, stable, extent);
            Json bytes, bound;
            const std::pair<const char*, double> entries[] = {{"cull.early.flag", b.earlyFlag},
                                                              {"cull.early.compact", b.earlyCompact},
                                                              {"hiz.build", b.hiz},
                                                              {"cull.late.flag", b.lateFlag},
                                                              {"cull.late.compact", b.lateCompact}};
            double totalBytes = 0;
            for (const auto& [name, v] : entries) {
                bytes.num(name, v);
                bound.num(name, boundUs(*peers, v));
                totalBytes += v;
            }
            line.obj("bytes", bytes).obj("bound_us", bound).num("cull_bound_us", boundUs(*peers, totalBytes));
            addPeers(line, *peers);
            if (verify) {
                std::string why;
                if (!s.valid)
                    why = "no counts read back";
                else if (s.frustumVisible != cpuFrustum)
                    why = "GPU frustum count " + std::to_string(s.frustumVisible) + " != CPU reference " +
                          std::to_string(cpuFrustum);
                else if (s.overflow())
                    why = "draw list overflow";
                else if (s.draws() == 0)
                    why = "nothing drawn";
                else if (s.earlyDrawn + s.lateDrawn >= n && n >= 100)
                    why = "nothing culled";
                else if (!stable && s.draws() != drawsStable)
                    why = "atomic order drew " + std::to_string(s.draws()) + " draws, stable " +
                          std::to_string(drawsStable);
                line.boolean("verified", why.empty()).integer("cpu_frustum_visible", cpuFrustum);
                if (!why.empty()) {
                    std::fprintf(stderr, "sieve-bench cull: n=%llu %s: %s\n", (unsigned long long)n,
                                 stable ? "stable" : "atomic", why.c_str());
                    allOk = false;
                }
            }
            if (stable) drawsStable = s.draws();
            describe(ctx, line);
            if (!sink.write(line)) return fail(kName, "cannot write the output file");
        }
    }
    return allOk ? 0 : 1;
}

}  // namespace bench
