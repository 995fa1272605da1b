#pragma once
// Helpers shared by the prim GPU tests: deterministic inputs, guarded output buffers, and one scan
// checked against the CPU reference.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "sieve/pipeline.h"
#include "sieve/prim/compact.h"
#include "sieve/prim/reference.h"
#include "sieve/prim/scan.h"

namespace prim_test {

using sieve::prim::CompactMethod;
using sieve::prim::CompactOptions;
using sieve::prim::PrimOptions;
using sieve::prim::RecordKind;
using sieve::prim::ScanTier;

inline constexpr uint32_t kGuard = 0xdeadbeefu;
inline constexpr uint32_t kGuardWords = 64;

enum class Data { Zeros, Ones, Density1, Density50, Density99, Counts, Sparse7 };
inline const char* dataName(Data d) {
    switch (d) {
        case Data::Zeros: return "zeros";
        case Data::Ones: return "ones";
        case Data::Density1: return "d1";
        case Data::Density50: return "d50";
        case Data::Density99: return "d99";
        case Data::Counts: return "counts";
        case Data::Sparse7: return "flags7";
    }
    return "?";
}

// A fixed-seed generator (same inputs on every run and platform).
inline uint32_t lcg(uint64_t& s) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(s >> 33);
}

inline std::vector<uint32_t> makeData(Data d, size_t n, uint64_t seed = 1) {
    std::vector<uint32_t> v(n);
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + n;
    for (auto& x : v) {
        const uint32_t r = lcg(s);
        switch (d) {
            case Data::Zeros: x = 0; break;
            case Data::Ones: x = 1; break;
            case Data::Density1: x = r % 100 < 1; break;
            case Data::Density50: x = r % 100 < 50; break;
            case Data::Density99: x = r % 100 < 99; break;
            case Data::Counts: x = r % 1001; break;                       // general counts 0..1000
            case Data::Sparse7: x = (r % 3 == 0) ? 7 + r % 5 : 0; break;  // nonzero flags other than 1
        }
    }
    return v;
}

// A buffer of n words followed by kGuardWords guard words.
inline std::vector<uint32_t> guarded(size_t n) {
    return std::vector<uint32_t>(n + kGuardWords, kGuard);
}

// Records `compact` over `b` in one submission of the shared context (which must succeed); returns what
// record() returned.
inline sieve::Result<void> recordCompact(const sieve::prim::Compact& compact, const sieve::prim::CompactBuffers& b,
                                         uint64_t n, uint32_t capacity) {
    sieve::Result<void> rec;
    auto r = testing_gpu::context().submitNow([&](VkCommandBuffer cmd) { rec = compact.record(cmd, b, n, capacity); });
    EXPECT_TRUE(r) << r.error().message;
    return rec;
}

class PrimTest : public testing_gpu::GpuTest {
protected:
    // Scans `input` with `scan` on `scratch` and checks the offsets, the guards after them, and the total,
    // written to a word at byte offset 4 of its buffer (not aligned for a storage binding, on purpose)
    // with the words around it untouched.
    void scanAndCheck(const sieve::prim::Scan& scan, const std::vector<uint32_t>& input, sieve::BufferRange scratch,
                      const std::string& what) {
        const size_t n = input.size();
        engine::Buffer in = makeBuffer(input);
        engine::Buffer out = makeBuffer(guarded(n));
        engine::Buffer total = makeBuffer(std::vector<uint32_t>(4, kGuard));
        uint64_t bound = 0;
        for (uint32_t v : input) bound += v;
        sieve::Result<void> rec;
        auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
            rec = scan.record(cmd, {in.range(), out.range(), total.range(4, 4), scratch}, n,
                              sieve::prim::SumBound::total(bound));
        });
        ASSERT_TRUE(rec) << rec.error().message;
        ASSERT_TRUE(r) << r.error().message;
        const auto expect = sieve::prim::reference::exclusiveScanWithTotal(input);
        const auto got = read<uint32_t>(out, n + kGuardWords);
        for (size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], expect[i]) << what << " offset " << i;
        for (size_t i = n; i < n + kGuardWords; ++i) ASSERT_EQ(got[i], kGuard) << what << " guard " << i - n;
        const auto t = read<uint32_t>(total, 4);
        EXPECT_EQ(t[1], expect[n]) << what << " total";
        EXPECT_EQ(t[0], kGuard);
        EXPECT_EQ(t[2], kGuard);
    }
};

}  // namespace prim_test
