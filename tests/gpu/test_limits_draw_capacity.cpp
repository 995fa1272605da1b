// More visible draws than the draw list holds: the count is clamped to the capacity, the overflow says
// how many were dropped, the records written are the first ones of the full list, and nothing is
// written past the capacity (guard words after the list stay intact).
#include <numeric>

#include "gpu/test_limits_util.h"

using namespace testing_limits;

namespace {

class DrawCapacityTest : public CullPathTest {
protected:
    // Runs DrawListBuilder alone on given per-instance draw counts (LOD 0 everywhere).
    PhaseOutput runList(const testing_cull::RandomScene& scene, const std::vector<uint32_t>& drawCounts,
                        uint32_t capacity, sieve::DrawOrder order) {
        const uint32_t n = uint32_t(drawCounts.size());
        const VkDeviceSize drawBytes = VkDeviceSize(capacity) * sizeof(sieve::gpu::DrawCommand);
        engine::Buffer instances = makeBuffer(scene.instances), meshes = makeBuffer(scene.meshes),
                       primitives = makeBuffer(scene.primitives), counts = makeBuffer(drawCounts),
                       lods = makeBuffer(std::vector<uint32_t>(n, 0)), offsets = makeEmpty(n * 4),
                       scratch = makeEmpty(std::max<VkDeviceSize>(drawList.scratchBytes({n, 1, 1, 1}), 16)),
                       draws = makeBuffer(std::vector<uint32_t>(size_t(drawBytes / 4) + kGuardWords, kGuardWord),
                                          VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "draws + guard"),
                       out = makeBuffer(std::vector<uint32_t>(4, 0), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "counts");
        uint32_t maxDraws = 1;
        for (const auto& m : scene.meshes) maxDraws = std::max(maxDraws, m.primitiveCount);
        engine::Buffer streams = makeBuffer(std::vector<sieve::gpu::DrawStream>{{0, capacity}});
        sieve::DrawListBuffers b{instances.range(), meshes.range(),  primitives.range(), counts.range(),
                                 lods.range(),      offsets.range(), scratch.range(),    draws.range(),
                                 out.range(),       streams.range()};
        auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
            auto rec = drawList.record(cmd, b, {n, 1, 1, maxDraws}, order);
            EXPECT_TRUE(rec) << rec.error().message;
        });
        EXPECT_TRUE(r) << r.error().message;
        PhaseOutput o;
        auto c = read<sieve::gpu::DrawCounts>(out, 1);
        if (!c.empty()) o.counts = c[0];
        o.draws = read<sieve::gpu::DrawCommand>(draws, std::min(o.counts.count, capacity));
        o.guard = read<uint32_t>(draws, kGuardWords, drawBytes);
        return o;
    }
};

}  // namespace

TEST_F(DrawCapacityTest, CullingEverythingVisibleIntoASmallListClampsAndCountsTheOverflow) {
    const VkExtent2D extent{64, 48};
    const uint32_t n = 1000;
    auto scene = testing_cull::makeRandomScene(n, 11);
    auto cam = testing_cull::makeCamera(float(extent.width) / extent.height);
    // Every culling stage off: every instance is visible and drawn by the late phase.
    CullFrame frame = makeFrame(cam, extent, std::vector<float>(extent.width * extent.height, 0.0f), n, 0u, 4);
    uint32_t total = 0;
    for (const auto& inst : scene.instances) total += scene.meshes[inst.mesh].primitiveCount;
    const uint32_t capacity = 137;
    ASSERT_GT(total, capacity);
    FrameOutput g = run(scene, frame, capacity);
    if (HasFatalFailure()) return;
    EXPECT_EQ(g.late.counts.total, total);
    EXPECT_EQ(g.late.counts.count, capacity);
    EXPECT_EQ(g.late.counts.overflow, total - capacity);
    EXPECT_EQ(g.early.counts.count, 0u);
    EXPECT_EQ(g.early.counts.overflow, 0u);
    const auto full = expectedDraws(scene, g.late.drawCounts, g.late.lods);
    ASSERT_EQ(full.size(), total);
    ASSERT_EQ(g.late.draws.size(), capacity);
    for (uint32_t i = 0; i < capacity; ++i) ASSERT_TRUE(sameDraw(g.late.draws[i], full[i])) << "record " << i;
    for (uint32_t i = 0; i < kGuardWords; ++i)
        ASSERT_EQ(g.late.guard[i], kGuardWord) << "written past capacity, word " << i;
    for (uint32_t i = 0; i < kGuardWords; ++i) ASSERT_EQ(g.early.guard[i], kGuardWord) << "early list, word " << i;
}

TEST_F(DrawCapacityTest, BothOrdersNeverWritePastTheCapacity) {
    const uint32_t n = 777;
    auto scene = testing_cull::makeRandomScene(n, 12);
    std::vector<uint32_t> drawCounts(n);
    std::mt19937 rng(5);
    for (uint32_t i = 0; i < n; ++i)
        drawCounts[i] = rng() % 4 == 0 ? 0 : scene.meshes[scene.instances[i].mesh].primitiveCount;
    const uint32_t total = std::accumulate(drawCounts.begin(), drawCounts.end(), 0u);
    const auto full = expectedDraws(scene, drawCounts, std::vector<uint32_t>(n, 0));
    for (sieve::DrawOrder order : {sieve::DrawOrder::Stable, sieve::DrawOrder::AtomicAppend})
        for (uint32_t capacity : {0u, 1u, 255u, 256u, 257u, total - 1, total, total + 9}) {
            SCOPED_TRACE("order " + std::to_string(uint32_t(order)) + " capacity " + std::to_string(capacity));
            PhaseOutput o = runList(scene, drawCounts, capacity, order);
            if (HasFatalFailure()) return;
            const uint32_t kept = std::min(total, capacity);
            EXPECT_EQ(o.counts.count, kept);
            EXPECT_EQ(o.counts.overflow, total - kept);
            EXPECT_EQ(o.counts.total, total);
            for (uint32_t i = 0; i < kGuardWords; ++i) ASSERT_EQ(o.guard[i], kGuardWord) << "guard word " << i;
            ASSERT_EQ(o.draws.size(), kept);
            if (order == sieve::DrawOrder::Stable) {
                for (uint32_t i = 0; i < kept; ++i) ASSERT_TRUE(sameDraw(o.draws[i], full[i])) << "record " << i;
            } else {
                // Unordered, but every record written is one of the full list's (each is unique: instance
                // and primitive), and none twice.
                std::vector<uint32_t> seen(full.size(), 0);
                for (const auto& d : o.draws) {
                    auto it = std::find_if(full.begin(), full.end(), [&](const auto& f) { return sameDraw(f, d); });
                    ASSERT_NE(it, full.end()) << "a record that is not in the list";
                    ASSERT_EQ(++seen[size_t(it - full.begin())], 1u) << "a record written twice";
                }
            }
        }
}
