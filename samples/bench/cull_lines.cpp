#include "cull_lines.h"

#include <cstdio>
#include <string>

#include "sieve/culling_tuning.h"
#include "sieve/hiz.h"

namespace bench {
namespace {

// Fewest bytes each culling pass moves (DRAM, 32-byte sectors), from the shaders' accesses:
// - flag passes read the sphere of an instance (gpu::InstanceBounds, 16 bytes in a stream of them) only where
//   they need it: early reads visibleLast (4) of every instance and the sphere of the instances visible last
//   frame (scattered: one 32-byte sector each); late reads every sphere (16, contiguous) and, where it is in
//   view, visibleLast (one sector: whether the early phase drew it). Both write drawCounts (4) of every instance
//   and lods (4) of the flagged ones, late also visibleLast (4) and, for each instance in view, its index in the
//   candidate list (4 written, 4 read: CullLateBuffers::candidates); the plugin writes no flags (CullLayout). Mesh
//   and LOD data are read only for flagged instances (one more sector each; the mesh and primitive tables are
//   small and cached).
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
    b.earlyFlag = N * (4 + 4) + double(s.earlyDrawn) * (32 + 32 + 4);
    b.lateFlag = N * (16 + 4 + 4) + double(s.frustumVisible) * (32 + 8) + double(s.lateDrawn) * (32 + 4);
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

sieve::Result<bool> writeCullLines(engine::Context& ctx, SceneHarness& h, const Peers& peers, const CullLines& c,
                                   const JsonSink& sink) {
    const VkExtent2D extent = h.extent();
    const uint64_t n = c.n;
    bool allOk = true;
    uint32_t drawsStable = 0;
    for (const bool stable : {true, false}) {
        sieve::tuning(h.renderer().plugin()).stable = stable;
        auto run = h.runWarm(c.warmupMs, c.warmup, c.frames);
        if (!run) return run.error();
        const sieve::CullingStats& s = run->stats;
        Json line;
        line.str("scenario", c.scenario).integer("n", n);
        if (c.fields) c.fields(line);
        line.integer("width", extent.width).integer("height", extent.height).str("order", stable ? "stable" : "atomic");
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
            bound.num(name, boundUs(peers, v));
            totalBytes += v;
        }
        line.obj("bytes", bytes).obj("bound_us", bound).num("cull_bound_us", boundUs(peers, totalBytes));
        addPeers(line, peers);
        if (c.verify) {
            std::string why;
            if (!s.valid)
                why = "no counts read back";
            else if (s.frustumVisible != c.cpuFrustum)
                why = "GPU frustum count " + std::to_string(s.frustumVisible) + " != CPU reference " +
                      std::to_string(c.cpuFrustum);
            else if (s.overflow())
                why = "draw list overflow";
            else if (s.draws() == 0)
                why = "nothing drawn";
            else if (s.earlyDrawn + s.lateDrawn >= n && n >= 100)
                why = "nothing culled";
            else if (!stable && s.draws() != drawsStable)
                why =
                    "atomic order drew " + std::to_string(s.draws()) + " draws, stable " + std::to_string(drawsStable);
            line.boolean("verified", why.empty()).integer("cpu_frustum_visible", c.cpuFrustum);
            if (!why.empty()) {
                std::fprintf(stderr, "sieve-bench %s: n=%llu %s: %s\n", c.scenario, (unsigned long long)n,
                             stable ? "stable" : "atomic", why.c_str());
                allOk = false;
            }
        }
        if (stable) drawsStable = s.draws();
        describe(ctx, line);
        if (!sink.write(line)) return sieve::makeError(VK_ERROR_UNKNOWN, "cannot write the output file");
    }
    return allOk;
}

}  // namespace bench
