// The culling plugin on a multisampled depth (CullingConfig::depthSamples), driven by a small host of
// its own (the engine's render graph, the depth imported as the host drew it). A wall covers the middle
// of the view; in a block of its pixels every sample but sample 0 sees through it. Spheres behind the
// wall are culled, those seen through the block's samples never are (the pyramid reduces every sample),
// and the false-culling check tests every sample: with planted errors it counts what the CPU reference
// counts on the same depth.
#include <algorithm>
#include <string>

#include "engine/graph/compile.h"
#include "engine/graph/executor.h"
#include "engine/graph/graph_desc.h"
#include "gpu/gpu_fixture.h"
#include "gpu/test_cull_flags_util.h"
#include "gpu/test_hiz_util.h"
#include "shared/cull_state.h"
#include "sieve/culling.h"
#include "sieve/culling_tuning.h"
#include "sieve/hiz.h"

using testing_gpu::GpuTest;

namespace {

constexpr VkExtent2D kExtent{96, 64};
constexpr testing_cull::Wall kWall{16, 8, 80, 56, 5.0f};
constexpr testing_cull::Wall kHole{40, 24, 52, 36, 0.0f};  // pixels whose samples 1.. see through the wall

class CullingMultisampledTest : public GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        const VkSampleCountFlags counts = ctx().info().limits.sampledImageDepthSampleCounts &
                                          ctx().info().limits.framebufferDepthSampleCounts & ~VK_SAMPLE_COUNT_1_BIT;
        if (!counts) GTEST_SKIP() << "the device samples no multisampled depth";
        samples_ = counts & ~(counts - 1);  // the smallest count
        camera_ = testing_cull::makeCamera(float(kExtent.width) / float(kExtent.height));
        makeDepth();
        makeScene();
        sieve::CullingConfig config;
        config.maxInstances = uint32_t(instances_.size());
        config.viewport = kExtent;
        config.depthSamples = VkSampleCountFlagBits(samples_);
        config.instanceState = true;  // read back below
        auto plugin = sieve::CullingPlugin::create(ctx().info(), config);
        ASSERT_TRUE(plugin) << plugin.error().message;
        plugin_ = std::move(plugin).value();
        ASSERT_TRUE(plugin_->setView(camera_.desc(kExtent)));
        buildGraph();
    }

    // Sample s of pixel p: the wall's depth, except samples 1.. of the hole's pixels (the clear depth).
    void makeDepth() {
        const std::vector<float> wall = testing_cull::makeWallDepth(kExtent.width, kExtent.height, camera_, {kWall});
        depth_.resize(wall.size() * samples_);
        for (uint32_t y = 0; y < kExtent.height; ++y)
            for (uint32_t x = 0; x < kExtent.width; ++x) {
                const size_t p = size_t(y) * kExtent.width + x;
                const bool hole = x >= kHole.x0 && x < kHole.x1 && y >= kHole.y0 && y < kHole.y1;
                for (uint32_t s = 0; s < samples_; ++s)
                    depth_[p * samples_ + s] = hole && s > 0 ? camera_.clearDepth() : wall[p];
            }
        images_ = testing_gpu::makeDepthAndPyramid(ctx(), kExtent, depth_, VK_FORMAT_D32_SFLOAT, samples_);
        ASSERT_TRUE(images_.depth);
    }

    // One plane of the depth: sample s of every pixel.
    std::vector<float> plane(uint32_t s) const {
        std::vector<float> out(depth_.size() / samples_);
        for (size_t p = 0; p < out.size(); ++p) out[p] = depth_[p * samples_ + s];
        return out;
    }

    // Small spheres on a grid behind the wall (distance 9), one mesh of one primitive.
    void makeScene() {
        sieve::gpu::Mesh mesh{};
        mesh.sphere = sieve::gpu::vec4(0, 0, 0, 1);
        mesh.primitiveCount = 1;
        sieve::gpu::MeshPrimitive prim{};
        prim.lodCount = 1;
        // A grid of spheres of radius r, `step` apart, at distance 9 (translations only).
        auto grid = [&](int half, int halfY, float step, float r) {
            for (int y = -halfY; y <= halfY; ++y)
                for (int x = -half; x <= half; ++x) {
                    sieve::gpu::Instance inst{};
                    inst.rows[0] = {1, 0, 0, step * x};
                    inst.rows[1] = {0, 1, 0, step * y};
                    inst.rows[2] = {0, 0, 1, -9.0f};
                    inst.scale = 1.0f;
                    instances_.push_back(inst);
                    bounds_.push_back({{step * x, step * y, -9.0f, r}});
                }
        };
        grid(11, 7, 0.6f, 0.15f);
        // Larger spheres around the hole: some straddle its edges, so that a shrunk radius (the planted
        // errors) culls spheres that only samples 1.. see.
        grid(4, 4, 0.5f, 0.45f);
        auto upload = [&](const auto& v) { return makeBuffer(v, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT); };
        instanceBuffer_ = upload(instances_);
        boundsBuffer_ = upload(bounds_);
        meshBuffer_ = upload(std::vector{mesh});
        primitiveBuffer_ = upload(std::vector{prim});
    }

    // The plugin's passes alone; the depth imported in SHADER_READ_ONLY_OPTIMAL (drawn and synchronised
    // before the frames).
    void buildGraph() {
        engine::graph::GraphBuilder g;
        const sieve::SlotDesc depth =
            sieve::imageSlot("host.depth", sieve::Lifetime::Imported, VK_FORMAT_D32_SFLOAT, kExtent, 1,
                             VK_IMAGE_USAGE_SAMPLED_BIT, VkSampleCountFlagBits(samples_));
        const engine::graph::AccessState readable{VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                                                  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        const sieve::SlotId depthSlot = g.addSlot(depth, {readable, readable});
        auto map = g.addPlugin(*plugin_, {{sieve::CullingPlugin::kDepth, depthSlot}});
        ASSERT_TRUE(map) << map.error().message;
        map_ = std::move(map).value();
        auto compiled = engine::graph::compile(g);
        ASSERT_TRUE(compiled) << compiled.error().message;
        auto ex =
            engine::graph::GraphExecutor::create(ctx(), std::move(compiled).value(), plugin_->config().framesInFlight);
        ASSERT_TRUE(ex) << ex.error().message;
        executor_ = std::move(ex).value();
        sieve::SlotBinding d;
        d.image = images_.depth.handle();
        d.view = images_.depth.view();
        d.extent = kExtent;
        d.mipViews = {d.view};
        ASSERT_TRUE(executor_->bindImported(depthSlot, d));
        for (auto [name, buffer] : {std::pair{sieve::CullingPlugin::kInstances, &instanceBuffer_},
                                    std::pair{sieve::CullingPlugin::kBounds, &boundsBuffer_},
                                    std::pair{sieve::CullingPlugin::kMeshes, &meshBuffer_},
                                    std::pair{sieve::CullingPlugin::kPrimitives, &primitiveBuffer_}}) {
            sieve::SlotBinding b;
            b.buffer = buffer->handle();
            b.size = buffer->size();
            ASSERT_TRUE(executor_->bindImported(map_[plugin_->slot(name)], b));
        }
    }

    void runFrames(int n) {
        for (int i = 0; i < n; ++i, ++frame_) {
            const sieve::FrameInfo info{frame_, uint32_t(frame_ % plugin_->config().framesInFlight),
                                        plugin_->config().framesInFlight};
            ASSERT_TRUE(plugin_->prepare(info));
            auto r = ctx().submitNow([&](VkCommandBuffer cmd) { ASSERT_TRUE(executor_->execute(cmd, info)); });
            ASSERT_TRUE(r) << r.error().message;
            ASSERT_EQ(plugin_->lastError(), "");
        }
    }

    std::vector<uint32_t> state() {
        std::vector<uint32_t> out(instances_.size());
        copyOut(executor_->binding(map_[plugin_->slot(sieve::CullingPlugin::kInstanceState)]).buffer, out.data(),
                out.size() * 4);
        return out;
    }

    static bool occlusionCulled(uint32_t s) {
        return (s & sieve::gpu::SIEVE_STATE_KIND_MASK) == sieve::gpu::SIEVE_STATE_OCCLUSION_CULLED;
    }

    uint32_t samples_ = 1;
    testing_cull::Camera camera_;
    std::vector<float> depth_;
    testing_gpu::DepthPyramidImages images_;
    std::vector<sieve::gpu::Instance> instances_;
    std::vector<sieve::gpu::InstanceBounds> bounds_;
    engine::Buffer instanceBuffer_, boundsBuffer_, meshBuffer_, primitiveBuffer_;
    std::unique_ptr<sieve::CullingPlugin> plugin_;
    std::vector<sieve::SlotId> map_;
    std::unique_ptr<engine::graph::GraphExecutor> executor_;
    uint64_t frame_ = 0;
};

}  // namespace

TEST_F(CullingMultisampledTest, SpheresSeenThroughAnySampleAreKept) {
    EXPECT_FALSE(plugin_->paths().singleDispatchHiZ);
    plugin_->toggles().lod = false;
    runFrames(3);
    if (HasFatalFailure()) return;
    const std::vector<uint32_t> st = state();
    std::vector<std::vector<float>> planes;
    for (uint32_t s = 0; s < samples_; ++s) planes.push_back(plane(s));
    uint32_t culled = 0, throughTheHole = 0;
    for (size_t i = 0; i < instances_.size(); ++i) {
        bool visible = false;
        for (const auto& p : planes)
            visible = visible ||
                      testing_cull::sphereMayBeVisible(bounds_[i].sphere, camera_, p, kExtent.width, kExtent.height);
        const bool sample0 =
            testing_cull::sphereMayBeVisible(bounds_[i].sphere, camera_, planes[0], kExtent.width, kExtent.height);
        throughTheHole += visible && !sample0;
        culled += occlusionCulled(st[i]);
        EXPECT_FALSE(visible && occlusionCulled(st[i])) << "instance " << i << " shows through a sample but was culled";
    }
    EXPECT_GT(culled, 20u) << "the wall must occlude";
    EXPECT_GT(throughTheHole, 0u) << "the scene must have spheres only samples 1.. see";
}

TEST_F(CullingMultisampledTest, FalseCullingCheckTestsEverySample) {
    auto& t = plugin_->toggles();
    t.lod = false;
    t.checkCulling = true;
    sieve::tuning(*plugin_).debugRadiusShrink =
        0.9f;  // planted false culls: spheres peeking out of the wall's edges and the hole
    runFrames(5);
    if (HasFatalFailure()) return;
    const sieve::CullingStats& s = plugin_->stats();
    ASSERT_TRUE(s.valid && s.falselyCulledValid);
    const std::vector<uint32_t> st = state();
    const VkExtent2D pyr = sieve::HiZBuilder::pyramidExtent(kExtent);
    auto params = sieve::makeCullParams(camera_.desc(kExtent), pyr, sieve::HiZBuilder::mipCount(pyr),
                                        uint32_t(instances_.size()), {});
    ASSERT_TRUE(params) << params.error().message;
    uint32_t falsely = 0, falselySample0 = 0;
    const std::vector<float> sample0 = plane(0);
    for (size_t i = 0; i < instances_.size(); ++i) {
        if (!occlusionCulled(st[i])) continue;
        falsely += sieve::falselyCulledReference(bounds_[i].sphere, *params, kExtent, depth_, samples_);
        falselySample0 += sieve::falselyCulledReference(bounds_[i].sphere, *params, kExtent, sample0);
    }
    EXPECT_GT(falsely, falselySample0) << "the planted errors must include spheres only samples 1.. see";
    EXPECT_EQ(s.falselyCulled, falsely);
}
