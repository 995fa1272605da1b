// Flag shaders against the CPU references (exact), a designed occlusion scene, and the property that
// no sphere with a visible pixel is culled by the GPU occlusion test.
#include <algorithm>
#include <optional>
#include <random>
#include <utility>

#include "gpu/test_cull_flags_util.h"
#include "gpu/test_hiz_util.h"
#include "shared/draw_push.h"

using testing_cull::vec4;
using testing_gpu::GpuTest;

namespace {

using Frame = testing_cull::CullFrame;

struct GpuResult {
    std::vector<uint32_t> earlyFlags, earlyDraws, earlyLods, lateFlags, lateDraws, lateLods, visibleLast, state;
    std::vector<uint32_t> candidates;             // the split late pass's header: dispatch x, y, z, each list's count
    std::vector<uint32_t> earlyMarks, lateMarks;  // the draw marks (`marks`), starting as kUntouched
    sieve::gpu::CullCounters counters{};
};

class CullFlagsTest : public GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        ASSERT_NO_FATAL_FAILURE(take(sieve::CullFlagPass::create(ctx().info()), pass));
        ASSERT_NO_FATAL_FAILURE(take(sieve::HiZBuilder::create(ctx().info()), hiz));
    }

    // Runs early flags, the Hi-Z build of frame.depth, and late flags, in one command buffer. lateFlags false:
    // the late shader is asked not to write its flags (CullLayout::lateFlags), whose buffer starts as
    // kUntouched.
    // state false: nor its state (CullLayout::state), whose buffer starts as kUntouched too. rounds: the early
    // shader's instances per invocation (CullLayout::earlyRounds). earlyFlags false: nor the early shader its flags
    // (CullLayout::earlyFlags, the plugin's choice: the late shader derives them), whose buffer starts as
    // kUntouched as well.
    GpuResult run(const testing_cull::RandomScene& scene, const Frame& frame, bool lateFlags = true, bool state = true,
                  sieve::CullLayout::EarlyRounds rounds = sieve::CullLayout::EarlyRounds::Auto,
                  bool earlyFlags = true) {
        const uint32_t n = frame.params.instanceCount;
        engine::Buffer params = makeBuffer(std::vector<sieve::gpu::CullParams>{frame.params},
                                           VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, "cull params");
        engine::Buffer instances = makeBuffer(scene.instances), bounds = makeBuffer(scene.bounds),
                       meshes = makeBuffer(scene.meshes), primitives = makeBuffer(scene.primitives);
        engine::Buffer visibleLast = makeBuffer(frame.visibleLast);
        engine::Buffer flagsL = makeBuffer(std::vector<uint32_t>(n, kUntouched));
        engine::Buffer flagsE = makeBuffer(std::vector<uint32_t>(n, kUntouched));
        engine::Buffer drawsE = makeEmpty(n * 4), drawsL = makeEmpty(n * 4), lodsE = makeEmpty(n * 4),
                       lodsL = makeEmpty(n * 4);
        engine::Buffer stateOut = makeBuffer(std::vector<uint32_t>(n, kUntouched));
        engine::Buffer counters =
            makeBuffer(std::vector<sieve::gpu::CullCounterStripe>(sieve::gpu::SIEVE_CULL_COUNTER_STRIPES));
        engine::Buffer occlusion =
            makeBuffer(std::vector<sieve::gpu::CullParams>{frame.occlusion.value_or(frame.params)},
                       VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, "occlusion camera");
        // The split late pass's list (`split`), its words starting as garbage: the pass resets them.
        engine::Buffer candidates =
            makeBuffer(std::vector<uint32_t>(sieve::cullCandidateBytes(n) / 4, kUntouched),
                       VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "candidates");
        const size_t markWords = (n + sieve::gpu::SIEVE_DRAW_MARK_KEYS - 1) / sieve::gpu::SIEVE_DRAW_MARK_KEYS;
        engine::Buffer marksE = makeBuffer(std::vector<uint32_t>(markWords + 1, kUntouched)),
                       marksL = makeBuffer(std::vector<uint32_t>(markWords + 1, kUntouched));
        auto images = testing_gpu::makeDepthAndPyramid(ctx(), frame.depthExtent, frame.depth);
        EXPECT_TRUE(images.pyramid);
        sieve::CullPhaseBuffers early{params.range(),     instances.range(),   bounds.range(), meshes.range(),
                                      primitives.range(), visibleLast.range(), flagsE.range(), drawsE.range(),
                                      lodsE.range(),      counters.range()};
        sieve::CullPhaseBuffers late = early;
        late.flags = flagsL.range();
        late.drawCounts = drawsL.range();
        late.lods = lodsL.range();
        sieve::CullLayout earlyLayout{n, 1, 1, true, true, rounds, earlyFlags};
        sieve::CullLayout lateL = lateLayout(n, lateFlags, state);
        if (marks) {  // exactly the marks of n keys: the word past them stays kUntouched
            early.drawMarks = marksE.range(0, markWords * 4);
            late.drawMarks = marksL.range(0, markWords * 4);
            earlyLayout.markEpoch = kEarlyEpoch;
            lateL.markEpoch = kLateEpoch;
        }
        auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
            pass.recordEarly(cmd, early, earlyLayout);
            auto built = hiz.recordPerMip(cmd, images.source(), images.target());
            EXPECT_TRUE(built) << built.error().message;
            // Early -> late: visibleLast read then written, lodsE written then read, counters atomics.
            VkMemoryBarrier2 mem{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
            mem.srcStageMask = mem.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
            mem.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
            mem.dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
            VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
            dep.memoryBarrierCount = 1;
            dep.pMemoryBarriers = &mem;
            vkCmdPipelineBarrier2(cmd, &dep);
            testing_gpu::imageBarrier(cmd, images.pyramid.handle(), VK_IMAGE_ASPECT_COLOR_BIT,
                                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                                      VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                      VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
            pass.recordLate(
                cmd, late,
                {lodsE.range(), stateOut.range(), images.pyramid.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                 frame.occlusion ? occlusion.range() : sieve::BufferRange{},
                 split ? candidates.range() : sieve::BufferRange{}},
                lateL);
        });
        EXPECT_TRUE(r) << r.error().message;
        GpuResult g;
        g.earlyFlags = read<uint32_t>(flagsE, n);
        g.earlyDraws = read<uint32_t>(drawsE, n);
        g.earlyLods = read<uint32_t>(lodsE, n);
        g.lateFlags = read<uint32_t>(flagsL, n);
        g.lateDraws = read<uint32_t>(drawsL, n);
        g.lateLods = read<uint32_t>(lodsL, n);
        g.visibleLast = read<uint32_t>(visibleLast, n);
        g.state = read<uint32_t>(stateOut, n);
        g.candidates = read<uint32_t>(candidates, sieve::gpu::SIEVE_CULL_CANDIDATE_HEADER_WORDS);
        g.earlyMarks = read<uint32_t>(marksE, markWords + 1);
        g.lateMarks = read<uint32_t>(marksL, markWords + 1);
        auto c = sieve::sumCounterStripes(
            read<sieve::gpu::CullCounterStripe>(counters, sieve::gpu::SIEVE_CULL_COUNTER_STRIPES));
        if (!c.empty()) g.counters = c[0];
        return g;
    }

    // The whole frame on the CPU, compared field by field (the late flags only where they were written).
    void expectMatchesReference(const testing_cull::RandomScene& scene, const Frame& frame, const GpuResult& g,
                                bool lateFlags = true, bool state = true, bool earlyFlags = true) {
        const uint32_t n = frame.params.instanceCount;
        const sieve::HiZPyramidCpu pyramid = sieve::hizReference(frame.depthExtent, frame.depth);
        sieve::gpu::CullCounters counters{};
        auto early = sieve::cullEarlyReference(frame.params, scene.view(), frame.visibleLast, counters);
        std::vector<uint32_t> visibleLast = frame.visibleLast;
        auto late = sieve::cullLateReference({&frame.params, 1}, 1, scene.view(), early.lods, &pyramid, visibleLast,
                                             {&counters, 1}, frame.occlusion ? &*frame.occlusion : nullptr);
        const bool twoPhase = frame.params.toggles & sieve::gpu::SIEVE_CULL_TWO_PHASE;
        for (uint32_t i = 0; i < n; ++i) {
            const vec4 s = scene.bounds[i].sphere;
            // Early flags only for a two-phase view, LODs only where flagged: the rest is not written.
            if (twoPhase) {
                ASSERT_EQ(g.earlyFlags[i], earlyFlags ? early.flags[i] : kUntouched)
                    << "early flag " << i << " sphere " << s.x << " " << s.y << " " << s.z << " " << s.w;
            }
            ASSERT_EQ(g.earlyDraws[i], early.drawCounts[i]) << i;
            if (early.flags[i]) {
                ASSERT_EQ(g.earlyLods[i], early.lods[i]) << "early lod " << i;
            }
            ASSERT_EQ(g.lateFlags[i], lateFlags ? late.flags[i] : kUntouched)
                << "late flag " << i << " sphere " << s.x << " " << s.y << " " << s.z << " " << s.w;
            ASSERT_EQ(g.lateDraws[i], late.drawCounts[i]) << i;
            if (late.flags[i]) {
                ASSERT_EQ(g.lateLods[i], late.lods[i]) << "late lod " << i;
            }
            ASSERT_EQ(g.visibleLast[i], visibleLast[i]) << "visibleLast " << i;
            ASSERT_EQ(g.state[i], state ? late.state[i] : kUntouched) << "state " << i;
        }
        EXPECT_EQ(g.counters.frustumVisible, counters.frustumVisible);
        EXPECT_EQ(g.counters.earlyDrawn, counters.earlyDrawn);
        EXPECT_EQ(g.counters.lateVisible, counters.lateVisible);
        EXPECT_EQ(g.counters.lateDrawn, counters.lateDrawn);
        EXPECT_EQ(g.counters.distanceCulled, counters.distanceCulled);
    }

    Frame makeFrame(const testing_cull::Camera& cam, VkExtent2D depthExtent, std::vector<float> depth, uint32_t n,
                    uint32_t toggles, uint32_t seed, float drawDistance = kDrawDistance) {
        sieve::CullSettings settings;
        // The random scenes carry instance cull distances: read wherever the distance test runs.
        settings.toggles = toggles | sieve::gpu::SIEVE_CULL_INSTANCE_DISTANCE;
        settings.lodThreshold = 2.0f;
        settings.drawDistance = drawDistance;
        return testing_cull::makeCullFrame(cam, depthExtent, std::move(depth), n, settings, seed);
    }

    // A random scene of n instances (seed) and its frame behind five random walls, seen by the test camera at
    // 160x90.
    std::pair<testing_cull::RandomScene, Frame> wallScene(uint32_t n, uint32_t toggles, uint32_t seed) {
        const VkExtent2D extent{160, 90};
        std::mt19937 rng(seed);
        auto cam = testing_cull::makeCamera(float(extent.width) / extent.height, {1, 2, 3}, {-4, 1, -20});
        auto depth = testing_cull::makeWallDepth(extent.width, extent.height, cam,
                                                 testing_cull::randomWalls(extent.width, extent.height, 5, rng));
        return {testing_cull::makeRandomScene(n, seed), makeFrame(cam, extent, depth, n, toggles, seed)};
    }

    // A random scene of n behind random walls, two-phase and single-phase, its late shader writing its flags
    // and state or not, against the reference (what it does not write left as kUntouched).
    void expectLateOutputsBehindWalls(bool lateFlags, bool state, uint32_t seed, uint32_t n) {
        using namespace sieve::gpu;
        for (uint32_t toggles : {uint32_t(SIEVE_CULL_ALL), uint32_t(SIEVE_CULL_ALL & ~SIEVE_CULL_TWO_PHASE)}) {
            SCOPED_TRACE("toggles " + std::to_string(toggles));
            auto [scene, frame] = wallScene(n, toggles, seed);
            GpuResult g = run(scene, frame, lateFlags, state);
            expectMatchesReference(scene, frame, g, lateFlags, state);
            if (HasFatalFailure()) return;
            EXPECT_GT(g.counters.lateVisible, 0u);
        }
    }

    // Each group of SIEVE_DRAW_MARK_KEYS draw counts with a non-zero one has its mark set to `epoch`, the others'
    // marks and the word past the marks are untouched.
    static void expectMarks(const std::vector<uint32_t>& draws, const std::vector<uint32_t>& marks, uint32_t epoch) {
        const size_t group = sieve::gpu::SIEVE_DRAW_MARK_KEYS;
        ASSERT_EQ(marks.size(), (draws.size() + group - 1) / group + 1);
        for (size_t m = 0; m + 1 < marks.size(); ++m) {
            const bool any =
                std::any_of(draws.begin() + m * group, draws.begin() + std::min(draws.size(), (m + 1) * group),
                            [](uint32_t x) { return x != 0; });
            ASSERT_EQ(marks[m], any ? epoch : kUntouched) << "group " << m;
        }
        ASSERT_EQ(marks.back(), kUntouched) << "past the marks";
    }

    // The view's draw distance: within the random scenes' extent (60), so that it culls some of them.
    static constexpr float kDrawDistance = 40.0f;
    static constexpr uint32_t kUntouched = 0xdeadbeefu;
    // run() gives the late pass its candidate list (CullLateBuffers::candidates), as the plugin does, and splits
    // it as `lateSplit` says.
    bool split = false;
    // run() gives both passes draw marks (CullPhaseBuffers::drawMarks) and these epochs.
    bool marks = false;
    static constexpr uint32_t kEarlyEpoch = 9, kLateEpoch = 10;
    sieve::CullLayout::LateSplit lateSplit = sieve::CullLayout::LateSplit::Auto;
    sieve::CullLayout lateLayout(uint32_t n, bool lateFlags, bool state) const {
        sieve::CullLayout l{n, 1, 1, lateFlags, state};
        l.lateSplit = lateSplit;
        return l;
    }
    sieve::CullFlagPass pass;
    sieve::HiZBuilder hiz;
};

}  // namespace

TEST_F(CullFlagsTest, RandomScenesMatchTheReferenceForEveryToggleSet) {
    using namespace sieve::gpu;
    const uint32_t toggleSets[] = {SIEVE_CULL_ALL,
                                   SIEVE_CULL_ALL & ~SIEVE_CULL_OCCLUSION,
                                   SIEVE_CULL_ALL & ~SIEVE_CULL_TWO_PHASE,
                                   SIEVE_CULL_ALL & ~SIEVE_CULL_LOD,
                                   SIEVE_CULL_ALL & ~SIEVE_CULL_FRUSTUM,
                                   SIEVE_CULL_ALL & ~SIEVE_CULL_DISTANCE,
                                   0u};
    uint32_t seed = 40;
    for (uint32_t toggles : toggleSets) {
        SCOPED_TRACE("toggles " + std::to_string(toggles));
        const uint32_t n = 2000 + seed;  // not a multiple of the group or subgroup size
        auto [scene, frame] = wallScene(n, toggles, seed);
        GpuResult g = run(scene, frame);
        expectMatchesReference(scene, frame, g);
        if (HasFatalFailure()) return;
        if (toggles == SIEVE_CULL_ALL) {
            EXPECT_GT(g.counters.frustumVisible, 0u);
            EXPECT_LT(g.counters.frustumVisible, n);
            EXPECT_LT(g.counters.lateVisible, g.counters.frustumVisible) << "nothing was occluded";
            EXPECT_GT(g.counters.distanceCulled, 0u) << "nothing was beyond the draw distance";
        }
        if (toggles == 0u) {
            EXPECT_EQ(g.counters.lateDrawn, n);  // everything off: every instance drawn
        }
        ++seed;
    }
}

TEST_F(CullFlagsTest, FoldedDispatchCoversEveryInstance) {
    const VkExtent2D extent{64, 64};
    const uint32_t n = 64 * 37 + 5;  // 38 groups, folded into 5 x 8 with 2 spare groups
    auto scene = testing_cull::makeRandomScene(n, 3);
    auto cam = testing_cull::makeCamera(1.0f);
    Frame frame = makeFrame(cam, extent, std::vector<float>(64 * 64, 0.0f), n, sieve::gpu::SIEVE_CULL_ALL, 3);
    sieve::overrideMaxGroupsX(5);
    GpuResult g = run(scene, frame);
    sieve::overrideMaxGroupsX(0);
    expectMatchesReference(scene, frame, g);
}

// Four instances per invocation of the early shader (what the plugin picks from kEarlyRoundsFrom instances on), at
// sizes around its 512-instance workgroups, two-phase and single-phase, also with the dispatch folded into rows.
TEST_F(CullFlagsTest, FourInstancesPerEarlyInvocationMatchTheReference) {
    using namespace sieve::gpu;
    using Rounds = sieve::CullLayout::EarlyRounds;
    uint32_t seed = 70;
    for (const uint32_t n : {1u, 127u, 129u, 511u, 512u, 513u, 3u * 512u + 130u}) {
        for (uint32_t toggles : {uint32_t(SIEVE_CULL_ALL), uint32_t(SIEVE_CULL_ALL & ~SIEVE_CULL_TWO_PHASE)}) {
            for (const uint32_t maxGroupsX : {0u, 2u}) {
                SCOPED_TRACE("n " + std::to_string(n) + " toggles " + std::to_string(toggles) + " rows of " +
                             std::to_string(maxGroupsX));
                auto [scene, frame] = wallScene(n, toggles, seed++);
                sieve::overrideMaxGroupsX(maxGroupsX);
                GpuResult g = run(scene, frame, true, true, Rounds::Four);
                sieve::overrideMaxGroupsX(0);
                expectMatchesReference(scene, frame, g);
                if (HasFatalFailure()) return;
            }
        }
    }
}

// A wall at distance 10 covering the middle of the screen, and objects placed around it.
TEST_F(CullFlagsTest, WallSceneCullsWhatIsHiddenAndKeepsTheRest) {
    const VkExtent2D extent{200, 113};
    auto cam = testing_cull::makeCamera(float(extent.width) / extent.height);
    auto depth = testing_cull::makeWallDepth(extent.width, extent.height, cam, {{50, 28, 150, 85, 10.0f}});
    struct Case {
        vec4 sphere;
        uint32_t visible;
        const char* what;
    };
    const Case cases[] = {
        {{0, 0, -30, 1}, 0, "behind the wall"},
        {{1, -1, -12, 0.5f}, 0, "just behind the wall"},
        {{0, 0, -5, 1}, 1, "in front of the wall"},
        {{0, 0, -10.4f, 0.5f}, 1, "through the wall"},
        {{10.2f, 0, -20, 1}, 1, "half behind the wall edge (x = 10.2 at d = 20)"},
        {{14, 0, -20, 1}, 1, "beside the wall"},
        {{0, 0, 20, 1}, 0, "behind the camera (frustum)"},
        {{0, 0, -0.6f, 0.3f}, 1, "crossing the near plane"},
        {{0, 30, -20, 1}, 0, "above the view (frustum)"},
    };
    testing_cull::RandomScene scene = testing_cull::makeRandomScene(0, 1);
    for (const Case& c : cases) {
        sieve::gpu::Instance inst{};
        inst.scale = 1.0f;
        scene.add(inst, c.sphere);
    }
    const uint32_t n = uint32_t(scene.instances.size());
    Frame frame = makeFrame(cam, extent, depth, n, sieve::gpu::SIEVE_CULL_ALL & ~sieve::gpu::SIEVE_CULL_TWO_PHASE, 1);
    GpuResult g = run(scene, frame);
    for (uint32_t i = 0; i < n; ++i) {
        EXPECT_EQ(g.lateFlags[i], cases[i].visible) << cases[i].what;
        EXPECT_EQ(g.earlyDraws[i], 0u) << "two-phase off: the early phase draws nothing";
        EXPECT_EQ(g.lateDraws[i], cases[i].visible * scene.meshes[0].primitiveCount) << cases[i].what;
    }
    expectMatchesReference(scene, frame, g);
}

// Property: no sphere culled by the GPU occlusion test has a pixel where it would pass the depth test.
TEST_F(CullFlagsTest, OcclusionNeverCullsASphereWithAVisiblePixel) {
    std::mt19937 rng(77);
    std::uniform_real_distribution<float> u01(0.0f, 1.0f);
    const VkExtent2D extent{131, 77};
    auto cam = testing_cull::makeCamera(float(extent.width) / extent.height);
    auto depth = testing_cull::makeWallDepth(extent.width, extent.height, cam,
                                             testing_cull::randomWalls(extent.width, extent.height, 7, rng));
    testing_cull::RandomScene scene = testing_cull::makeRandomScene(0, 2);
    for (int i = 0; i < 3000; ++i) {
        sieve::gpu::Instance inst{};
        const float z = -(0.6f + 50.0f * u01(rng));
        const vec4 sphere =
            vec4((u01(rng) * 2 - 1) * -z * 0.9f, (u01(rng) * 2 - 1) * -z * 0.6f, z, 0.02f + 3.0f * u01(rng) * u01(rng));
        inst.scale = 1.0f;
        scene.add(inst, sphere);
    }
    const uint32_t n = uint32_t(scene.instances.size());
    // No draw distance: every sphere in the frustum that is not flagged was culled by occlusion.
    Frame frame =
        makeFrame(cam, extent, depth, n, sieve::gpu::SIEVE_CULL_ALL & ~sieve::gpu::SIEVE_CULL_TWO_PHASE, 9, 0.0f);
    GpuResult g = run(scene, frame);
    uint32_t occluded = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const vec4 s = scene.bounds[i].sphere;
        if (g.lateFlags[i] || !sieve::gpu::sieveInFrustum(s, frame.params)) continue;
        ++occluded;
        ASSERT_FALSE(testing_cull::sphereMayBeVisible(s, cam, depth, extent.width, extent.height))
            << "culled a visible sphere " << i << ": " << s.x << " " << s.y << " " << s.z << " r " << s.w;
    }
    EXPECT_GT(occluded, n / 20) << "the scene must exercise occlusion";
    expectMatchesReference(scene, frame, g);
}

// Every supported kind of host view (perspective and orthographic, standard and reverse Z, finite and
// infinite far, jitter, flipped viewport, viewport depth range, left-handed): GPU equals the reference
// exactly, and the scene exercises frustum and occlusion culling.
TEST_F(CullFlagsTest, RandomScenesMatchTheReferenceForEveryView) {
    const VkExtent2D extent{160, 90};
    uint32_t seed = 60;
    for (const testing_cull::Camera& cam : testing_cull::allCameras(float(extent.width) / extent.height)) {
        SCOPED_TRACE(cam.name);
        std::mt19937 rng(seed);
        const uint32_t n = 1500 + seed;
        auto scene = testing_cull::makeRandomScene(n, seed, 40.0f);
        auto depth =
            testing_cull::makeWallDepth(extent.width, extent.height, cam,
                                        testing_cull::randomWallsInView(cam, extent.width, extent.height, 8, rng));
        Frame frame = makeFrame(cam, extent, depth, n, sieve::gpu::SIEVE_CULL_ALL, seed);
        GpuResult g = run(scene, frame);
        expectMatchesReference(scene, frame, g);
        if (HasFatalFailure()) return;
        EXPECT_GT(g.counters.frustumVisible, 0u);
        EXPECT_LT(g.counters.frustumVisible, n);
        EXPECT_LT(g.counters.lateVisible, g.counters.frustumVisible) << "nothing was occluded";
        ++seed;
    }
}

// A y-flipped viewport with P11 > 0 draws the same image as a positive viewport with P11 < 0: the
// culling must see exactly the same (the issue measured 607 visible instead of 627 before).
TEST_F(CullFlagsTest, FlippedViewportWithPositiveP11CullsLikeNegativeP11) {
    const VkExtent2D extent{200, 113};
    testing_cull::Camera down = testing_cull::makeCamera(float(extent.width) / extent.height, {1, 2, 3}, {-4, 1, -20});
    down.proj[2][1] = 0.05f;  // asymmetric, so that a missed offset flip shows
    testing_cull::Camera flipped = down;
    flipped.proj[1][1] = -flipped.proj[1][1];
    flipped.proj[2][1] = -flipped.proj[2][1];
    flipped.flipY = true;
    std::mt19937 rng(5);
    // Walls in the lower half of the image only: a y mirror of the screen changes what they hide.
    auto walls = testing_cull::randomWallsInView(down, extent.width, extent.height / 2, 8, rng);
    for (auto& w : walls) {
        w.y0 += extent.height / 2;
        w.y1 += extent.height / 2;
    }
    auto depth = testing_cull::makeWallDepth(extent.width, extent.height, down, walls);
    const uint32_t n = 3000;
    auto scene = testing_cull::makeRandomScene(n, 21, 40.0f);
    Frame a = makeFrame(down, extent, depth, n, sieve::gpu::SIEVE_CULL_ALL, 4);
    Frame b = makeFrame(flipped, extent, depth, n, sieve::gpu::SIEVE_CULL_ALL, 4);
    GpuResult ga = run(scene, a), gb = run(scene, b);
    expectMatchesReference(scene, a, ga);
    expectMatchesReference(scene, b, gb);
    EXPECT_EQ(ga.lateFlags, gb.lateFlags);
    EXPECT_EQ(ga.earlyFlags, gb.earlyFlags);
    EXPECT_EQ(testing_cull::writtenLods(ga.lateLods, ga.lateFlags),
              testing_cull::writtenLods(gb.lateLods, gb.lateFlags));
    EXPECT_EQ(ga.visibleLast, gb.visibleLast);
    EXPECT_EQ(ga.counters.lateVisible, gb.counters.lateVisible);
    EXPECT_LT(ga.counters.lateVisible, ga.counters.frustumVisible) << "nothing was occluded";
    // The same projection without the flip mirrors the screen: the walls hide other objects.
    testing_cull::Camera mirrored = flipped;
    mirrored.flipY = false;
    Frame c = makeFrame(mirrored, extent, depth, n, sieve::gpu::SIEVE_CULL_ALL, 4);
    GpuResult gc = run(scene, c);
    expectMatchesReference(scene, c, gc);
    EXPECT_NE(gc.visibleLast, ga.visibleLast) << "the test cannot tell a flipped screen apart";
}

// Single phase and freeze test the current camera against a pyramid another camera's depth was drawn with
// (CullLateBuffers::occlusionView): the GPU equals the reference projecting through that camera, which
// differs from projecting through the current one (so the binding is what decides).
TEST_F(CullFlagsTest, OcclusionLooksThroughThePyramidsCamera) {
    const VkExtent2D extent{160, 90};
    const float aspect = float(extent.width) / extent.height;
    std::mt19937 rng(91);
    const uint32_t n = 3001;
    auto scene = testing_cull::makeRandomScene(n, 91);
    auto drew = testing_cull::makeCamera(aspect, {1, 2, 3}, {-4, 1, -20});
    auto now = testing_cull::makeCamera(aspect, {3, 2, 1}, {-8, 0, -18});
    auto depth = testing_cull::makeWallDepth(
        extent.width, extent.height, drew, testing_cull::randomWallsInView(drew, extent.width, extent.height, 8, rng));
    const uint32_t toggles = sieve::gpu::SIEVE_CULL_ALL & ~sieve::gpu::SIEVE_CULL_TWO_PHASE;
    Frame frame = makeFrame(now, extent, depth, n, toggles, 91, 0.0f);
    frame.occlusion = makeFrame(drew, extent, depth, n, toggles, 91, 0.0f).params;
    GpuResult g = run(scene, frame);
    expectMatchesReference(scene, frame, g);
    Frame unprojected = frame;
    unprojected.occlusion.reset();
    const GpuResult same = run(scene, unprojected);
    expectMatchesReference(scene, unprojected, same);
    EXPECT_LT(g.counters.lateVisible, g.counters.frustumVisible) << "nothing was occluded";
    EXPECT_NE(g.lateFlags, same.lateFlags) << "the pyramid's camera changed nothing: the test cannot tell";
}

// The plugin's late pass (CullLayout::lateFlags false): every output but the late flags as the reference,
// and not one of the late flags written.
TEST_F(CullFlagsTest, LateShaderWithoutFlagsWritesEverythingElse) {
    expectLateOutputsBehindWalls(false, true, 77, 1999);
}

// The plugin's early pass (CullLayout::earlyFlags false), one and four instances per invocation: not one early flag
// written, and the late shader, which derives them from visibleLast, still splits the visible set exactly as the
// reference (nothing drawn twice or missed: late flags, draw counts, state).
TEST_F(CullFlagsTest, EarlyShaderWithoutFlagsWritesEverythingElse) {
    using namespace sieve::gpu;
    using Rounds = sieve::CullLayout::EarlyRounds;
    uint32_t seed = 79;
    for (const Rounds rounds : {Rounds::One, Rounds::Four})
        for (uint32_t toggles : {uint32_t(SIEVE_CULL_ALL), uint32_t(SIEVE_CULL_ALL & ~SIEVE_CULL_OCCLUSION)}) {
            SCOPED_TRACE("toggles " + std::to_string(toggles) + (rounds == Rounds::Four ? ", four rounds" : ""));
            auto [scene, frame] = wallScene(2003, toggles, seed++);
            GpuResult g = run(scene, frame, true, true, rounds, false);
            expectMatchesReference(scene, frame, g, true, true, false);
            if (HasFatalFailure()) return;
            EXPECT_GT(g.counters.earlyDrawn, 0u) << "nothing drawn early: the split is not tested";
            EXPECT_GT(g.counters.lateDrawn, 0u) << "nothing drawn late: the split is not tested";
        }
}

// The split late pass (CullLateBuffers::candidates, the plugin's): every output as the reference, for edge sizes
// (one instance, one short of and one past a workgroup, several workgroups) and the toggle sets that change what
// it defers (occlusion off: nothing; one phase; no frustum test: every instance). The list holds exactly view 0's
// instances in view when it tests occlusion, and its dispatch covers them.
TEST_F(CullFlagsTest, SplitLatePassMatchesTheReference) {
    using namespace sieve::gpu;
    using Split = sieve::CullLayout::LateSplit;
    split = true;
    uint32_t seed = 90;
    for (const Split mode : {Split::All, Split::Adaptive})
        for (uint32_t n : {1u, 127u, 129u, 2003u})
            for (uint32_t toggles :
                 {uint32_t(SIEVE_CULL_ALL), uint32_t(SIEVE_CULL_ALL & ~SIEVE_CULL_TWO_PHASE),
                  uint32_t(SIEVE_CULL_ALL & ~SIEVE_CULL_OCCLUSION), uint32_t(SIEVE_CULL_ALL & ~SIEVE_CULL_FRUSTUM)}) {
                SCOPED_TRACE("n " + std::to_string(n) + ", toggles " + std::to_string(toggles) +
                             (mode == Split::All ? ", all listed" : ", adaptive"));
                lateSplit = mode;
                auto [scene, frame] = wallScene(n, toggles, seed++);
                for (const bool written : {true, false}) {
                    GpuResult g = run(scene, frame, written, written);
                    expectMatchesReference(scene, frame, g, written, written);
                    if (HasFatalFailure()) return;
                    const bool occlusion = toggles & SIEVE_CULL_OCCLUSION;
                    uint32_t listed = 0, groups = 0;
                    for (uint32_t l = 0; l < SIEVE_CULL_CANDIDATE_LISTS; ++l) {
                        const uint32_t count = g.candidates[(l + 1) * SIEVE_CULL_CANDIDATE_LINE_WORDS];
                        listed += count;
                        groups = std::max(groups, (count + SIEVE_FLAG_GROUP_SIZE - 1) / SIEVE_FLAG_GROUP_SIZE);
                    }
                    if (mode == Split::All || !occlusion)
                        EXPECT_EQ(listed, occlusion ? g.counters.frustumVisible : 0u);
                    else
                        EXPECT_LE(listed, g.counters.frustumVisible);
                    EXPECT_EQ(g.candidates[0], groups) << "workgroups of the second dispatch";
                    EXPECT_EQ(g.candidates[1], SIEVE_CULL_CANDIDATE_LISTS);
                    EXPECT_EQ(g.candidates[2], 1u);
                    if (n == 2003 && toggles == SIEVE_CULL_ALL && mode == Split::Adaptive) {
                        EXPECT_GT(listed, 0u) << "no subgroup was sparse: the adaptive split is not tested";
                    }
                    if (n == 2003 && toggles == SIEVE_CULL_ALL) {
                        EXPECT_GT(g.counters.lateVisible, 0u);
                        EXPECT_LT(g.counters.lateVisible, g.counters.frustumVisible) << "nothing was occluded";
                    }
                }
            }
}

// Draw marks (CullPhaseBuffers::drawMarks, CullLayout::markEpoch): both passes mark exactly the groups of
// SIEVE_DRAW_MARK_KEYS keys with a draw and write nothing else, at counts around a group and a workgroup, with one
// and four instances per early invocation, in two phases and one, and through the split late pass's second
// dispatch; every other output as the reference.
TEST_F(CullFlagsTest, DrawMarksCoverEveryDrawAndNothingElse) {
    using namespace sieve::gpu;
    using Rounds = sieve::CullLayout::EarlyRounds;
    using Split = sieve::CullLayout::LateSplit;
    marks = true;
    for (uint32_t n : {1u, 31u, 33u, 129u, 2003u})
        for (uint32_t toggles : {uint32_t(SIEVE_CULL_ALL), uint32_t(SIEVE_CULL_ALL & ~SIEVE_CULL_TWO_PHASE)})
            for (auto [rounds, mode] : {std::pair{Rounds::One, Split::Off}, std::pair{Rounds::Four, Split::All}}) {
                SCOPED_TRACE("n " + std::to_string(n) + ", toggles " + std::to_string(toggles) +
                             (rounds == Rounds::Four ? ", four rounds, split" : ""));
                split = mode != Split::Off;
                lateSplit = mode;
                auto [scene, frame] = wallScene(n, toggles, 90 + n);
                // Instances visible last frame give the early pass draws.
                for (uint32_t i = 0; i < n; i += 2) frame.visibleLast[i] = 1;
                const GpuResult g = run(scene, frame, true, true, rounds);
                expectMatchesReference(scene, frame, g);
                expectMarks(g.earlyDraws, g.earlyMarks, kEarlyEpoch);
                expectMarks(g.lateDraws, g.lateMarks, kLateEpoch);
                if (HasFatalFailure()) return;
                if (n == 2003 && toggles == SIEVE_CULL_ALL) {
                    EXPECT_NE(std::count(g.earlyMarks.begin(), g.earlyMarks.end(), kEarlyEpoch), 0);
                    EXPECT_NE(std::count(g.lateMarks.begin(), g.lateMarks.end(), kLateEpoch), 0);
                }
            }
}

// The late pass of a host without debug views (CullLayout::state false, CullingConfig::instanceState off):
// every output but the state as the reference, and not one state word written.
TEST_F(CullFlagsTest, LateShaderWithoutStateWritesEverythingElse) {
    expectLateOutputsBehindWalls(true, false, 78, 2001);
}
