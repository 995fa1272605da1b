// Dispatches beyond maxComputeWorkGroupCount[0] are folded into 2-D (ComputePipeline::dispatchLinear):
// with the x limit lowered through the test hook, the whole culling path (flags of both phases, Hi-Z,
// scan and draw expansion, every scan tier) gives results identical to an unfolded run.
#include "gpu/test_limits_util.h"

using namespace testing_limits;

namespace {

class DispatchLimitTest : public CullPathTest {
protected:
    void TearDown() override {
        sieve::overrideMaxGroupsX(0);  // never leak the lowered limit into other tests
        CullPathTest::TearDown();
    }
};

void expectSamePhase(const PhaseOutput& a, const PhaseOutput& b, const char* phase) {
    SCOPED_TRACE(phase);
    EXPECT_EQ(a.flags, b.flags);
    EXPECT_EQ(a.drawCounts, b.drawCounts);
    EXPECT_EQ(testing_cull::writtenLods(a.lods, a.flags), testing_cull::writtenLods(b.lods, b.flags));
    EXPECT_EQ(a.counts.count, b.counts.count);
    EXPECT_EQ(a.counts.total, b.counts.total);
    EXPECT_EQ(a.counts.overflow, b.counts.overflow);
    ASSERT_EQ(a.draws.size(), b.draws.size());
    for (size_t i = 0; i < a.draws.size(); ++i) ASSERT_TRUE(sameDraw(a.draws[i], b.draws[i])) << "record " << i;
    EXPECT_EQ(a.guard, b.guard);
}

}  // namespace

TEST_F(DispatchLimitTest, LoweredGroupLimitGivesIdenticalCullingAndDrawLists) {
    const VkExtent2D extent{120, 72};
    const uint32_t n = 64 * 61 + 13;  // 62 flag groups, 16 expand groups: folds at every limit below
    auto scene = testing_cull::makeRandomScene(n, 21);
    std::mt19937 rng(21);
    auto cam = testing_cull::makeCamera(float(extent.width) / extent.height, {1, 2, 3}, {-4, 1, -20});
    auto depth = testing_cull::makeWallDepth(extent.width, extent.height, cam,
                                             testing_cull::randomWalls(extent.width, extent.height, 4, rng));
    CullFrame frame = makeFrame(cam, extent, depth, n, sieve::gpu::SIEVE_CULL_ALL, 21);
    using sieve::prim::ScanTier;
    for (ScanTier tier : {ScanTier::Multilevel, ScanTier::Subgroup, ScanTier::SinglePass}) {
        SCOPED_TRACE("scan tier " + std::to_string(uint32_t(tier)));
        sieve::prim::PrimOptions options;
        options.tier = tier;
        auto builder = sieve::DrawListBuilder::create(ctx().info(), options);
        ASSERT_TRUE(builder) << builder.error().message;
        sieve::overrideMaxGroupsX(0);
        const FrameOutput reference = run(scene, frame, 0, &builder.value());
        if (HasFatalFailure()) return;
        ASSERT_GT(reference.late.counts.count + reference.early.counts.count, 0u) << "the scene draws nothing";
        ASSERT_GT(reference.counters.frustumVisible, reference.counters.lateVisible) << "nothing was occluded";
        for (const PhaseOutput* p : {&reference.early, &reference.late}) {
            const auto want = expectedDraws(scene, p->drawCounts, p->lods);
            ASSERT_EQ(p->draws.size(), want.size());
            for (size_t i = 0; i < want.size(); ++i) ASSERT_TRUE(sameDraw(p->draws[i], want[i])) << "record " << i;
        }
        for (uint32_t limit : {1u, 2u, 5u, 7u}) {
            SCOPED_TRACE("maxGroupsX " + std::to_string(limit));
            sieve::overrideMaxGroupsX(limit);
            const FrameOutput folded = run(scene, frame, 0, &builder.value());
            sieve::overrideMaxGroupsX(0);
            if (HasFatalFailure()) return;
            expectSamePhase(reference.early, folded.early, "early");
            expectSamePhase(reference.late, folded.late, "late");
            EXPECT_EQ(reference.visibleLast, folded.visibleLast);
            EXPECT_EQ(reference.counters.frustumVisible, folded.counters.frustumVisible);
            EXPECT_EQ(reference.counters.earlyDrawn, folded.counters.earlyDrawn);
            EXPECT_EQ(reference.counters.lateVisible, folded.counters.lateVisible);
            EXPECT_EQ(reference.counters.lateDrawn, folded.counters.lateDrawn);
        }
    }
}
