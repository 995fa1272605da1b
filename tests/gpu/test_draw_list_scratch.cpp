// The draw list's scan scratch is sized once, for the largest instance count (CullingPlugin::describe()
// sizes it with scratchBytes of its largest shape), and then serves every smaller count, although ScanTier::Auto
// may scan a smaller count with another tier (issue 12). Under NVIDIA's rule tier c scans up to
// kAutoSinglePassMaxElements and tier b above; with the two-word look-back status tier c needs more
// scratch just below the threshold than tier b at twice it, so a scratch sized for twice the threshold
// made the scan refuse a count just below it and left the draw list of the previous frame in place.
// Where the device runs the single-pass scan the draw list folds the expansion into it (one dispatch over
// tile-aligned streams, no offsets written): the same scratch, sized by scratchBytes(largest shape), must
// serve the smaller count there too.
#include <algorithm>
#include <numeric>
#include <random>

#include "gpu/test_limits_util.h"
#include "sieve/draw_list.h"

namespace {

constexpr uint32_t kVendorNvidia = 0x10DE;

using testing_limits::expectedDraws;
using testing_limits::sameDraw;

class DrawListScratch : public testing_gpu::GpuTest {};

}  // namespace

TEST_F(DrawListScratch, SizedForMaxInstancesServesASmallerCountScannedByAnotherTier) {
    sieve::prim::PrimOptions options;
    options.autoTierVendor = kVendorNvidia;  // the NVIDIA tier rule on this device
    options.packedLookbackStatus = false;    // the layout whose tier-c scratch outgrows tier b's
    auto built = sieve::DrawListBuilder::create(ctx().info(), options);
    ASSERT_TRUE(built) << built.error().message;
    const sieve::DrawListBuilder& list = built.value();

    const uint64_t maxInstances = 2 * sieve::prim::kAutoSinglePassMaxElements;
    const uint32_t n = uint32_t(sieve::prim::kAutoSinglePassMaxElements) - 5;
    // The case of the issue: the two counts are scanned by different tiers.
    ASSERT_EQ(list.scan().tierFor(maxInstances), sieve::prim::ScanTier::Subgroup);
    ASSERT_EQ(list.scan().tierFor(n), sieve::prim::ScanTier::SinglePass);

    // Only the first `visible` instances draw anything, so that the tables the expansion reads for
    // visible instances stay small; the scan still runs over all n counts.
    const uint32_t visible = 1u << 16;
    const auto scene = testing_cull::makeRandomScene(visible, 21);
    std::vector<uint32_t> drawCounts(n, 0);
    std::mt19937 rng(3);
    for (uint32_t i = 0; i < visible; ++i)
        drawCounts[i] = rng() % 4 == 0 ? 0 : scene.meshes[scene.instances[i].mesh].primitiveCount;
    std::vector<uint32_t> lods(visible);
    for (uint32_t i = 0; i < visible; ++i) lods[i] = rng() % sieve::gpu::SIEVE_MAX_LODS;
    const uint32_t total = std::accumulate(drawCounts.begin(), drawCounts.end(), 0u);
    const uint32_t capacity = total;

    // Exactly as CullingPlugin::describe() sizes the "scan.scratch" slot, bound with its size as the
    // plugin binds it.
    const VkDeviceSize scratchBytes = std::max<VkDeviceSize>(list.scratchBytes({uint32_t(maxInstances), 1, 1, 1}), 16);
    engine::Buffer instances = makeBuffer(scene.instances), meshes = makeBuffer(scene.meshes),
                   primitives = makeBuffer(scene.primitives), counts = makeBuffer(drawCounts),
                   lodBuffer = makeBuffer(lods), offsets = makeEmpty(VkDeviceSize(n) * 4),
                   scratch = makeEmpty(scratchBytes),
                   draws = makeEmpty(VkDeviceSize(capacity) * sizeof(sieve::gpu::DrawCommand),
                                     VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "draws"),
                   out = makeBuffer(std::vector<uint32_t>(4, 0), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "counts"),
                   streams = makeBuffer(std::vector<sieve::gpu::DrawStream>{{0, capacity}});
    const sieve::DrawListBuffers b{instances.range(),
                                   meshes.range(),
                                   primitives.range(),
                                   counts.range(),
                                   lodBuffer.range(),
                                   offsets.range(),
                                   scratch.range(0, scratchBytes),
                                   draws.range(),
                                   out.range(),
                                   streams.range()};
    sieve::Result<void> rec;
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        rec = list.record(cmd, b, {n, 1, 1, 3}, sieve::DrawOrder::Stable);
    });
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_TRUE(rec) << rec.error().message;

    const auto c = read<sieve::gpu::DrawCounts>(out, 1);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].total, total);
    EXPECT_EQ(c[0].count, total);
    EXPECT_EQ(c[0].overflow, 0u);
    // The separate scan's offsets (the one-pass list writes none).
    if (!list.onePass({n, 1, 1, 3}, b)) {
        const auto got = read<uint32_t>(offsets, n);
        ASSERT_EQ(got.size(), n);
        uint32_t sum = 0;
        for (uint32_t i = 0; i < n; ++i) {
            ASSERT_EQ(got[i], sum) << "offset " << i;
            sum += drawCounts[i];
        }
    }
    drawCounts.resize(visible);
    const auto expect = expectedDraws(scene, drawCounts, lods);
    const auto gotDraws = read<sieve::gpu::DrawCommand>(draws, total);
    ASSERT_EQ(gotDraws.size(), expect.size());
    for (size_t i = 0; i < expect.size(); ++i) ASSERT_TRUE(sameDraw(gotDraws[i], expect[i])) << "draw " << i;
}
