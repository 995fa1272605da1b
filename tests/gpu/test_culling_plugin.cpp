// The culling plugin end to end on the reference host (engine::SceneRenderer): stable draw order,
// repeatability, the atomic peer drawing the same set, the all-off path drawing everything, and culling
// that really culls at street level.
#include <algorithm>
#include <cstring>
#include <tuple>

#include "assets/glm_interop.h"
#include "assets/procedural_city.h"
#include "engine/scene/scene_renderer.h"
#include "engine/target/headless_target.h"
#include "gpu/gpu_fixture.h"
#include "gpu/test_render_frames.h"
#include "shared/draw.h"
#include "sieve/cull_flags.h"
#include "sieve/culling_tuning.h"
#include "sieve/hiz.h"

using testing_gpu::GpuTest;

namespace {

struct DrawList {
    sieve::gpu::DrawCounts counts{};
    std::vector<sieve::gpu::DrawCommand> draws;
};

class CullingPluginTest : public GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        ASSERT_NO_FATAL_FAILURE(take(sieve::assets::makeCity(3000, 7), scene_));
        ASSERT_NO_FATAL_FAILURE(
            take(engine::HeadlessTarget::create(ctx(), {{320, 180}, VK_FORMAT_R8G8B8A8_UNORM, 2}), target_));
        ASSERT_NO_FATAL_FAILURE(take(
            engine::SceneRenderer::create(ctx(), scene_, target_->colorFormat(), target_->extent(), {}), renderer_));
        pose_ = sieve::assets::defaultCityCamera();
    }
    void TearDown() override {
        if (target_) (void)target_->finish();
        renderer_.reset();
        target_.reset();
        GpuTest::TearDown();
    }

    void renderFrames(int n) { testing_gpu::renderFrames(*target_, *renderer_, pose_, n); }

    // From the street camera with the late pass split as `split`: `settle` frames, then one after a turn (the late
    // list holds what the turn revealed).
    void renderTurn(sieve::CullLayout::LateSplit split, int settle) {
        sieve::tuning(renderer_->plugin()).lateSplit = split;
        pose_ = sieve::assets::defaultCityCamera();
        renderFrames(settle);
        pose_.yaw += 0.6f;
        renderFrames(1);
    }

    // A renderer whose plugin declares the split late pass's candidate list (CullingTuning::lateSplit at create).
    void recreateWithLateSplit() {
        engine::SceneRendererOptions o;
        o.lateSplit = sieve::CullLayout::LateSplit::All;
        ASSERT_NO_FATAL_FAILURE(recreate(o));
    }

    void recreate(const engine::SceneRendererOptions& o) {
        (void)target_->finish();
        renderer_.reset();
        ASSERT_NO_FATAL_FAILURE(take(
            engine::SceneRenderer::create(ctx(), scene_, target_->colorFormat(), target_->extent(), o), renderer_));
    }

    // The list the last frame wrote (transient buffers keep the last frame's contents once idle).
    DrawList readList(bool late) {
        DrawList out;
        const sieve::SlotBinding* draws = renderer_->binding(late ? "draws.late" : "draws.early");
        const sieve::SlotBinding* counts = renderer_->binding(late ? "counts.late" : "counts.early");
        EXPECT_TRUE(draws && counts);
        if (!draws || !counts) return out;
        copyOut(counts->buffer, &out.counts, sizeof(out.counts));
        out.draws.resize(out.counts.count);
        copyOut(draws->buffer, out.draws.data(), out.draws.size() * sizeof(sieve::gpu::DrawCommand));
        return out;
    }

    // Instance order, and within an instance its mesh's primitives in order.
    static void expectStableOrder(const DrawList& list) {
        for (size_t i = 1; i < list.draws.size(); ++i) {
            const auto& a = list.draws[i - 1];
            const auto& b = list.draws[i];
            ASSERT_TRUE(a.firstInstance < b.firstInstance ||
                        (a.firstInstance == b.firstInstance && a.primitive < b.primitive))
                << "draw " << i << ": instance " << b.firstInstance << " primitive " << b.primitive
                << " after instance " << a.firstInstance << " primitive " << a.primitive;
        }
    }

    static bool sameDraws(const DrawList& a, const DrawList& b) {
        return a.draws.size() == b.draws.size() &&
               std::equal(a.draws.begin(), a.draws.end(), b.draws.begin(),
                          [](const auto& x, const auto& y) { return std::memcmp(&x, &y, sizeof(x)) == 0; });
    }

    sieve::assets::SceneData scene_;
    std::unique_ptr<engine::HeadlessTarget> target_;
    std::unique_ptr<engine::SceneRenderer> renderer_;
    sieve::assets::CameraPose pose_;
};

}  // namespace

TEST_F(CullingPluginTest, StableDrawListsAreInInstanceOrderAndIdenticalAcrossFrames) {
    renderFrames(4);
    DrawList early1 = readList(false), late1 = readList(true);
    ASSERT_GT(early1.counts.count, 0u) << "after a few frames at a fixed camera the early list holds the visible set";
    EXPECT_EQ(early1.counts.overflow, 0u);
    EXPECT_EQ(early1.counts.total, early1.counts.count);
    expectStableOrder(early1);
    expectStableOrder(late1);
    for (const auto& d : early1.draws) {
        EXPECT_EQ(d.instanceCount, 1u);
        EXPECT_LT(d.firstInstance, scene_.instances.size());
        const auto& mesh = scene_.meshes[scene_.instances[d.firstInstance].mesh];
        ASSERT_GE(d.primitive, mesh.firstPrimitive);
        ASSERT_LT(d.primitive, mesh.firstPrimitive + mesh.primitiveCount);
        const auto& prim = scene_.primitives[d.primitive];
        ASSERT_LT(d.lod, prim.lodCount);
        EXPECT_EQ(d.firstIndex, prim.lods[d.lod].firstIndex);
        EXPECT_EQ(d.indexCount, prim.lods[d.lod].indexCount);
        EXPECT_EQ(d.vertexOffset, prim.vertexOffset);
    }
    renderFrames(1);
    DrawList early2 = readList(false);
    EXPECT_TRUE(sameDraws(early1, early2)) << "the same camera must give byte-identical draw lists";
}

// The split late pass (every instance in view listed, then tested in a second dispatch; CullingTuning::lateSplit)
// draws byte-identical lists to the one-dispatch late pass, in a frame where the late list is not empty: the
// camera turns after the visible set settled.
TEST_F(CullingPluginTest, SplitLatePassDrawsTheSameLists) {
    using Split = sieve::CullLayout::LateSplit;
    ASSERT_NO_FATAL_FAILURE(recreateWithLateSplit());
    auto lists = [&](Split split) {
        renderTurn(split, 3);
        return std::pair{readList(false), readList(true)};
    };
    const auto [early1, late1] = lists(Split::Off);
    ASSERT_GT(late1.counts.count, 0u) << "the turn revealed nothing: the late pass is not tested";
    const auto [early2, late2] = lists(Split::All);
    EXPECT_TRUE(sameDraws(early1, early2));
    EXPECT_TRUE(sameDraws(late1, late2));
    const auto [early3, late3] = lists(Split::Adaptive);
    EXPECT_TRUE(sameDraws(early1, early3));
    EXPECT_TRUE(sameDraws(late1, late3));
}

// Draw marks (CullingTuning::drawMarks: the flag passes mark the groups of draw counts with a draw, the compactions
// read only those) draw byte-identical lists to a plugin without them, in two phases after a camera turn and in
// single phase (the early slot runs the late shader, marking its early counts).
TEST_F(CullingPluginTest, DrawMarksDrawTheSameLists) {
    using M = sieve::CullingTuning::DrawMarks;
    auto lists = [&](M marks, bool twoPhase) {
        engine::SceneRendererOptions o;
        o.drawMarks = marks;
        recreate(o);
        renderer_->plugin().toggles().twoPhase = twoPhase;
        renderTurn(sieve::CullLayout::LateSplit::Off, 3);
        return std::pair{readList(false), readList(true)};
    };
    for (bool twoPhase : {true, false}) {
        SCOPED_TRACE(twoPhase ? "two phases" : "single phase");
        const auto [early1, late1] = lists(M::Off, twoPhase);
        if (HasFatalFailure()) return;
        ASSERT_GT(early1.counts.count, 0u);
        if (twoPhase) {
            ASSERT_GT(late1.counts.count, 0u) << "the turn revealed nothing: the late list is not tested";
        }
        const auto [early2, late2] = lists(M::On, twoPhase);
        EXPECT_TRUE(sameDraws(early1, early2));
        EXPECT_TRUE(sameDraws(late1, late2));
        EXPECT_EQ(early1.counts.total, early2.counts.total);
        EXPECT_EQ(late1.counts.total, late2.counts.total);
    }
}

// The same in single phase, where the early pass runs the late shader (and so the split) against last frame's
// pyramid.
TEST_F(CullingPluginTest, SplitLatePassDrawsTheSameListsInSinglePhase) {
    using Split = sieve::CullLayout::LateSplit;
    ASSERT_NO_FATAL_FAILURE(recreateWithLateSplit());
    renderer_->plugin().toggles().twoPhase = false;
    auto list = [&](Split split) {
        renderTurn(split, 2);
        return readList(false);
    };
    const DrawList one = list(Split::Off);
    ASSERT_GT(one.counts.count, 0u);
    EXPECT_TRUE(sameDraws(one, list(Split::All)));
    EXPECT_TRUE(sameDraws(one, list(Split::Adaptive)));
}

TEST_F(CullingPluginTest, AtomicAppendDrawsTheSameSetInSomeOrder) {
    renderFrames(4);
    DrawList stable = readList(false);
    sieve::tuning(renderer_->plugin()).stable = false;
    renderFrames(2);
    DrawList atomic = readList(false);
    ASSERT_EQ(atomic.counts.count, stable.counts.count);
    auto key = [](const sieve::gpu::DrawCommand& d) { return std::tuple(d.firstInstance, d.primitive, d.lod); };
    auto sorted = [&](std::vector<sieve::gpu::DrawCommand> v) {
        std::sort(v.begin(), v.end(), [&](const auto& a, const auto& b) { return key(a) < key(b); });
        return v;
    };
    auto a = sorted(atomic.draws), s = sorted(stable.draws);
    for (size_t i = 0; i < s.size(); ++i) ASSERT_EQ(key(a[i]), key(s[i])) << i;
}

TEST_F(CullingPluginTest, EverythingOffDrawsEveryInstance) {
    auto& t = renderer_->plugin().toggles();
    t.frustum = t.occlusion = t.lod = false;
    renderFrames(3);
    DrawList early = readList(false), late = readList(true);
    EXPECT_EQ(uint64_t(early.counts.count) + late.counts.count, renderer_->scene().drawsIfAllVisible);
    EXPECT_EQ(early.counts.overflow + late.counts.overflow, 0u);
    for (const auto& d : early.draws) EXPECT_EQ(d.lod, 0u);
}

TEST_F(CullingPluginTest, CullingRemovesMostInstancesAtStreetLevel) {
    renderFrames(6);
    const sieve::CullingStats& s = renderer_->plugin().stats();
    ASSERT_TRUE(s.valid);
    const uint32_t drawn = s.earlyDrawn + s.lateDrawn;
    EXPECT_EQ(s.instances, scene_.instances.size());
    EXPECT_LT(s.frustumVisible, s.instances);
    EXPECT_LE(2 * drawn, s.instances) << "culling should remove at least half of the instances";
    EXPECT_LT(drawn, s.frustumVisible) << "occlusion should remove some of the frustum-visible instances";
}

TEST_F(CullingPluginTest, OverflowIsClampedAndCounted) {
    // Rebuild with a tiny capacity.
    renderer_.reset();
    auto renderer =
        engine::SceneRenderer::create(ctx(), scene_, target_->colorFormat(), target_->extent(), {.drawCapacity = 64});
    ASSERT_TRUE(renderer) << renderer.error().message;
    renderer_ = std::move(renderer).value();
    auto& t = renderer_->plugin().toggles();
    t.frustum = t.occlusion = false;
    renderFrames(3);
    DrawList early = readList(false), late = readList(true);
    EXPECT_EQ(early.counts.count + late.counts.count, 64u + std::min<uint32_t>(late.counts.total, 64u));
    EXPECT_EQ(uint64_t(early.counts.total) + late.counts.total, renderer_->scene().drawsIfAllVisible);
    EXPECT_EQ(early.counts.overflow, early.counts.total - early.counts.count);
    expectStableOrder(early);
    ASSERT_FALSE(early.draws.empty());
    EXPECT_EQ(early.draws.front().firstInstance, 0u) << "a full list keeps the first draws in instance order";
}

// The draw distance (CullView::drawDistance) culls exactly the instances the CPU reference puts beyond
// it (in the frustum and wholly farther: shared/cull.h), and the other tests keep the picture it leaves:
// every test on draws what the distance test alone draws, pixel for pixel. Without the distance more is
// drawn (it did remove something visible).
TEST_F(CullingPluginTest, DrawDistanceCullsTheFarAndTheOtherTestsKeepThePicture) {
    constexpr float kDistance = 30.0f;
    auto& t = renderer_->plugin().toggles();
    t.lod = false;
    renderer_->setDrawDistance(kDistance);
    auto picture = [&] {
        renderFrames(6);
        auto px = target_->readbackPixels();
        EXPECT_TRUE(px) << px.error().message;
        return px ? std::move(px).value() : std::vector<uint8_t>{};
    };
    const std::vector<uint8_t> all = picture();
    const sieve::CullingStats s = renderer_->plugin().stats();
    ASSERT_TRUE(s.valid);
    const VkExtent2D e = target_->extent();
    sieve::CullSettings settings;
    settings.drawDistance = kDistance;
    auto params = sieve::makeCullParams(
        {sieve::assets::viewMatrix(pose_),
         sieve::toGlm(sieve::perspectiveReverseZ(glm::radians(60.0f), float(e.width) / float(e.height), 0.1f)),
         {0.0f, 0.0f, float(e.width), float(e.height), 0.0f, 1.0f}},
        sieve::HiZBuilder::pyramidExtent(e), 1, uint32_t(scene_.instances.size()), settings);
    ASSERT_TRUE(params) << params.error().message;
    uint32_t inView = 0, beyond = 0;
    for (const sieve::gpu::InstanceBounds& b : scene_.bounds) {
        if (!sieve::gpu::sieveInFrustum(b.sphere, *params)) continue;
        const bool within = sieve::gpu::sieveWithinDrawDistance(b.sphere, 0.0f, *params);  // view's distance only
        inView += within;
        beyond += !within;
    }
    EXPECT_EQ(s.frustumVisible, inView);
    EXPECT_EQ(s.views[0].culled[sieve::gpu::SIEVE_TEST_DISTANCE], beyond);
    EXPECT_EQ(s.views[0].culled[sieve::gpu::SIEVE_TEST_FRUSTUM], s.instances - inView - beyond);
    EXPECT_EQ(s.views[0].culled[sieve::gpu::SIEVE_TEST_OCCLUSION], s.frustumVisible - s.lateVisible);
    EXPECT_GT(beyond, 0u) << "the distance must cull something at street level";

    t.frustum = t.occlusion = false;
    const std::vector<uint8_t> distanceOnly = picture();
    ASSERT_EQ(all.size(), distanceOnly.size());
    EXPECT_TRUE(all == distanceOnly) << "frustum and occlusion culling changed the picture the distance leaves";

    renderer_->setDrawDistance(0.0f);
    const std::vector<uint8_t> unlimited = picture();
    EXPECT_FALSE(unlimited == distanceOnly) << "the draw distance removed nothing visible";
}
