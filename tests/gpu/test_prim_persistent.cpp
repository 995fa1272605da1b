// Tier c with persistent look-back state (PrimOptions::persistentLookback): the scratch is zero-filled
// once, then one scratch serves a sequence of scans (and one-pass compactions) of different sizes and data
// with no clear pass; stale statuses of earlier scans must never count. Compared exactly with the CPU
// reference, with guard words after every output.
#include "gpu/test_prim_common.h"

using namespace prim_test;

namespace {

class PrimPersistent : public PrimTest {
protected:
    static PrimOptions persistent(bool packed, uint32_t spins = 2048, uint32_t workgroup = 256, uint32_t vectors = 4) {
        PrimOptions o;
        o.tier = ScanTier::SinglePass;
        o.persistentLookback = true;
        o.packedLookbackStatus = packed;
        o.lookbackSpins = spins;
        o.workgroupSize = workgroup;
        o.vectorsPerThread = vectors;
        return o;
    }

    // Scans each input in turn on one scratch (zero-filled once, sized for the largest input).
    void scanSequence(const PrimOptions& o, const std::vector<std::vector<uint32_t>>& inputs, const std::string& what) {
        auto scan = sieve::prim::Scan::create(ctx().info(), o);
        ASSERT_TRUE(scan) << scan.error().message;
        size_t maxN = 0;
        for (const auto& in : inputs) maxN = std::max(maxN, in.size());
        engine::Buffer scratch =
            makeBuffer(std::vector<uint32_t>(std::max<VkDeviceSize>(scan->scratchBytes(maxN), 4) / 4 + 1, 0));
        for (size_t k = 0; k < inputs.size(); ++k) {
            const auto& input = inputs[k];
            scanAndCheck(*scan, input, scratch.range(),
                         what + " scan " + std::to_string(k) + " n=" + std::to_string(input.size()));
            if (HasFatalFailure()) return;
        }
    }

    // Sizes that grow, shrink and grow again, so later scans read statuses earlier ones left behind.
    static std::vector<std::vector<uint32_t>> inputs(std::initializer_list<size_t> sizes) {
        std::vector<std::vector<uint32_t>> v;
        uint64_t seed = 11;
        for (size_t n : sizes) v.push_back(makeData(Data::Counts, n, seed++));
        return v;
    }
};

}  // namespace

TEST_F(PrimPersistent, ScansShareOneScratchWithoutClearing) {
    for (bool packed : {true, false})
        scanSequence(persistent(packed), inputs({65537, 1, 4097, (1u << 20) + 3, 5000, 65537, 4096, 4095}),
                     packed ? "packed" : "words");
}

TEST_F(PrimPersistent, ManyTilesAndTheFallback) {
    // Tile 128: 50000 elements are 391 tiles. spins = 1: tiles reduce silent predecessors themselves,
    // which is where a stale status taken for a current one would show.
    for (bool packed : {true, false})
        for (uint32_t spins : {2048u, 1u})
            scanSequence(persistent(packed, spins, 32, 1), inputs({50000, 20000, 50000, 3, 50000}),
                         std::string(packed ? "packed" : "words") + " spins " + std::to_string(spins));
}

TEST_F(PrimPersistent, ChunkedBeyondBindingLimit) {
    sieve::prim::overrideMaxBindingBytes(3 * 4096 * 4);  // three tiles per binding
    for (bool packed : {true, false})
        scanSequence(persistent(packed), inputs({65537, 12289, 3 * 4096, 65537, 100, 65537}),
                     std::string("chunked ") + (packed ? "packed" : "words"));
    sieve::prim::overrideMaxBindingBytes(0);
}

TEST_F(PrimPersistent, OnePassCompactionRepeats) {
    CompactOptions o;
    o.method = CompactMethod::OnePass;
    o.prim = persistent(true);
    auto compact = sieve::prim::Compact::create(ctx().info(), o);
    ASSERT_TRUE(compact) << compact.error().message;
    const size_t maxN = (1u << 18) + 5;
    engine::Buffer scratch = makeBuffer(std::vector<uint32_t>(compact->scratchBytes(maxN) / 4 + 1, 0));
    const Data kinds[] = {Data::Density50, Data::Density1, Data::Density99, Data::Sparse7, Data::Density50};
    const size_t sizes[] = {maxN, 4097, maxN, 77777, 1};
    for (size_t k = 0; k < 5; ++k) {
        const auto flags = makeData(kinds[k], sizes[k], 40 + k);
        const size_t n = flags.size();
        const uint32_t capacity = uint32_t(n / 2);  // overflows at density 99
        const auto expect = sieve::prim::reference::compact(flags, {}, capacity);
        engine::Buffer f = makeBuffer(flags);
        engine::Buffer out = makeBuffer(guarded(capacity));
        engine::Buffer counts = makeBuffer(std::vector<uint32_t>(4, kGuard));
        const auto rec = recordCompact(
            *compact, {f.range(), f.range(), out.range(), counts.range(0, 4), counts.range(4, 4), scratch.range()}, n,
            capacity);
        ASSERT_TRUE(rec) << rec.error().message;
        const auto c = read<uint32_t>(counts, 4);
        ASSERT_EQ(c[0], expect.count) << "use " << k;
        ASSERT_EQ(c[1], expect.overflow) << "use " << k;
        const auto got = read<uint32_t>(out, capacity + kGuardWords);
        for (uint32_t i = 0; i < expect.count; ++i) ASSERT_EQ(got[i], expect.records[i]) << "use " << k << " " << i;
        for (size_t i = expect.count; i < got.size(); ++i) ASSERT_EQ(got[i], kGuard) << "use " << k << " guard " << i;
    }
}

TEST_F(PrimPersistent, RefusedWhereTheScratchLayoutMoves) {
    PrimOptions o;
    o.persistentLookback = true;  // tier Auto
    auto scan = sieve::prim::Scan::create(ctx().info(), o);
    ASSERT_FALSE(scan);
    EXPECT_NE(scan.error().message.find("persistentLookback"), std::string::npos) << scan.error().message;
    o.tier = ScanTier::Subgroup;
    EXPECT_FALSE(sieve::prim::Scan::create(ctx().info(), o));
    CompactOptions c;
    c.method = CompactMethod::ScanScatter;
    c.prim = persistent(true);
    auto compact = sieve::prim::Compact::create(ctx().info(), c);
    ASSERT_FALSE(compact);
    EXPECT_NE(compact.error().message.find("OnePass"), std::string::npos) << compact.error().message;
}
