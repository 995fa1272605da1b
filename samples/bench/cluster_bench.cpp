// sieve-bench clusters: whole frames of the dense scene (--scene dense of the viewer) with instance culling
// only, with cluster culling drawn by indexed indirect draws, and (where the device has VK_EXT_mesh_shader)
// by mesh shaders, in the same run, interleaved in rounds. Frame time = the sum of the graph's per-pass GPU
// times, culling time = the culling and cluster passes; median over every timed frame of every round.
// Triangles: drawn per frame (pipeline statistics for instance culling, the cluster plugin's count with
// clusters), and triangles per second of frame time. --triangle-cull on: the mesh path's per-triangle
// culling (its line says triangle_cull; pipeline_statistics: the clipper's counts where the device has them;
// mesh_primitives_generated: the mesh path's mesh-primitives-generated query where the device counts them).
#include <cstdio>

#include "assets/meshlets.h"
#include "assets/procedural_dense.h"
#include "bench_util.h"
#include "scene_harness.h"
#include "subcommands.h"

namespace bench {
namespace {

constexpr const char* kName = "clusters";

constexpr const char* kDescription =
    "GPU frame and culling time of the dense scene (N high-polygon instances, default 2000) at WxH: instance\n"
    "culling only, clusters + indirect draws, clusters + mesh shaders (skipped without VK_EXT_mesh_shader).\n"
    "--verify: no overflow, and both cluster paths draw the same clusters and triangles.";

struct Mode {
    const char* name;
    std::unique_ptr<SceneHarness> harness;
    SceneRun all;  // every timed frame of every round; the counts of the last
};

}  // namespace

int clusterMain(int argc, char** argv) {
    uint64_t n = 2000;
    uint32_t rounds = 3;
    CityOptions o;
    o.frames = 30;
    o.warmup = 10;
    cli::Parser p = subcommandParser(kName, kDescription);
    p.count("--n", "N", "instances of the dense scene (default 2000)", n, 1, 1u << 24)
        .count("--rounds", "R", "interleaved rounds of every mode (default 3)", rounds, 1, 100);
    bool triangleCull = false;
    p.onOff("--triangle-cull",
            "the mesh path culls back-facing, degenerate and sample-less triangles in its mesh shaders (default off)",
            triangleCull);
    addCityOptions(p, o, 100000, "check the cluster lists (see above); exit 1 on a mismatch");
    if (auto exit = p.run(argc, argv, 1)) return *exit;
    const VkExtent2D extent = o.extent();
    const JsonSink sink(o.out);

    auto ctxR = makeContext();
    if (!ctxR) return fail(kName, ctxR.error().message);
    engine::Context& ctx = *ctxR.value();
    auto dense = sieve::assets::makeDenseScene(uint32_t(n), uint32_t(o.seed));
    if (!dense) return fail(kName, dense.error());
    sieve::assets::SceneData scene = std::move(dense).value();
    // One cluster build; every mode draws the same (reordered) index buffer.
    auto clusters = sieve::assets::buildClusters(scene);
    if (!clusters) return fail(kName, clusters.error());
    const sieve::assets::CameraPose pose = sieve::assets::defaultDenseCamera(scene);
    const uint64_t allTriangles = scene.stats().instancedTriangles;

    std::vector<Mode> modes;
    modes.push_back({"instances", nullptr, {}});
    modes.push_back({"clusters+indirect", nullptr, {}});
    if (ctx.info().meshShader) modes.push_back({"clusters+mesh", nullptr, {}});
    for (size_t m = 0; m < modes.size(); ++m) {
        engine::ClusterSetup setup{&clusters.value(),
                                   m == 2 ? engine::ClusterPath::Mesh : engine::ClusterPath::Indirect};
        setup.triangleCull = triangleCull && m == 2;
        auto h = SceneHarness::create(ctx, scene, extent, {.clusters = m == 0 ? nullptr : &setup, .pose = &pose});
        if (!h) return fail(kName, std::string(modes[m].name) + ": " + h.error().message);
        modes[m].harness = std::move(h).value();
        modes[m].harness->renderer().plugin().toggles().lod = false;
    }
    for (uint32_t r = 0; r < rounds; ++r)
        for (Mode& m : modes) {
            auto run = m.harness->run(o.warmup, o.frames);
            if (!run) return fail(kName, std::string(m.name) + ": " + run.error().message);
            m.all.frameUs.insert(m.all.frameUs.end(), run->frameUs.begin(), run->frameUs.end());
            m.all.cullUs.insert(m.all.cullUs.end(), run->cullUs.begin(), run->cullUs.end());
            for (auto& [pass, us] : run->passUs)
                m.all.passUs[pass].insert(m.all.passUs[pass].end(), us.begin(), us.end());
            m.all.stats = run->stats;
            m.all.clusters = run->clusters;
            m.all.triangles = run->triangles;
            m.all.clippingInvocations = run->clippingInvocations;
            m.all.clippingPrimitives = run->clippingPrimitives;
            m.all.meshPrimitives = run->meshPrimitives;
        }
    bool ok = true;
    for (size_t i = 0; i < modes.size(); ++i) {
        Mode& m = modes[i];
        const bool withClusters = i > 0;
        const uint64_t triangles = withClusters ? m.all.clusters.counters.triangles : m.all.triangles;
        const Stat frame = stat(m.all.frameUs);
        Json line;
        line.str("scenario", kName)
            .str("mode", m.name)
            .integer("n", n)
            .integer("width", extent.width)
            .integer("height", extent.height)
            .integer("all_triangles", allTriangles)
            .integer("triangles", triangles)
            .num("triangles_per_s", frame.median > 0 ? double(triangles) / (frame.median * 1e-6) : 0)
            .boolean("triangle_cull", triangleCull && i == 2);
        addRun(line, m.all);
        addClipping(line, m.all);
        if (withClusters) line.obj("clusters", clusterCounts(m.all.clusters));
        if (o.verify) {
            std::string why;
            const sieve::ClusterStats& c = m.all.clusters;
            if (!m.all.stats.valid || m.all.stats.overflow())
                why = "instance counts missing or overflowing";
            else if (withClusters && (!c.valid || c.early.overflow + c.late.overflow + c.counters.dropped))
                why = "cluster counts missing or overflowing";
            else if (i == 2 && (c.drawn() != modes[1].all.clusters.drawn() ||
                                c.counters.triangles != modes[1].all.clusters.counters.triangles))
                why = "the mesh path drew other clusters than the indirect path";
            line.boolean("verified", why.empty());
            if (!why.empty()) {
                std::fprintf(stderr, "sieve-bench clusters: %s: %s\n", m.name, why.c_str());
                ok = false;
            }
        }
        describe(ctx, line);
        if (!sink.write(line)) return fail(kName, "cannot write the output file");
    }
    return ok ? 0 : 1;
}

}  // namespace bench
