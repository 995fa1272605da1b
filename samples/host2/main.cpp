// sieve-host2: the culling plugin in host2's frame graph (samples/host2/frame_graph.h), rendering the
// procedural city headless for N frames at a fixed camera. Prints the pass order and the plugin's counts,
// optionally writes the last frame as a PNG.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "assets/procedural_city.h"
#include "city_renderer.h"
#include "engine/target/headless_target.h"
#include "engine/vk/context.h"
#include "sieve/cull_flags.h"
#include "assets/glm_interop.h"

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
};

const char* kUsage =
    "usage: sieve-host2 [--instances N] [--seed S] [--frames N] [--size WxH] [--frames-in-flight N]\n"
    "                   [--camera street|avenue|courtyard|rooftop|overview] [--png PATH] [--validation]\n";

int fail(const std::string& message) {
    std::fprintf(stderr, "sieve-host2: %s\n", message.c_str());
    return 1;
}

bool parse(int argc, char** argv, Options& o, std::string& error) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        auto number = [&](uint64_t lo, uint64_t hi, uint64_t& out) {
            if (!hasValue) return error = a + " needs a value", false;
            char* end = nullptr;
            const unsigned long long v = std::strtoull(argv[++i], &end, 10);
            if (*end || v < lo || v > hi)
                return error = a + ": expected a number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
                       false;
            return out = v, true;
        };
        uint64_t v = 0;
        if (a == "--instances") {
            if (!number(1, 50'000'000, o.instances)) return false;
        } else if (a == "--seed") {
            if (!number(0, UINT32_MAX, v)) return false;
            o.seed = uint32_t(v);
        } else if (a == "--frames") {
            if (!number(1, 100000, v)) return false;
            o.frames = int(v);
        } else if (a == "--frames-in-flight") {
            if (!number(1, 4, v)) return false;
            o.framesInFlight = uint32_t(v);
        } else if (a == "--size") {
            if (!hasValue || std::sscanf(argv[++i], "%ux%u", &o.width, &o.height) != 2 || !o.width || !o.height ||
                o.width > 8192 || o.height > 8192)
                return error = "--size: expected WxH, each in [1, 8192]", false;
        } else if (a == "--camera" && hasValue) {
            o.camera = argv[++i];
        } else if (a == "--png" && hasValue) {
            o.png = argv[++i];
        } else if (a == "--validation") {
            o.validation = true;
        } else {
            return error = "unknown or incomplete option '" + a + "'", false;
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    std::string error;
    if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0))
        return std::fputs(kUsage, stdout), 0;
    if (!parse(argc, argv, opt, error)) return std::fprintf(stderr, "sieve-host2: %s\n%s", error.c_str(), kUsage), 2;

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
                                                target.value()->extent(), opt.framesInFlight);
    if (!renderer) return fail(renderer.error().message);

    const glm::mat4 view = sieve::assets::viewMatrix(pose);
    const glm::mat4 proj = sieve::toGlm(sieve::perspectiveReverseZ(glm::radians(60.0f), float(opt.width) / float(opt.height), 0.1f));
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
    // Counts arrive framesInFlight frames late (read back without waiting).
    const sieve::CullingStats& s = renderer.value()->plugin().stats();
    if (!s.valid) return fail("no counts read back yet: render more frames than frames in flight");
    std::printf(
        "counts of frame %llu: instances %u, frustum-visible %u, drawn early %u, visible late %u, drawn late %u\n",
        static_cast<unsigned long long>(s.frame), s.instances, s.frustumVisible, s.earlyDrawn, s.lateVisible,
        s.lateDrawn);
    std::printf("draw records: early %u, late %u, total %u, overflow %u\n", s.early.count, s.late.count, s.draws(),
                s.overflow());
    if (ctx.value()->validationEnabled() && ctx.value()->validationMessageCount() > 0)
        return fail(std::to_string(ctx.value()->validationMessageCount()) + " validation message(s)");
    return 0;
}
