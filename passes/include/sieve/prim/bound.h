#pragma once
// What the caller declares about the size of a sum, so that sums that could overflow u32 are rejected on
// the host before anything is recorded (the GPU would silently wrap).
#include <cstdint>

namespace sieve::prim {

struct SumBound {
    uint64_t maxTotal = UINT64_MAX;  // default: unknown, rejected

    // 0/1 flags: the sum is at most n.
    static SumBound flags(uint64_t n) { return {n}; }
    // General non-negative counts, each at most maxValue.
    static SumBound perValue(uint64_t n, uint32_t maxValue) { return {n * uint64_t(maxValue)}; }
    // The caller knows the total itself (for example, computed on the host).
    static SumBound total(uint64_t t) { return {t}; }
    bool fitsU32() const { return maxTotal <= UINT32_MAX; }
};

}  // namespace sieve::prim
