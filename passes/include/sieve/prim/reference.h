#pragma once
// CPU references of the GPU primitives (seeds/000: the CPU reference is the specification). Shared by
// the tests and `sieve-bench prim --verify`.
#include <cstdint>
#include <span>
#include <vector>

namespace sieve::prim::reference {

uint32_t sum(std::span<const uint32_t> values);  // wraps mod 2^32 like the GPU; callers bound it
float min(std::span<const float> values);        // +inf for an empty input
float max(std::span<const float> values);        // -inf for an empty input

// Exclusive scan: out[i] = values[0] + ... + values[i-1]; returns n + 1 words, the last is the total.
std::vector<uint32_t> exclusiveScanWithTotal(std::span<const uint32_t> values);
// The same of (values != 0).
std::vector<uint32_t> flagScanWithTotal(std::span<const uint32_t> flags);

struct Compacted {
    std::vector<uint32_t> records;  // min(kept, capacity) records of recordWords words each
    uint32_t count = 0;             // min(kept, capacity)
    uint32_t overflow = 0;          // kept - count
};
// Stable compaction of u32 records: payload[i] (or i when payload is empty) for each flags[i] != 0.
Compacted compact(std::span<const uint32_t> flags, std::span<const uint32_t> payload, uint32_t capacity);
// Draw commands: template i (5 words) with firstInstance = i.
Compacted compactDraws(std::span<const uint32_t> flags, std::span<const uint32_t> templates, uint32_t capacity);

}  // namespace sieve::prim::reference
