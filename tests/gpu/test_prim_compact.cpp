// Stable compaction on the GPU (scan + scatter with every scan tier, one-pass look-back, gather) and the
// unordered atomic-append peer, for u32 and draw-command records, compared exactly with the CPU
// reference, including capacity overflow with guard words after the records.
#include "gpu/test_prim_common.h"

using namespace prim_test;

namespace {

struct Config {
    CompactMethod method;
    ScanTier tier;
    bool subgroups;
};
const Config kConfigs[] = {{CompactMethod::ScanScatter, ScanTier::Multilevel, false},
                           {CompactMethod::ScanScatter, ScanTier::Subgroup, true},
                           {CompactMethod::ScanScatter, ScanTier::SinglePass, true},
                           {CompactMethod::ScanScatter, ScanTier::SinglePass, false},
                           {CompactMethod::OnePass, ScanTier::SinglePass, true},
                           {CompactMethod::OnePass, ScanTier::SinglePass, false},
                           {CompactMethod::Gather, ScanTier::Subgroup, false},
                           {CompactMethod::Gather, ScanTier::SinglePass, true}};

std::string configName(const Config& c) {
    std::string s = sieve::prim::methodName(c.method);
    std::replace(s.begin(), s.end(), '-', '_');
    return s + "_" +
           (c.tier == ScanTier::Multilevel ? "A"
            : c.tier == ScanTier::Subgroup ? "B"
                                           : "C") +
           (c.subgroups ? "_sg" : "_shared");
}

class PrimCompact : public testing_gpu::GpuTest {
protected:
    struct Got {
        std::vector<uint32_t> records;  // capacity + guard records' words
        uint32_t count = 0, overflow = 0;
    };

    // Runs the compaction; count and overflow share one small buffer at unaligned offsets 4 and 12.
    Got run(const CompactOptions& options, const std::vector<uint32_t>& flags, const std::vector<uint32_t>& payload,
            uint32_t capacity) {
        Got got;
        auto compact = sieve::prim::Compact::create(ctx().info(), options);
        EXPECT_TRUE(compact) << compact.error().message;
        if (!compact) return got;
        const uint32_t words = compact->recordBytes() / 4;
        const size_t n = flags.size();
        engine::Buffer f = makeBuffer(flags);
        engine::Buffer p = makeBuffer(payload.empty() ? std::vector<uint32_t>{0} : payload);
        engine::Buffer out = makeBuffer(guarded(size_t(capacity) * words));
        engine::Buffer counts = makeBuffer(std::vector<uint32_t>(8, kGuard));
        engine::Buffer scratch = makeEmpty(std::max<VkDeviceSize>(compact->scratchBytes(n), 4));
        const auto rec = recordCompact(
            *compact, {f.range(), p.range(), out.range(), counts.range(4, 4), counts.range(12, 4), scratch.range()}, n,
            capacity);
        EXPECT_TRUE(rec) << rec.error().message;
        got.records = read<uint32_t>(out, size_t(capacity) * words + kGuardWords);
        const auto c = read<uint32_t>(counts, 8);
        got.count = c[1];
        got.overflow = c[3];
        EXPECT_EQ(c[0], kGuard);
        EXPECT_EQ(c[2], kGuard);
        EXPECT_EQ(c[4], kGuard);
        return got;
    }

    void check(const CompactOptions& options, const std::vector<uint32_t>& flags, const std::vector<uint32_t>& payload,
               uint32_t capacity, const std::string& what) {
        const Got got = run(options, flags, payload, capacity);
        const bool draws = options.record == RecordKind::DrawIndexed;
        const uint32_t words = draws ? 5 : 1;
        const auto expect = draws ? sieve::prim::reference::compactDraws(flags, payload, capacity)
                                  : sieve::prim::reference::compact(
                                        flags, options.payload ? payload : std::vector<uint32_t>{}, capacity);
        ASSERT_EQ(got.count, expect.count) << what;
        ASSERT_EQ(got.overflow, expect.overflow) << what;
        ASSERT_EQ(got.records.size(), size_t(capacity) * words + kGuardWords);
        if (options.method == CompactMethod::AtomicAppend && expect.overflow == 0) {
            // Unordered: the same records, in some order.
            std::vector<std::vector<uint32_t>> a, b;
            for (uint32_t i = 0; i < got.count; ++i) {
                a.emplace_back(got.records.begin() + i * words, got.records.begin() + (i + 1) * words);
                b.emplace_back(expect.records.begin() + i * words, expect.records.begin() + (i + 1) * words);
            }
            std::sort(a.begin(), a.end());
            std::sort(b.begin(), b.end());
            ASSERT_EQ(a, b) << what;
        } else if (options.method != CompactMethod::AtomicAppend) {
            for (size_t i = 0; i < size_t(got.count) * words; ++i)
                ASSERT_EQ(got.records[i], expect.records[i]) << what << " word " << i;
        }
        // Nothing written past the records that fit, nor past the capacity.
        for (size_t i = size_t(got.count) * words; i < got.records.size(); ++i)
            ASSERT_EQ(got.records[i], kGuard) << what << " guard word " << i;
    }
    CompactOptions options(const Config& c, RecordKind kind = RecordKind::U32, bool payload = false) {
        CompactOptions o;
        o.method = c.method;
        o.prim.tier = c.tier;
        o.prim.subgroups = c.subgroups;
        o.record = kind;
        o.payload = payload;
        return o;
    }
    static std::vector<uint32_t> templates(size_t n) {
        std::vector<uint32_t> t(n * 5);
        for (size_t i = 0; i < n; ++i) {
            t[i * 5 + 0] = 3 * uint32_t(i % 97) + 3;   // indexCount
            t[i * 5 + 1] = 1;                          // instanceCount
            t[i * 5 + 2] = uint32_t(i * 7);            // firstIndex
            t[i * 5 + 3] = uint32_t(-int32_t(i % 5));  // vertexOffset (negative as two's complement)
            t[i * 5 + 4] = 0xffffffffu;                // firstInstance: overwritten with i
        }
        return t;
    }
};

class PrimCompactMethods : public PrimCompact, public ::testing::WithParamInterface<Config> {};

TEST_P(PrimCompactMethods, IndicesAtEdgeSizesAreStable) {
    const uint32_t sg = ctx().info().subgroupSize;
    for (size_t n : {size_t(0), size_t(1), size_t(2), size_t(sg - 1), size_t(sg + 1), size_t(63), size_t(64),
                     size_t(65), size_t(4095), size_t(4096), size_t(4097), size_t(65537)})
        check(options(GetParam()), makeData(Data::Density50, n, n), {}, uint32_t(n), "n=" + std::to_string(n));
}

TEST_P(PrimCompactMethods, DensitiesAndNonBinaryFlags) {
    for (Data d : {Data::Zeros, Data::Ones, Data::Density1, Data::Density99, Data::Sparse7})
        check(options(GetParam()), makeData(d, 20011), {}, 20011, dataName(d));
}

TEST_P(PrimCompactMethods, PayloadRecords) {
    const size_t n = 9000;
    std::vector<uint32_t> payload(n);
    for (size_t i = 0; i < n; ++i) payload[i] = uint32_t(i * 2654435761u);
    check(options(GetParam(), RecordKind::U32, true), makeData(Data::Density50, n), payload, uint32_t(n), "payload");
}

TEST_P(PrimCompactMethods, DrawCommandsFromTemplates) {
    const size_t n = 5003;
    check(options(GetParam(), RecordKind::DrawIndexed), makeData(Data::Density50, n), templates(n), uint32_t(n),
          "draws");
}

TEST_P(PrimCompactMethods, CapacityOverflowClampsAndCounts) {
    const auto flags = makeData(Data::Density50, 10007);
    for (uint32_t cap : {0u, 1u, 100u, 4999u})
        check(options(GetParam()), flags, {}, cap, "capacity " + std::to_string(cap));
    check(options(GetParam(), RecordKind::DrawIndexed), flags, templates(flags.size()), 777, "draw capacity 777");
}

TEST_P(PrimCompactMethods, LargeInput) {
    check(options(GetParam()), makeData(Data::Density50, (1u << 20) + 3), {}, (1u << 20) + 3, "2^20+3");
}

TEST_P(PrimCompactMethods, FoldedAndChunked) {
    sieve::overrideMaxGroupsX(3);
    // Gather needs all items in one binding (tested below), so it is only folded here.
    if (GetParam().method != CompactMethod::Gather) sieve::prim::overrideMaxBindingBytes(3 * 4096 * 20);
    // Records must fit one binding: capacity 12000 (< 245760 / 20), which also overflows.
    const size_t n = 70001;
    check(options(GetParam()), makeData(Data::Density50, n), {}, 12000, "folded+chunked");
    check(options(GetParam()), makeData(Data::Density1, n), {}, 12000, "folded+chunked sparse");
    check(options(GetParam(), RecordKind::DrawIndexed), makeData(Data::Density99, n), templates(n), 12000,
          "folded+chunked draws");
    sieve::prim::overrideMaxBindingBytes(0);
    sieve::overrideMaxGroupsX(0);
}

INSTANTIATE_TEST_SUITE_P(Methods, PrimCompactMethods, ::testing::ValuesIn(kConfigs),
                         [](const auto& info) { return configName(info.param); });

TEST_F(PrimCompact, AtomicAppendKeepsTheSetButNotTheOrder) {
    CompactOptions o;
    o.method = CompactMethod::AtomicAppend;
    for (size_t n : {0u, 1u, 65u, 4097u, 65537u}) check(o, makeData(Data::Density50, n, n), {}, uint32_t(n), "append");
    check(o, makeData(Data::Density50, 10007), {}, 100, "append overflow");
    o.record = RecordKind::DrawIndexed;
    check(o, makeData(Data::Density50, 5003), templates(5003), 5003, "append draws");
}

TEST_F(PrimCompact, GatherRefusesInputsBeyondOneBinding) {
    CompactOptions o;
    o.method = CompactMethod::Gather;
    auto compact = sieve::prim::Compact::create(ctx().info(), o);
    ASSERT_TRUE(compact) << compact.error().message;
    const uint32_t n = 20000;
    engine::Buffer buf = makeEmpty(std::max<VkDeviceSize>(compact->scratchBytes(n), n * 4));
    sieve::prim::overrideMaxBindingBytes(4096 * 4);
    const auto rec =
        recordCompact(*compact, {buf.range(), buf.range(), buf.range(), buf.range(), buf.range(), buf.range()}, n, 16);
    sieve::prim::overrideMaxBindingBytes(0);
    ASSERT_FALSE(rec);
    EXPECT_NE(rec.error().message.find("gather"), std::string::npos) << rec.error().message;
}

TEST_F(PrimCompact, OnePassWithSmallTilesAndNoWaiting) {
    CompactOptions o;
    o.method = CompactMethod::OnePass;
    o.prim.workgroupSize = 32;
    o.prim.vectorsPerThread = 1;
    o.prim.lookbackSpins = 1;
    check(o, makeData(Data::Density50, 30000), {}, 30000, "onepass spins=1");
    check(o, makeData(Data::Density50, 30000), {}, 1000, "onepass spins=1 overflow");
}

// The two-word look-back status (devices without 64-bit buffer atomics), waiting and not waiting.
TEST_F(PrimCompact, OnePassWithTwoWordStatus) {
    CompactOptions o;
    o.method = CompactMethod::OnePass;
    o.prim.packedLookbackStatus = false;
    {
        auto c = sieve::prim::Compact::create(ctx().info(), o);
        ASSERT_TRUE(c) << c.error().message;
        EXPECT_FALSE(c->packedLookbackStatus());
        EXPECT_EQ(c->scanTier(), ScanTier::SinglePass);
    }
    check(o, makeData(Data::Density50, 65537), {}, 65537, "onepass two words");
    o.record = RecordKind::DrawIndexed;
    check(o, makeData(Data::Density50, 5003), templates(5003), 5003, "onepass two words draws");
    o.record = RecordKind::U32;
    o.prim.workgroupSize = 32;
    o.prim.vectorsPerThread = 1;
    o.prim.lookbackSpins = 1;
    check(o, makeData(Data::Density50, 30000), {}, 30000, "onepass two words spins=1");
    o.prim.lookbackPerLane = 8;
    check(o, makeData(Data::Density50, 30000), {}, 30000, "onepass two words, 8 per lane, spins=1");
    o.prim.packedLookbackStatus = true;
    o.prim.lookbackSpins = 2048;
    check(o, makeData(Data::Density50, 30000), {}, 1000, "onepass packed, 8 per lane, overflow");
}

}  // namespace
