// Exclusive scan on the GPU, every tier with subgroups on and off, compared exactly with the CPU
// reference; guard words after the output must stay untouched.
#include "gpu/test_prim_common.h"

using namespace prim_test;

namespace {

struct Config {
    ScanTier tier;
    bool subgroups;
};
const Config kConfigs[] = {{ScanTier::Multilevel, false},
                           {ScanTier::Subgroup, true},
                           {ScanTier::Subgroup, false},
                           {ScanTier::SinglePass, true},
                           {ScanTier::SinglePass, false}};

std::string configName(const Config& c) {
    return std::string(c.tier == ScanTier::Multilevel ? "A"
                       : c.tier == ScanTier::Subgroup ? "B"
                                                      : "C") +
           (c.subgroups ? "_sg" : "_shared");
}

class PrimScan : public PrimTest {
protected:
    // Scans `input` and checks offsets, total and guards (PrimTest::scanAndCheck).
    void check(const PrimOptions& options, const std::vector<uint32_t>& input, const std::string& what) {
        auto scan = sieve::prim::Scan::create(ctx().info(), options);
        ASSERT_TRUE(scan) << scan.error().message;
        if (options.tier == ScanTier::Multilevel || !options.subgroups) {
            EXPECT_FALSE(scan->usesSubgroups());
        }
        engine::Buffer scratch = makeEmpty(std::max<VkDeviceSize>(scan->scratchBytes(input.size()), 4));
        scanAndCheck(*scan, input, scratch.range(), what);
    }
    PrimOptions options(const Config& c) {
        PrimOptions o;
        o.tier = c.tier;
        o.subgroups = c.subgroups;
        return o;
    }
};

class PrimScanSizes : public PrimScan, public ::testing::WithParamInterface<Config> {};

TEST_P(PrimScanSizes, EdgeSizesMatchReference) {
    const uint32_t sg = ctx().info().subgroupSize;
    std::vector<size_t> sizes = {0,   1,    2,    sg - 1, sg,    sg + 1,        63, 64, 65, 255, 256,
                                 257, 4095, 4096, 4097,   65537, (1u << 20) + 3};
    for (size_t n : sizes) check(options(GetParam()), makeData(Data::Density50, n, n), "n=" + std::to_string(n));
}

TEST_P(PrimScanSizes, DataKindsMatchReference) {
    for (Data d : {Data::Zeros, Data::Ones, Data::Density1, Data::Density99, Data::Counts})
        for (size_t n : {4097u, 65537u})
            check(options(GetParam()), makeData(d, n), std::string(dataName(d)) + " n=" + std::to_string(n));
}

TEST_P(PrimScanSizes, ThreeLevelsWithSmallTiles) {
    PrimOptions o = options(GetParam());
    o.workgroupSize = 32;
    o.vectorsPerThread = 1;  // tile 128: 20000 -> 157 block sums -> 2 -> 1, three levels
    check(o, makeData(Data::Counts, 20000), "three levels");
    check(o, makeData(Data::Ones, 128 * 128 + 1), "128^2+1");
}

TEST_P(PrimScanSizes, FoldedDispatchBeyondGroupLimit) {
    sieve::overrideMaxGroupsX(3);  // 17 tiles -> 3 x 6 groups, one spare
    check(options(GetParam()), makeData(Data::Density50, 65537), "folded");
    sieve::overrideMaxGroupsX(0);
}

TEST_P(PrimScanSizes, ChunkedBeyondBindingLimit) {
    sieve::prim::overrideMaxBindingBytes(3 * 4096 * 4);  // three tiles per binding: 6 chunks
    check(options(GetParam()), makeData(Data::Counts, 65537), "chunked");
    check(options(GetParam()), makeData(Data::Ones, 3 * 4096), "one exact chunk");
    sieve::prim::overrideMaxBindingBytes(0);
}

INSTANTIATE_TEST_SUITE_P(Tiers, PrimScanSizes, ::testing::ValuesIn(kConfigs),
                         [](const auto& info) { return configName(info.param); });

TEST_F(PrimScan, SinglePassFallbackWhenPredecessorsAreSilent) {
    PrimOptions o;
    o.tier = ScanTier::SinglePass;
    o.lookbackSpins = 1;  // give up waiting at once: tiles reduce their predecessors' input themselves
    o.workgroupSize = 64;
    o.vectorsPerThread = 1;
    check(o, makeData(Data::Counts, 50000), "spins=1");
}

TEST_F(PrimScan, RefusesSumsThatCouldOverflow) {
    auto scan = sieve::prim::Scan::create(ctx().info());
    ASSERT_TRUE(scan) << scan.error().message;
    engine::Buffer buf = makeEmpty(1024);
    sieve::Result<void> rec;
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        rec = scan->record(cmd, {buf.range(), buf.range(), buf.range(), buf.range()}, 100,
                           sieve::prim::SumBound::perValue(100, 50000000));
    });
    ASSERT_TRUE(r);
    ASSERT_FALSE(rec);
    EXPECT_NE(rec.error().message.find("2^32-1"), std::string::npos) << rec.error().message;
    EXPECT_TRUE(sieve::prim::SumBound::flags(0xffffffffu).fitsU32());
    EXPECT_FALSE(sieve::prim::SumBound{}.fitsU32());  // undeclared bounds are refused
}

// The two-word look-back status (devices without 64-bit buffer atomics) at the sizes that matter: one
// tile, several windows of predecessors, chunks, and the fallback when nothing is awaited.
TEST_F(PrimScan, SinglePassTwoWordStatus) {
    PrimOptions o;
    o.tier = ScanTier::SinglePass;
    o.packedLookbackStatus = false;
    {
        auto scan = sieve::prim::Scan::create(ctx().info(), o);
        ASSERT_TRUE(scan) << scan.error().message;
        EXPECT_FALSE(scan->packedLookbackStatus());
    }
    for (size_t n : {1u, 4095u, 4097u, 65537u, (1u << 20) + 3})
        check(o, makeData(Data::Counts, n, n), "two words n=" + std::to_string(n));
    sieve::prim::overrideMaxBindingBytes(3 * 4096 * 4);
    check(o, makeData(Data::Counts, 65537), "two words chunked");
    sieve::prim::overrideMaxBindingBytes(0);
    o.lookbackSpins = 1;
    o.workgroupSize = 64;
    o.vectorsPerThread = 1;
    check(o, makeData(Data::Counts, 50000), "two words spins=1");
}

// Wider look-back windows (several predecessors per lane), both status layouts, with and without waiting.
TEST_F(PrimScan, SinglePassWideLookBack) {
    PrimOptions o;
    o.tier = ScanTier::SinglePass;
    o.workgroupSize = 32;
    o.vectorsPerThread = 1;  // tile 128: 50000 elements are 391 tiles, several windows of 8 x 4 lanes
    for (uint32_t perLane : {2u, 4u, 16u})
        for (bool packed : {true, false})
            for (uint32_t spins : {2048u, 1u}) {
                o.lookbackPerLane = perLane;
                o.packedLookbackStatus = packed;
                o.lookbackSpins = spins;
                check(o, makeData(Data::Counts, 50000, perLane),
                      "per lane " + std::to_string(perLane) + (packed ? " packed" : " words") + " spins " +
                          std::to_string(spins));
            }
    o.lookbackPerLane = 0;
    EXPECT_FALSE(sieve::prim::Scan::create(ctx().info(), o));
}

TEST_F(PrimScan, SinglePassPacksStatusWhereTheDeviceHas64BitAtomics) {
    PrimOptions o;
    o.tier = ScanTier::SinglePass;
    auto scan = sieve::prim::Scan::create(ctx().info(), o);
    ASSERT_TRUE(scan) << scan.error().message;
    EXPECT_EQ(scan->packedLookbackStatus(), ctx().info().bufferInt64Atomics);
}

// Auto follows the per-device rule of sieve/prim/config.h: on NVIDIA tier c up to 2^22 elements and tier b
// above, tier b elsewhere (lavapipe); the scan is right either way.
TEST_F(PrimScan, AutoPicksTheTierPerDeviceAndSize) {
    const auto& dev = ctx().info();
    auto scan = sieve::prim::Scan::create(dev);
    ASSERT_TRUE(scan) << scan.error().message;
    EXPECT_EQ(scan->usesSubgroups(), dev.subgroupArithmetic);
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(dev.physical, &props);
    const bool nvidia = props.vendorID == 0x10DE && dev.subgroupBallot && dev.subgroupArithmetic;
    const uint64_t small = 1000, large = sieve::prim::kAutoSinglePassMaxElements + 1;
    EXPECT_EQ(scan->tierFor(small), nvidia ? ScanTier::SinglePass : ScanTier::Subgroup);
    EXPECT_EQ(scan->tierFor(large), ScanTier::Subgroup);
    EXPECT_EQ(scan->tier(), ScanTier::Subgroup);
    EXPECT_EQ(sieve::prim::autoScanTier(dev, small), scan->tierFor(small));
    check(PrimOptions{}, makeData(Data::Counts, 65537), "auto");
}

}  // namespace
