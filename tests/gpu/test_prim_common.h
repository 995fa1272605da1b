#pragma once
// Helpers shared by the prim GPU tests: deterministic inputs and guarded output buffers.
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/gpu_fixture.h"

namespace prim_test {

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

}  // namespace prim_test
