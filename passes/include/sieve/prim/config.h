#pragma once
// Options shared by the GPU primitives (reduce, scan, compaction).
#include <cstdint>

namespace sieve::prim {

// How the exclusive scan runs. All tiers give identical results.
enum class ScanTier : uint32_t {
    Auto = 0,    // SinglePass
    Multilevel,  // (a) portable reduce-then-scan: block sums scanned recursively and added back; shared memory only
    Subgroup,    // (b) the same structure with the workgroup scan on subgroup arithmetic (shared memory if absent)
    SinglePass,  // (c) one pass with decoupled look-back; bounded spinning, never hangs
};

const char* tierName(ScanTier tier);

struct PrimOptions {
    ScanTier tier = ScanTier::Auto;
    // Use subgroup arithmetic where the device has it (tiers b and c, and reductions). false forces the
    // shared-memory workgroup scan.
    bool subgroups = true;
    uint32_t workgroupSize = 256;   // power of two, 32..1024 (and at least the subgroup size)
    uint32_t vectorsPerThread = 4;  // uvec4 loads per invocation and tile, 1..4; tile = workgroupSize * 4 * this
    uint32_t lookbackSpins = 2048;  // polls of a silent predecessor before the tile reduces its input itself
};

// Test hook: pretend that storage-buffer bindings are limited to `bytes` (0 restores the device limit),
// so the chunking that lets inputs exceed maxStorageBufferRange is exercised at small sizes.
void overrideMaxBindingBytes(uint64_t bytes);

}  // namespace sieve::prim
