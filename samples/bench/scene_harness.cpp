#include "scene_harness.h"

#include <chrono>
#include <cmath>
#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "assets/camera.h"
#include "assets/glm_interop.h"
#include "sieve/cull_flags.h"

namespace bench {

void addInstanceCounts(cli::Parser& p, const char* name, std::string help, std::vector<uint64_t>& counts) {
    p.option(
        name, "N,...", std::move(help),
        [&counts](const std::string& v) {
            std::vector<uint64_t> parsed;
            if (!cli::parseCountList(v, parsed)) return false;
            for (uint64_t n : parsed)
                if (n == 0 || n > sieve::assets::kMaxCityInstances) return false;
            counts = std::move(parsed);
            return true;
        },
        "comma-separated counts in [1, 2^32-1]");
}

void addCitySizes(cli::Parser& p, std::vector<uint64_t>& sizes) {
    addInstanceCounts(p, "--sizes", "instance counts of the city (default 1e4,1e5,1e6,1e7)", sizes);
}

void addCityOptions(cli::Parser& p, CityOptions& o, uint32_t maxFrames, const char* verifyHelp, bool seeded) {
    const auto dflt = [](const char* what, uint64_t v) {
        return std::string(what) + " (default " + std::to_string(v) + ")";
    };
    p.count("--width", "W", dflt("framebuffer width", o.width), o.width, 1, 16384)
        .count("--height", "H", dflt("framebuffer height", o.height), o.height, 1, 16384)
        .count("--frames", "F", dflt("timed frames", o.frames), o.frames, 1, maxFrames)
        .count("--warmup", "W", dflt("warm-up frames", o.warmup), o.warmup, 0, maxFrames);
    if (seeded) p.count("--seed", "S", dflt("seed of the city", o.seed), o.seed, 0, UINT64_MAX);
    p.flag("--verify", verifyHelp, o.verify)
        .option("--draw-distance", "D",
                "cull instances wholly farther than D from the camera (default 0: no limit; along the view axis in "
                "scenarios that say so)",
                [&o](const std::string& v) { return cli::parseFloat(v, o.drawDistance) && o.drawDistance >= 0.0f; })
        .text("--out", "FILE", "append the JSON lines to FILE (default: stdout)", o.out);
}

void addInstancePassOptions(cli::Parser& p, CityOptions& o) {
    p.option("--turn", "DEG",
             "turn the camera DEG degrees per frame about its vertical axis (default 0: still; not with --verify, "
             "whose reference is one camera)",
             [&o](const std::string& v) { return cli::parseFloat(v, o.turn) && std::abs(o.turn) <= 180.0f; });
    p.onOff("--instance-state",
            "the plugin writes cull.state (view 0's decision per instance) every frame, as for debug views and "
            "picking, as the viewer does (default off: as a host without them, like niagara, and the plugin's default)",
            o.instanceState);
    p.choice("--late-split", {"off", "auto", "adaptive", "all"},
             "the split late pass (sieve::CullLayout::LateSplit: a second dispatch tests view 0's instances in view "
             "that lie sparse in their subgroups, or all of them; auto: adaptive from 2^22 instances; default off, "
             "the plugin's)",
             o.lateSplit);
    p.choice("--draw-marks", {"auto", "on", "off"},
             "draw marks (sieve::CullingTuning::DrawMarks: the flag passes mark the groups of draw counts with a draw, "
             "the compactions read only those; auto: from sieve::kDrawMarksFrom instances; default auto, the "
             "plugin's)",
             o.drawMarks);
}

sieve::CullLayout::LateSplit lateSplitOf(const CityOptions& o) {
    using S = sieve::CullLayout::LateSplit;
    return o.lateSplit == "auto"       ? S::Auto
           : o.lateSplit == "adaptive" ? S::Adaptive
           : o.lateSplit == "all"      ? S::All
                                       : S::Off;
}

sieve::CullingTuning::DrawMarks drawMarksOf(const CityOptions& o) {
    using M = sieve::CullingTuning::DrawMarks;
    return o.drawMarks == "on" ? M::On : o.drawMarks == "off" ? M::Off : M::Auto;
}

std::string checkCityOptions(const CityOptions& o) {
    if (o.verify && o.turn != 0.0f) return "--turn and --verify exclude each other: the reference counts one camera";
    return "";
}

sieve::Result<sieve::assets::SceneData> buildCity(uint64_t instances, uint32_t seed) {
    auto city = sieve::assets::makeCity(instances, seed);
    if (!city)
        return sieve::makeError(VK_ERROR_UNKNOWN, "makeCity(" + std::to_string(instances) + "): " + city.error());
    return std::move(city).value();
}

sieve::Result<std::unique_ptr<SceneHarness>> SceneHarness::createCity(engine::Context& ctx, uint64_t instances,
                                                                      uint32_t seed, VkExtent2D extent,
                                                                      const HarnessOptions& options) {
    auto city = buildCity(instances, seed);
    if (!city) return city.error();
    return create(ctx, std::move(city).value(), extent, options);
}

sieve::Result<std::unique_ptr<SceneHarness>> SceneHarness::create(engine::Context& ctx, sieve::assets::SceneData scene,
                                                                  VkExtent2D extent, const HarnessOptions& options) {
    std::unique_ptr<SceneHarness> h(new SceneHarness());
    h->scene_ = std::move(scene);
    h->extent_ = extent;
    engine::HeadlessTargetDesc td;
    td.extent = extent;
    td.framesInFlight = 2;
    auto target = engine::HeadlessTarget::create(ctx, td);
    if (!target) return target.error();
    h->target_ = std::move(target).value();
    engine::SceneRendererOptions ro;
    ro.framesInFlight = td.framesInFlight;
    ro.maxViews = options.maxViews;
    ro.clusters = options.clusters;
    ro.drawCapacity = options.drawCapacity;
    ro.instanceState = options.instanceState;
    ro.lateSplit = options.lateSplit;
    ro.drawMarks = options.drawMarks;
    auto renderer = engine::SceneRenderer::create(ctx, h->scene_, h->target_->colorFormat(), extent, ro);
    if (!renderer) return renderer.error();
    h->renderer_ = std::move(renderer).value();
    // The viewer's start: street level, looking down the street (buildings on both sides occlude most).
    h->view_ = sieve::assets::viewMatrix(options.pose ? *options.pose : sieve::assets::defaultCityCamera());
    h->proj_ =
        sieve::toGlm(sieve::perspectiveReverseZ(glm::radians(60.0f), float(extent.width) / float(extent.height), 0.1f));
    return h;
}

sieve::Result<SceneRun> SceneHarness::runWarm(uint32_t ms, uint32_t warmup, uint32_t frames) {
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(ms))
        if (auto r = run(2, 1); !r) return r.error();
    return run(warmup, frames);
}

sieve::Result<SceneRun> SceneHarness::run(uint32_t warmup, uint32_t frames) {
    SceneRun out;
    const uint64_t first = target_->frameIndex();
    const uint64_t timedFrom = first + warmup;
    const uint64_t end = timedFrom + frames;
    // Timings of frame f are read when its slot comes round again (beginFrame waited its fence), or
    // after finish() for the last frames in flight.
    std::vector<uint64_t> slotFrame(target_->framesInFlight(), UINT64_MAX);
    auto take = [&](uint32_t slot) {
        const uint64_t f = slotFrame[slot];
        if (f == UINT64_MAX || f < timedFrom) return;
        std::vector<engine::graph::PassTiming> timings;
        engine::FrameCounts counts;
        renderer_->collect(slot, timings, counts);
        if (counts.cull.valid) out.stats = counts.cull;
        if (counts.clusters.valid) out.clusters = counts.clusters;
        if (counts.trianglesValid) out.triangles = counts.triangles;
        if (counts.clippingInvocations) out.clippingInvocations = counts.clippingInvocations;
        if (counts.clippingPrimitives) out.clippingPrimitives = counts.clippingPrimitives;
        if (counts.meshPrimitivesGenerated) out.meshPrimitives = counts.meshPrimitivesGenerated;
        double cull = 0, total = 0;
        for (const auto& t : timings) {
            const double us = t.ms * 1000.0;
            out.passUs[t.name].push_back(us);
            total += us;
            for (const char* c : kCullPasses)
                if (t.name == c) cull += us;
        }
        out.cullUs.push_back(cull);
        out.frameUs.push_back(total);
        slotFrame[slot] = UINT64_MAX;
    };
    for (uint64_t f = first; f < end; ++f) {
        auto frame = target_->beginFrame();
        if (!frame) return frame.error();
        const uint32_t slot = frame->info.frameSlot;
        take(slot);
        const glm::mat4 view =
            turnDegrees_ == 0.0f
                ? view_
                : glm::rotate(glm::mat4(1.0f), glm::radians(std::fmod(turnDegrees_ * float(f), 360.0f)),
                              glm::vec3(0, 1, 0)) *
                      view_;
        if (auto r = renderer_->record(*target_, *frame, view, proj_); !r) return r.error();
        if (auto r = target_->endFrame(); !r) return r.error();
        slotFrame[slot] = f;
    }
    if (auto r = target_->finish(); !r) return r.error();
    for (uint32_t s = 0; s < slotFrame.size(); ++s) take(s);
    // finish() waited for every frame: the plugin's readback ring now holds the last frames' counts.
    if (renderer_->plugin().stats().valid) out.stats = renderer_->plugin().stats();
    return out;
}

void addRun(Json& j, const SceneRun& run) {
    Json passes;
    for (const auto& [name, us] : run.passUs) passes.num(name, stat(us).median);
    j.obj("passes_us", passes);
    addStat(j, "cull_total", stat(run.cullUs));
    addStat(j, "frame", stat(run.frameUs));
    j.integer("frames", run.frameUs.size());
    const sieve::CullingStats& s = run.stats;
    Json counts;
    counts.boolean("valid", s.valid)
        .integer("instances", s.instances)
        .integer("frustum_visible", s.frustumVisible)
        .integer("early_drawn", s.earlyDrawn)
        .integer("late_visible", s.lateVisible)
        .integer("late_drawn", s.lateDrawn)
        .integer("early_draws", s.early.count)
        .integer("late_draws", s.late.count)
        .integer("overflow", s.overflow());
    j.obj("counts", counts);
}

void addClipping(Json& j, const SceneRun& run) {
    if (run.meshPrimitives)
        j.integer("mesh_primitives_generated", *run.meshPrimitives);
    else
        j.raw("mesh_primitives_generated", "null");
    if (!run.clippingInvocations || !run.clippingPrimitives) {
        j.raw("pipeline_statistics", "null");
        return;
    }
    Json stats;
    stats.integer("clipping_invocations", *run.clippingInvocations)
        .integer("clipping_primitives", *run.clippingPrimitives);
    j.obj("pipeline_statistics", stats);
}

Json clusterCounts(const sieve::ClusterStats& c) {
    Json j;
    j.boolean("valid", c.valid)
        .integer("tested", c.counters.lateTested)
        .integer("early_tested", c.counters.earlyTested)
        .integer("frustum", c.counters.frustumVisible)
        .integer("cone", c.counters.coneVisible)
        .integer("occlusion_visible", c.counters.lateVisible)
        .integer("early_drawn", c.early.count)
        .integer("late_drawn", c.late.count)
        .integer("drawn", c.drawn())
        .integer("dropped", c.counters.dropped)
        .integer("overflow", c.early.overflow + c.late.overflow + c.counters.dropped);
    return j;
}

uint64_t frustumReferenceCount(const sieve::assets::SceneData& scene, const glm::mat4& view, const glm::mat4& proj,
                               float drawDistance, bool alongAxis,
                               const std::function<void(const sieve::gpu::vec4& sphere)>& visit) {
    sieve::CullSettings settings;
    settings.drawDistance = drawDistance;
    settings.distanceAlongAxis = alongAxis;
    auto params =
        sieve::makeCullParams({view, proj, {0, 0, 1, 1, 0, 1}}, {1, 1}, 1, uint32_t(scene.instances.size()), settings);
    if (!params) return UINT64_MAX;
    uint64_t n = 0;
    for (const sieve::gpu::InstanceBounds& b : scene.bounds) {
        // The scenes carry no instance cull distances (CullingConfig::instanceCullDistances is off).
        if (!sieve::gpu::sieveInFrustum(b.sphere, *params) ||
            !sieve::gpu::sieveWithinDrawDistance(b.sphere, 0.0f, *params))
            continue;
        ++n;
        if (visit) visit(b.sphere);
    }
    return n;
}

}  // namespace bench
