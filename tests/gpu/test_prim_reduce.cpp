// Reductions (sum u32, min/max f32) compared exactly with the CPU reference; empty inputs answered on
// the host.
#include <cmath>
#include <cstring>
#include <limits>

#include "gpu/test_prim_common.h"
#include "sieve/pipeline.h"
#include "sieve/prim/reduce.h"
#include "sieve/prim/reference.h"

using namespace prim_test;
using sieve::prim::ReduceOp;

namespace {

class PrimReduce : public testing_gpu::GpuTest, public ::testing::WithParamInterface<bool> {
protected:
    // Returns the raw result bits; `recorded` says whether the GPU was used.
    uint32_t run(ReduceOp op, const std::vector<uint32_t>& bits, bool& recorded, uint64_t bound = 0xffffffffu) {
        sieve::prim::PrimOptions o;
        o.subgroups = GetParam();
        auto reduce = sieve::prim::Reduce::create(ctx().info(), op, o);
        EXPECT_TRUE(reduce) << reduce.error().message;
        const size_t n = bits.size();
        engine::Buffer in = makeBuffer(bits);
        engine::Buffer out = makeBuffer(std::vector<uint32_t>(4, kGuard));
        engine::Buffer scratch = makeEmpty(std::max<VkDeviceSize>(reduce->scratchBytes(n), 4));
        sieve::Result<bool> rec = false;
        auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
            rec = reduce->record(cmd, in.range(), out.range(8, 4), scratch.range(), uint32_t(n),
                                 sieve::prim::SumBound::total(bound));
        });
        EXPECT_TRUE(r) << r.error().message;
        EXPECT_TRUE(rec) << rec.error().message;
        recorded = rec && rec.value();
        const auto got = read<uint32_t>(out, 4);
        EXPECT_EQ(got[1], kGuard);
        EXPECT_EQ(got[3], kGuard);
        return recorded ? got[2] : reduce->identityBits();
    }
    static std::vector<uint32_t> floats(size_t n, float lo, float hi, uint64_t seed) {
        std::vector<uint32_t> v(n);
        uint64_t s = seed;
        for (auto& x : v) {
            float f = lo + (hi - lo) * float(lcg(s) % 1000003) / 1000003.0f;
            std::memcpy(&x, &f, 4);
        }
        return v;
    }
    static float asFloat(uint32_t b) {
        float f;
        std::memcpy(&f, &b, 4);
        return f;
    }
};

const size_t kSizes[] = {1, 2, 7, 8, 9, 63, 64, 65, 4095, 4096, 4097, 65537, 4096 * 4096 + 5};

TEST_P(PrimReduce, SumMatchesReference) {
    for (size_t n : kSizes) {
        const auto v = makeData(Data::Counts, n, n);
        bool recorded = false;
        EXPECT_EQ(run(ReduceOp::SumU32, v, recorded), sieve::prim::reference::sum(v)) << n;
        EXPECT_TRUE(recorded);
    }
}

TEST_P(PrimReduce, MinMaxOnPositiveAndNegativeInputs) {
    for (size_t n : kSizes) {
        if (n > 70000) continue;
        for (auto [lo, hi] : {std::pair{1.0f, 1000.0f}, std::pair{-1000.0f, -1.0f}, std::pair{-5.0f, 5.0f}}) {
            const auto bits = floats(n, lo, hi, n);
            std::vector<float> f(n);
            std::memcpy(f.data(), bits.data(), n * 4);
            bool recorded = false;
            EXPECT_EQ(asFloat(run(ReduceOp::MinF32, bits, recorded)), sieve::prim::reference::min(f)) << n << " " << lo;
            EXPECT_EQ(asFloat(run(ReduceOp::MaxF32, bits, recorded)), sieve::prim::reference::max(f)) << n << " " << lo;
        }
    }
}

TEST_P(PrimReduce, EmptyInputIsAnsweredOnTheHost) {
    bool recorded = true;
    EXPECT_EQ(run(ReduceOp::SumU32, {}, recorded), 0u);
    EXPECT_FALSE(recorded);
    EXPECT_EQ(asFloat(run(ReduceOp::MinF32, {}, recorded)), std::numeric_limits<float>::infinity());
    EXPECT_EQ(asFloat(run(ReduceOp::MaxF32, {}, recorded)), -std::numeric_limits<float>::infinity());
}

TEST_P(PrimReduce, ChunkedAndFolded) {
    sieve::overrideMaxGroupsX(2);
    sieve::prim::overrideMaxBindingBytes(2 * 4096 * 4);
    const auto v = makeData(Data::Counts, 40000);
    bool recorded = false;
    EXPECT_EQ(run(ReduceOp::SumU32, v, recorded), sieve::prim::reference::sum(v));
    sieve::prim::overrideMaxBindingBytes(0);
    sieve::overrideMaxGroupsX(0);
}

TEST_P(PrimReduce, RefusesSumsThatCouldOverflow) {
    auto reduce = sieve::prim::Reduce::create(ctx().info(), ReduceOp::SumU32);
    ASSERT_TRUE(reduce);
    engine::Buffer buf = makeEmpty(64);
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        auto rec = reduce->record(cmd, buf.range(), buf.range(), buf.range(), 16,
                                  sieve::prim::SumBound::perValue(16, 0x40000000u));
        EXPECT_FALSE(rec);
        auto unknown = reduce->record(cmd, buf.range(), buf.range(), buf.range(), 16);
        EXPECT_FALSE(unknown);
    });
    ASSERT_TRUE(r);
}

INSTANTIATE_TEST_SUITE_P(Subgroups, PrimReduce, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "sg" : "shared"; });

}  // namespace
