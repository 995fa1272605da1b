// sieve-host2: the culling plugin in host2's frame graph (samples/host2/frame_graph.h), rendering the
// procedural city headless for N frames at a fixed camera. Prints the pass order and the plugin's counts,
// optionally writes the last frame as a PNG.
#include <cstdio>
#include <string>

#include "assets/glm_interop.h"
#include "assets/procedural_city.h"
#include "city_renderer.h"
#include "cli.h"
#include "engine/target/headless_target.h"
#include "engine/vk/context.h"
#include "sieve/cull_flags.h"

namespace {

struct Options {
    uint64_t instances = 20000;
    uint32_t seed = 7;
    int frames = 8;
    uint32_t width = 1280, height = 720;
    uint32_t framesInFlight = 2;
    std::string camera = "street";
    std::string png;
    bool validation = false;
    bool overhead = true;
};

int fail(const std::string& message) {
    std::fprintf(stderr, "sieve-host2: %s\n", message.c_str());
    return 1;
}

cli::Parser parser(Options& o) {
    cli::Parser p("sieve-host2", "The city through the culling plugin in host2's frame graph, headless.");
    p.count("--instances", "N", "instances of the city (1..50000000, default 20000)", o.instances, 1, 50'000'000)
        .count("--seed", "S", "seed of the city (default 7)", o.seed, 0, UINT32_MAX)
        .count("--frames", "N", "frames to render (1..100000, default 8)", o.frames, 1, 100000)
        .option(
            "--size", "WxH", "framebuffer size (each 1..8192, default 1280x720)",
            [&o](const std::string& v) {
                cli::Extent e;
                if (!cli::parseExtent(v, 8192, e)) return false;
                o.width = e.width;
                o.height = e.height;
                return true;
            },
            "WxH, each in [1, 8192]")
        .count("--frames-in-flight", "N", "frames in flight (1..4, default 2)", o.framesInFlight, 1, 4)
        .text("--camera", "street|avenue|courtyard|rooftop|overview", "camera preset (default street)", o.camera)
        .text("--png", "PATH", "write the last frame as a PNG", o.png)
        .onOff("--overhead", "a second view from above, drawn into an inset (default on)", o.overhead)
        .flag("--validation", "enable the Vulkan validation layers", o.validation);
    return p;
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    if (auto exit = parser(opt).run(argc, argv, 2)) return *exit;

    engine::ContextDesc desc;
    desc.appName = "sieve-host2";
    desc.validation = opt.validation;
    auto ctx = engine::Context::create(desc);
    if (!ctx) return fail(ctx.error().message);
    std::printf("device: %s\n", ctx.value()->properties().deviceName);

    auto city = sieve::assets::makeCity(opt.instances, opt.seed);
    if (!city) return fail(city.error());
    const sieve::assets::SceneData& scene = city.value();
    sieve::assets::CameraPose pose;
    bool found = false;
    for (const auto& preset : sieve::assets::cameraPresets(scene))
        if (preset.name == opt.camera) pose = preset.pose, found = true;
    if (!found) return fail("unknown camera '" + opt.camera + "'");

    auto target = engine::HeadlessTarget::create(
        *ctx.value(), {{opt.width, opt.height}, VK_FORMAT_R8G8B8A8_UNORM, opt.framesInFlight});
    if (!target) return fail(target.error().message);
    auto renderer = host2::CityRenderer::create(*ctx.value(), scene, target.value()->colorFormat(),
                                                target.value()->extent(), opt.framesInFlight, opt.overhead);
    if (!renderer) return fail(renderer.error().message);

    const glm::mat4 view = sieve::assets::viewMatrix(pose);
    const glm::mat4 proj =
        sieve::toGlm(sieve::perspectiveReverseZ(glm::radians(60.0f), float(opt.width) / float(opt.height), 0.1f));
    for (int f = 0; f < opt.frames; ++f) {
        auto frame = target.value()->beginFrame();  // waits for this frame slot's fence
        if (!frame) return fail(frame.error().message);
        auto end = renderer.value()->record(*frame, view, proj);
        if (!end) return fail(end.error().message);
        if (auto e = target.value()->endFrame(*end); !e) return fail(e.error().message);
    }
    if (auto r = target.value()->finish(); !r) return fail(r.error().message);
    if (!opt.png.empty()) {
        if (auto r = target.value()->readback(opt.png); !r) return fail(r.error().message);
        std::printf("wrote %s\n", opt.png.c_str());
    }

    std::printf("passes:");
    for (const std::string& p : renderer.value()->passOrder()) std::printf(" %s", p.c_str());
    std::printf("\n");
    // finish() waited for every frame: the last one's GPU times are there.
    const uint32_t lastSlot = uint32_t((target.value()->frameIndex() - 1) % opt.framesInFlight);
    auto times = renderer.value()->passTimes(lastSlot);
    if (!times) return fail(times.error().message);
    std::printf("GPU ms of the last frame:");
    for (const engine::GpuTimestamps::Scope& t : times.value()) std::printf(" %s %.3f", t.name.c_str(), t.ms);
    std::printf("\n");
    // Counts arrive framesInFlight frames late (read back without waiting).
    const sieve::CullingStats& s = renderer.value()->plugin().stats();
    if (!s.valid) return fail("no counts read back yet: render more frames than frames in flight");
    std::printf(
        "counts of frame %llu: instances %u, frustum-visible %u, drawn early %u, visible late %u, drawn late %u\n",
        static_cast<unsigned long long>(s.frame), s.instances, s.frustumVisible, s.earlyDrawn, s.lateVisible,
        s.lateDrawn);
    std::printf("draw records: early %u, late %u, total %u, overflow %u\n", s.early.count, s.late.count, s.draws(),
                s.overflow());
    for (const sieve::CullingViewStats& v : s.views)
        std::printf("view %s (%s): frustum-visible %u, drawn %u, draw records %u\n", v.name.c_str(),
                    sieve::viewKindName(v.kind), v.frustumVisible, v.drawn(), v.draws(0));
    if (ctx.value()->validationEnabled() && ctx.value()->validationMessageCount() > 0)
        return fail(std::to_string(ctx.value()->validationMessageCount()) + " validation message(s)");
    return 0;
}
