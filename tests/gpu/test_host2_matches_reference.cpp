// The second host (samples/host2: a Frostbite-style frame graph, its own barriers and transient cache)
// must produce exactly what the reference host (engine::SceneRenderer on engine/graph) produces for the
// same scene and camera: the same draw lists, record for record, the same counts and the same image,
// with validation and synchronization validation clean in both.
#include <algorithm>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "assets/glm_interop.h"
#include "assets/procedural_city.h"
#include "city_renderer.h"
#include "engine/scene/scene_renderer.h"
#include "engine/target/headless_target.h"
#include "gpu/gpu_fixture.h"
#include "shared/draw.h"
#include "sieve/cull_flags.h"
#include "sieve/hiz.h"

using testing_gpu::GpuTest;

namespace {

constexpr VkExtent2D kExtent{320, 180};

struct DrawList {
    sieve::gpu::DrawCounts counts{};
    std::vector<sieve::gpu::DrawCommand> draws;
};

struct HostOutput {
    DrawList early, late;
    sieve::CullingStats stats;
    std::vector<uint8_t> pixels;
};

// Records one frame into the target's command buffer; returns how the colour image was left.
using RecordFn = std::function<sieve::Result<engine::FrameEnd>(const engine::Frame&)>;
// The binding a host gave a slot in its last frame.
using BindingFn = std::function<const sieve::SlotBinding*(const char*)>;

class Host2Test : public GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        ASSERT_NO_FATAL_FAILURE(take(sieve::assets::makeCity(3000, 7), scene_));
        const sieve::assets::CameraPose pose = sieve::assets::defaultCityCamera();
        view_ = sieve::assets::viewMatrix(pose);
        proj_ = sieve::toGlm(
            sieve::perspectiveReverseZ(glm::radians(60.0f), float(kExtent.width) / float(kExtent.height), 0.1f));
    }

    DrawList readList(const BindingFn& binding, bool late) {
        DrawList out;
        const sieve::SlotBinding* draws = binding(late ? "draws.late" : "draws.early");
        const sieve::SlotBinding* counts = binding(late ? "counts.late" : "counts.early");
        EXPECT_TRUE(draws && counts);
        if (!draws || !counts) return out;
        copyOut(counts->buffer, &out.counts, sizeof(out.counts));
        EXPECT_LE(out.counts.count * sizeof(sieve::gpu::DrawCommand), draws->size);
        out.draws.resize(out.counts.count);
        copyOut(draws->buffer, out.draws.data(), out.draws.size() * sizeof(sieve::gpu::DrawCommand));
        return out;
    }

    // Renders `frames` frames at the fixed camera (visibility converges), then reads back what the last one
    // wrote: transient buffers keep the last frame's contents once the GPU is idle.
    void render(engine::HeadlessTarget& target, int frames, const RecordFn& record) {
        for (int i = 0; i < frames; ++i) {
            auto frame = target.beginFrame();
            ASSERT_TRUE(frame) << frame.error().message;
            auto end = record(*frame);
            ASSERT_TRUE(end) << end.error().message;
            auto e = target.endFrame(end.value());
            ASSERT_TRUE(e) << e.error().message;
        }
        ASSERT_TRUE(target.finish());
    }

    void collect(engine::HeadlessTarget& target, const BindingFn& binding, const sieve::CullingStats& stats,
                 HostOutput& out) {
        out.early = readList(binding, false);
        out.late = readList(binding, true);
        out.stats = stats;
        auto pixels = target.readbackPixels();
        ASSERT_TRUE(pixels) << pixels.error().message;
        out.pixels = std::move(pixels).value();
    }

    std::unique_ptr<engine::HeadlessTarget> makeTarget(uint32_t framesInFlight) {
        auto t = engine::HeadlessTarget::create(ctx(), {kExtent, VK_FORMAT_R8G8B8A8_UNORM, framesInFlight});
        EXPECT_TRUE(t) << t.error().message;
        return t ? std::move(t).value() : nullptr;
    }

    void runReference(int frames, uint32_t framesInFlight, HostOutput& out) {
        auto target = makeTarget(framesInFlight);
        ASSERT_TRUE(target);
        auto r = engine::SceneRenderer::create(ctx(), scene_, target->colorFormat(), kExtent,
                                               {.framesInFlight = framesInFlight});
        ASSERT_TRUE(r) << r.error().message;
        engine::SceneRenderer& ref = *r.value();
        render(*target, frames, [&](const engine::Frame& f) -> sieve::Result<engine::FrameEnd> {
            if (auto x = ref.record(*target, f, view_, proj_); !x) return x.error();
            return engine::FrameEnd{};  // the reference leaves colour as a colour attachment
        });
        collect(
            *target, [&](const char* n) { return ref.binding(n); }, ref.plugin().stats(), out);
    }

    // order / times: the last frame's passes, and their GPU times (engine::GpuTimestamps, a scope per pass).
    void runHost2(int frames, uint32_t framesInFlight, HostOutput& out, std::vector<std::string>* order = nullptr,
                  std::vector<engine::GpuTimestamps::Scope>* times = nullptr, bool overhead = false,
                  std::vector<sieve::CullView>* views = nullptr) {
        auto target = makeTarget(framesInFlight);
        ASSERT_TRUE(target);
        auto r = host2::CityRenderer::create(ctx(), scene_, target->colorFormat(), kExtent, framesInFlight, overhead);
        ASSERT_TRUE(r) << r.error().message;
        host2::CityRenderer& h = *r.value();
        render(*target, frames, [&](const engine::Frame& f) { return h.record(f, view_, proj_); });
        collect(
            *target, [&](const char* n) { return h.binding(n); }, h.plugin().stats(), out);
        if (order) *order = h.passOrder();
        if (views) {
            host2::OverheadView o;
            o.update(glm::vec3(glm::inverse(view_)[3]));
            views->assign({o.cullView(kExtent)});
        }
        if (times) {
            auto t = h.passTimes(uint32_t((target->frameIndex() - 1) % framesInFlight));
            ASSERT_TRUE(t) << t.error().message;
            *times = t.value();
        }
    }

    static void expectSameList(const DrawList& a, const DrawList& b, const char* which) {
        EXPECT_EQ(a.counts.count, b.counts.count) << which;
        EXPECT_EQ(a.counts.total, b.counts.total) << which;
        EXPECT_EQ(a.counts.overflow, b.counts.overflow) << which;
        ASSERT_EQ(a.draws.size(), b.draws.size()) << which;
        for (size_t i = 0; i < a.draws.size(); ++i)
            ASSERT_EQ(std::memcmp(&a.draws[i], &b.draws[i], sizeof(a.draws[i])), 0)
                << which << " record " << i << ": reference instance " << a.draws[i].firstInstance << " primitive "
                << a.draws[i].primitive << " lod " << a.draws[i].lod << ", host2 instance " << b.draws[i].firstInstance
                << " primitive " << b.draws[i].primitive << " lod " << b.draws[i].lod;
    }

    static void expectSameOutput(const HostOutput& ref, const HostOutput& h2) {
        expectSameList(ref.early, h2.early, "draws.early");
        expectSameList(ref.late, h2.late, "draws.late");
        ASSERT_TRUE(ref.stats.valid && h2.stats.valid);
        EXPECT_EQ(ref.stats.frame, h2.stats.frame);
        EXPECT_EQ(ref.stats.instances, h2.stats.instances);
        EXPECT_EQ(ref.stats.frustumVisible, h2.stats.frustumVisible);
        EXPECT_EQ(ref.stats.earlyDrawn, h2.stats.earlyDrawn);
        EXPECT_EQ(ref.stats.lateVisible, h2.stats.lateVisible);
        EXPECT_EQ(ref.stats.lateDrawn, h2.stats.lateDrawn);
        ASSERT_EQ(ref.pixels.size(), h2.pixels.size());
        size_t differing = 0;
        for (size_t i = 0; i < ref.pixels.size(); ++i) differing += ref.pixels[i] != h2.pixels[i];
        EXPECT_EQ(differing, 0u) << "the two hosts drew different images";
    }

    sieve::assets::SceneData scene_;
    glm::mat4 view_{1.0f}, proj_{1.0f};
};

}  // namespace

TEST_F(Host2Test, SameDrawListsCountsAndImageAsTheReferenceHost) {
    HostOutput ref, h2;
    std::vector<std::string> order;
    std::vector<engine::GpuTimestamps::Scope> times;
    ASSERT_NO_FATAL_FAILURE(runReference(5, 2, ref));
    ASSERT_NO_FATAL_FAILURE(runHost2(5, 2, h2, &order, &times));
    // The comparison means something only if both phases culled and drew.
    ASSERT_GT(ref.early.counts.count, 0u);
    EXPECT_LT(ref.stats.earlyDrawn + ref.stats.lateDrawn, ref.stats.instances);
    expectSameOutput(ref, h2);
    const std::vector<std::string> expected = {"cull.early.flag", "cull.early.compact", "draw.early",
                                               "hiz.build",       "cull.late.flag",     "cull.late.compact",
                                               "draw.late",       "cull.check",         "cull.stats"};
    EXPECT_EQ(order, expected);
    // One GPU time per pass, in the order they ran; the frame took some time.
    std::vector<std::string> timed;
    double total = 0;
    for (const auto& t : times) {
        timed.push_back(t.name);
        EXPECT_GE(t.ms, 0.0) << t.name;
        EXPECT_LT(t.ms, 10000.0) << t.name;
        total += t.ms;
    }
    EXPECT_EQ(timed, expected);
    EXPECT_GT(total, 0.0);
}

// Before convergence the late phase draws what the early phase missed (frame 0: everything visible is
// "late"); the hosts must agree frame by frame, not only at the fixed point. Three frames in flight.
TEST_F(Host2Test, SameLateListOnTheFirstFramesWithThreeFramesInFlight) {
    for (int frames : {1, 2}) {
        HostOutput ref, h2;
        ASSERT_NO_FATAL_FAILURE(runReference(frames, 3, ref));
        ASSERT_NO_FATAL_FAILURE(runHost2(frames, 3, h2));
        if (frames == 1) {
            EXPECT_EQ(ref.early.counts.count, 0u) << "frame 0 has no previous visibility";
            EXPECT_GT(ref.late.counts.count, 0u);
        }
        expectSameList(ref.early, h2.early, "draws.early");
        expectSameList(ref.late, h2.late, "draws.late");
    }
}

// host2 with its second view: the camera's lists and picture outside the inset are the reference
// host's; the overhead view's count is the CPU frustum reference, and the inset shows the city.
TEST_F(Host2Test, OverheadViewDrawsAnInsetAndLeavesTheCameraAlone) {
    HostOutput ref, h2;
    std::vector<std::string> order;
    std::vector<sieve::CullView> views;
    ASSERT_NO_FATAL_FAILURE(runReference(5, 2, ref));
    ASSERT_NO_FATAL_FAILURE(runHost2(5, 2, h2, &order, nullptr, true, &views));
    expectSameList(ref.early, h2.early, "draws.early");
    expectSameList(ref.late, h2.late, "draws.late");
    EXPECT_NE(std::find(order.begin(), order.end(), "draw.overhead"), order.end());
    ASSERT_EQ(h2.stats.views.size(), 2u);
    const sieve::CullingViewStats& top = h2.stats.views[1];
    EXPECT_EQ(top.name, "overhead");
    const VkExtent2D pyr = sieve::HiZBuilder::pyramidExtent(
        {uint32_t(views[0].desc.viewport.width), uint32_t(views[0].desc.viewport.height)});
    sieve::CullSettings settings;
    settings.toggles = sieve::gpu::SIEVE_CULL_FRUSTUM;
    auto params = sieve::makeCullParams(views[0].desc, pyr, sieve::HiZBuilder::mipCount(pyr),
                                        uint32_t(scene_.instances.size()), settings);
    ASSERT_TRUE(params) << params.error().message;
    uint32_t visible = 0;
    for (const auto& b : scene_.bounds) visible += sieve::gpu::sieveInFrustum(b.sphere, *params);
    EXPECT_EQ(top.frustumVisible, visible);
    EXPECT_EQ(top.drawn(), visible);
    EXPECT_GT(visible, 0u);
    EXPECT_LT(visible, scene_.instances.size());
    // Pixels: equal outside the inset, different inside it.
    host2::OverheadView o;
    const VkViewport vp = o.viewport(kExtent);
    size_t outside = 0, inside = 0;
    std::set<uint32_t> colours;
    for (uint32_t y = 0; y < kExtent.height; ++y)
        for (uint32_t x = 0; x < kExtent.width; ++x) {
            const size_t i = (size_t(y) * kExtent.width + x) * 4;
            const bool in = x >= vp.x && y < vp.height;
            const bool differs = std::memcmp(&ref.pixels[i], &h2.pixels[i], 4) != 0;
            (in ? inside : outside) += differs;
            if (in) colours.insert(uint32_t(h2.pixels[i]) | h2.pixels[i + 1] << 8 | h2.pixels[i + 2] << 16);
        }
    EXPECT_EQ(outside, 0u) << "the inset must not change the camera's picture";
    EXPECT_GT(inside, size_t(vp.width * vp.height / 2));
    EXPECT_GT(colours.size(), 10u) << "the inset shows almost nothing";
}
