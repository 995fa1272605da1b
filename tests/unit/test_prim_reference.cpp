// The CPU references of the prim GPU primitives, on the seed's worked examples (seeds/000).
#include <gtest/gtest.h>

#include <limits>

#include "sieve/prim/bound.h"
#include "sieve/prim/reference.h"

using namespace sieve::prim;

TEST(PrimReference, ExclusiveScanOfTheSeedExample) {
    // [1,0,1,1, 0,1,1] -> offsets [0,1,1,2,3,3,4], total 5.
    const std::vector<uint32_t> flags{1, 0, 1, 1, 0, 1, 1};
    EXPECT_EQ(reference::exclusiveScanWithTotal(flags), (std::vector<uint32_t>{0, 1, 1, 2, 3, 3, 4, 5}));
    EXPECT_EQ(reference::exclusiveScanWithTotal({}), (std::vector<uint32_t>{0}));
}

TEST(PrimReference, FlagScanCountsNonZeroValues) {
    const std::vector<uint32_t> flags{7, 0, 2, 0, 1};
    EXPECT_EQ(reference::flagScanWithTotal(flags), (std::vector<uint32_t>{0, 1, 1, 2, 2, 3}));
    EXPECT_EQ(reference::exclusiveScanWithTotal(flags), (std::vector<uint32_t>{0, 7, 7, 9, 9, 10}));
}

TEST(PrimReference, CompactionIsStableAndClampsToCapacity) {
    const std::vector<uint32_t> flags{1, 0, 1, 1, 0, 1, 1};
    auto all = reference::compact(flags, {}, 10);
    EXPECT_EQ(all.records, (std::vector<uint32_t>{0, 2, 3, 5, 6}));
    EXPECT_EQ(all.count, 5u);
    EXPECT_EQ(all.overflow, 0u);
    auto clamped = reference::compact(flags, {}, 3);
    EXPECT_EQ(clamped.records, (std::vector<uint32_t>{0, 2, 3}));
    EXPECT_EQ(clamped.count, 3u);
    EXPECT_EQ(clamped.overflow, 2u);
    const std::vector<uint32_t> payload{10, 11, 12, 13, 14, 15, 16};
    EXPECT_EQ(reference::compact(flags, payload, 10).records, (std::vector<uint32_t>{10, 12, 13, 15, 16}));
}

TEST(PrimReference, DrawCommandsTakeTheTemplateAndTheItemIndex) {
    const std::vector<uint32_t> flags{0, 1};
    const std::vector<uint32_t> templates{1, 2, 3, 4, 5, 36, 1, 100, uint32_t(-3), 99};
    auto c = reference::compactDraws(flags, templates, 4);
    EXPECT_EQ(c.records, (std::vector<uint32_t>{36, 1, 100, uint32_t(-3), 1}));
    EXPECT_EQ(c.count, 1u);
}

TEST(PrimReference, MinMaxIdentitiesAndSigns) {
    EXPECT_EQ(reference::min({}), std::numeric_limits<float>::infinity());
    EXPECT_EQ(reference::max({}), -std::numeric_limits<float>::infinity());
    const std::vector<float> neg{-3, -1, -7};
    EXPECT_EQ(reference::min(neg), -7.0f);
    EXPECT_EQ(reference::max(neg), -1.0f);  // a zero identity would wrongly give 0
    const std::vector<float> pos{3, 1, 7};
    EXPECT_EQ(reference::min(pos), 1.0f);  // a zero identity would wrongly give 0
}

TEST(PrimReference, SumBounds) {
    EXPECT_TRUE(SumBound::flags(0xffffffffull).fitsU32());
    EXPECT_FALSE(SumBound::perValue(1u << 20, 1u << 12).fitsU32());  // 2^32
    EXPECT_TRUE(SumBound::perValue(1u << 20, (1u << 12) - 1).fitsU32());
    EXPECT_FALSE(SumBound{}.fitsU32());
}
