// sieve-bench multiview: the culling work of one frame with a main camera and C shadow cascades, three
// ways in one process on the same city: one plugin culling all 1 + C views (setViews), the single-view
// pipeline (the camera alone: what the views cost on top), and 1 + C separate plugin instances (the
// camera's plus one per cascade, each culling its cascade as its only view, each with its whole chain of
// passes). Culling work = the GPU time of the plugin's passes (timestamps around every pass; the draw
// passes are not counted). Subjects are interleaved round by round, each warmed up by time right before
// it is timed; --verify checks the counts after timing.
#include <chrono>
#include <cmath>
#include <cstdio>

#include "assets/glm_interop.h"
#include "bench_util.h"
#include "engine/scene/cascades.h"
#include "scene_harness.h"
#include "sieve/cull_flags.h"
#include "sieve/hiz.h"
#include "subcommands.h"

namespace bench {
namespace {

constexpr const char* kName = "multiview";
constexpr const char* kDescription =
    "The city of N instances (default 1e6) at WxH (default 1920x1080) from the street camera, with C shadow\n"
    "cascades (default 4, orthographic, fitted to the camera's slices, shadow casters, frustum test). Per\n"
    "frame GPU time of the culling passes: one plugin with 1 + C views vs the camera alone vs 1 + C separate\n"
    "plugins (cascade plugins render MAPxMAP, default 2048). R rounds (default 5) of F frames (default 20)\n"
    "per subject, each after --warmup-ms (default 500) of rendering it; median, p10, p90. --verify: the\n"
    "multi-view counts equal the single-view plugin's (camera) and the separate plugins' and the CPU\n"
    "reference (cascades), no overflow, every cascade culls something.";

struct Options {
    uint64_t n = 1000000;
    uint32_t width = 1920, height = 1080, cascades = 4, map = 2048, rounds = 5, frames = 20, warmupMs = 500;
    uint64_t seed = 1;
    bool verify = false;
    std::string out;
};

struct Percentiles {
    double median = 0, p10 = 0, p90 = 0;
};
Percentiles percentiles(std::vector<double> v) {
    Percentiles p;
    if (v.empty()) return p;
    std::sort(v.begin(), v.end());
    auto at = [&](double q) { return v[std::min(v.size() - 1, size_t(std::floor(q * double(v.size() - 1) + 0.5)))]; };
    p.median = median(v);
    p.p10 = at(0.1);
    p.p90 = at(0.9);
    return p;
}
void addPercentiles(Json& j, const std::string& prefix, const Percentiles& p) {
    j.num(prefix + "_us", p.median).num(prefix + "_p10_us", p.p10).num(prefix + "_p90_us", p.p90);
}

// Instances the view keeps (mask) and finds in its frustum, on the host (shared/cull.h, the GPU's test).
uint64_t viewReferenceCount(const sieve::assets::SceneData& scene, const sieve::CullView& v) {
    const VkExtent2D own{uint32_t(v.desc.viewport.width), uint32_t(std::abs(v.desc.viewport.height))};
    const VkExtent2D base = sieve::HiZBuilder::pyramidExtent(own);
    sieve::CullSettings settings;
    settings.toggles = sieve::gpu::SIEVE_CULL_FRUSTUM;
    auto p = sieve::makeCullParams(v.desc, base, sieve::HiZBuilder::mipCount(base), uint32_t(scene.instances.size()),
                                   settings);
    if (!p) return UINT64_MAX;
    uint64_t n = 0;
    for (size_t i = 0; i < scene.instances.size(); ++i)
        n += (scene.instances[i].flags & v.instanceMask) == v.instanceMask &&
             sieve::gpu::sieveInFrustum(scene.bounds[i].sphere, *p);
    return n;
}

}  // namespace

int multiviewMain(int argc, char** argv) {
    Options o;
    cli::Parser p = subcommandParser(kName, kDescription);
    p.count("--n", "N", "instances of the city (default 1000000)", o.n, 1, sieve::assets::kMaxCityInstances)
        .count("--width", "W", "camera framebuffer width (default 1920)", o.width, 1, 16384)
        .count("--height", "H", "camera framebuffer height (default 1080)", o.height, 1, 16384)
        .count("--cascades", "C", "shadow cascades (default 4)", o.cascades, 1, 4)
        .count("--map", "MAP", "shadow map extent of the separate cascade plugins (default 2048)", o.map, 1, 16384)
        .count("--rounds", "R", "interleaved rounds (default 5)", o.rounds, 1, 1000)
        .count("--frames", "F", "timed frames per subject and round (default 20)", o.frames, 1, 10000)
        .count("--warmup-ms", "MS", "rendering before each timed run (default 500)", o.warmupMs, 0, 60000)
        .count("--seed", "S", "seed of the city (default 1)", o.seed, 0, UINT64_MAX)
        .flag("--verify", "check the counts after timing (see above); exit 1 on a mismatch", o.verify)
        .text("--out", "FILE", "append the JSON line to FILE (default: stdout)", o.out);
    if (auto exit = p.run(argc, argv, 1)) return *exit;
    const JsonSink sink(o.out);
    auto ctxR = makeContext();
    if (!ctxR) return fail(kName, ctxR.error().message);
    engine::Context& ctx = *ctxR.value();

    auto city = buildCity(o.n, uint32_t(o.seed));
    if (!city) return fail(kName, city.error().message);
    const VkExtent2D extent{o.width, o.height}, mapExtent{o.map, o.map};
    auto singleR = SceneHarness::create(ctx, city.value(), extent);
    if (!singleR) return fail(kName, singleR.error().message);
    SceneHarness& single = *singleR.value();
    auto multiR = SceneHarness::create(ctx, city.value(), extent, {.maxViews = 1 + o.cascades});
    if (!multiR) return fail(kName, multiR.error().message);
    SceneHarness& multi = *multiR.value();

    engine::CascadeSetup setup;
    setup.fovY = glm::radians(60.0f);
    setup.aspect = float(o.width) / float(o.height);
    setup.count = o.cascades;
    setup.maxDistance = 150.0f;
    setup.mapExtent = mapExtent;
    engine::casterBounds(city->bounds, setup.sceneMin, setup.sceneMax);
    const auto cascades = engine::fitCascades(single.view(), setup);
    std::vector<sieve::CullView> views;
    for (uint32_t k = 0; k < cascades.size(); ++k) views.push_back(engine::cascadeView(cascades[k], k, mapExtent));
    multi.renderer().setExtraViews(views);
    // The separate plugins: each culls its cascade as its only view, frustum only like the multi-view one.
    std::vector<std::unique_ptr<SceneHarness>> separate;
    for (const auto& c : cascades) {
        auto h = SceneHarness::create(ctx, city.value(), mapExtent);
        if (!h) return fail(kName, h.error().message);
        h.value()->setCamera(c.view, c.proj);
        auto& t = h.value()->renderer().plugin().toggles();
        t.occlusion = t.twoPhase = t.lod = false;
        separate.push_back(std::move(h).value());
    }

    std::vector<double> singleUs, multiUs, separateUs;
    SceneRun lastSingle, lastMulti;
    std::vector<SceneRun> lastSeparate(separate.size());
    for (uint32_t round = 0; round < o.rounds; ++round) {
        auto s = single.runWarm(o.warmupMs, 0, o.frames);
        if (!s) return fail(kName, s.error().message);
        auto m = multi.runWarm(o.warmupMs, 0, o.frames);
        if (!m) return fail(kName, m.error().message);
        double sum = median(s->cullUs);  // the camera's own plugin
        for (size_t k = 0; k < separate.size(); ++k) {
            auto r = separate[k]->runWarm(o.warmupMs, 0, o.frames);
            if (!r) return fail(kName, r.error().message);
            sum += median(r->cullUs);
            lastSeparate[k] = std::move(r).value();
        }
        singleUs.insert(singleUs.end(), s->cullUs.begin(), s->cullUs.end());
        multiUs.insert(multiUs.end(), m->cullUs.begin(), m->cullUs.end());
        separateUs.push_back(sum);
        lastSingle = std::move(s).value();
        lastMulti = std::move(m).value();
    }
    const Percentiles ps = percentiles(singleUs), pm = percentiles(multiUs), pp = percentiles(separateUs);
    Json line;
    line.str("scenario", kName)
        .integer("n", o.n)
        .integer("width", o.width)
        .integer("height", o.height)
        .integer("cascades", o.cascades)
        .integer("map", o.map)
        .integer("rounds", o.rounds)
        .integer("frames", o.frames);
    addPercentiles(line, "single_cull", ps);
    addPercentiles(line, "multi_cull", pm);
    addPercentiles(line, "separate_cull", pp);  // per round: sum of the 1 + C plugins' medians
    line.num("multi_over_single", ps.median > 0 ? pm.median / ps.median : 0)
        .num("separate_over_multi", pm.median > 0 ? pp.median / pm.median : 0);
    Json passes;
    for (const auto& [name, us] : lastMulti.passUs) passes.num(name, median(us));
    line.obj("multi_passes_us", passes);

    std::string why;
    const sieve::CullingStats& ms = lastMulti.stats;
    Json perView;
    if (!ms.valid || ms.views.size() != 1 + views.size()) why = "no multi-view counts read back";
    for (size_t v = 0; why.empty() && v < ms.views.size(); ++v) {
        const sieve::CullingViewStats& vs = ms.views[v];
        uint32_t draws = 0, overflow = 0;
        for (size_t b = 0; b < vs.early.size(); ++b) {
            draws += vs.draws(uint32_t(b));
            overflow += vs.early[b].overflow + vs.late[b].overflow;
        }
        Json jv;
        jv.str("kind", sieve::viewKindName(vs.kind))
            .integer("frustum_visible", vs.frustumVisible)
            .integer("drawn", vs.drawn())
            .integer("draws", draws);
        perView.obj(vs.name, jv);
        if (!o.verify) continue;
        if (overflow) why = vs.name + ": overflow";
        if (v == 0) {
            const sieve::CullingStats& ss = lastSingle.stats;
            if (!ss.valid || vs.frustumVisible != ss.frustumVisible || vs.lateVisible != ss.lateVisible ||
                vs.drawn() != ss.earlyDrawn + ss.lateDrawn)
                why = "camera counts differ from the single-view plugin's";
            continue;
        }
        const uint64_t ref = viewReferenceCount(city.value(), views[v - 1]);
        const sieve::CullingStats& sep = lastSeparate[v - 1].stats;
        if (vs.frustumVisible != ref)
            why = vs.name + ": GPU frustum count " + std::to_string(vs.frustumVisible) + " != CPU reference " +
                  std::to_string(ref);
        else if (!sep.valid || sep.frustumVisible != ref)
            why = vs.name + ": the separate plugin counted " + std::to_string(sep.frustumVisible);
        else if (vs.drawn() != vs.frustumVisible || vs.drawn() >= o.n)
            why = vs.name + ": drew " + std::to_string(vs.drawn()) + " of " + std::to_string(vs.frustumVisible);
    }
    line.obj("views", perView);
    if (o.verify) line.boolean("verified", why.empty());
    describe(ctx, line);
    if (!sink.write(line)) return fail(kName, "cannot write the output file");
    if (!why.empty()) {
        std::fprintf(stderr, "sieve-bench multiview: %s\n", why.c_str());
        return 1;
    }
    return 0;
}

}  // namespace bench
