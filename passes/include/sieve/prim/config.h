#pragma once
// Options shared by the GPU primitives (reduce, scan, compaction).
#include <cstdint>

namespace sieve::prim {

// How the exclusive scan runs. All tiers give identical results.
enum class ScanTier : uint32_t {
    Auto = 0,    // per device: autoScanTier() in sieve/prim/scan.h, rule below
    Multilevel,  // (a) portable reduce-then-scan: block sums scanned recursively and added back; shared memory only
    Subgroup,    // (b) the same structure with the workgroup scan on subgroup arithmetic (shared memory if absent)
    SinglePass,  // (c) one pass with decoupled look-back; bounded spinning, never hangs
};
// ScanTier::Auto, chosen from measurements (bench/RESULTS.md, "Primitives (H200)"):
//  - NVIDIA (vendor 0x10DE): SinglePass. On the H200 it reads and writes each element once and its
//    subgroup-parallel look-back keeps up with memory, so it beats the two-pass tiers at every size.
//  - every other device: Subgroup (b), which reads the input twice but needs no workgroup to wait for
//    another; nothing measured says SinglePass wins there (on lavapipe workgroups are CPU threads and a
//    waiting tile burns a core).
//  - SinglePass also needs subgroup ballot and arithmetic; without them Auto is Subgroup.

const char* tierName(ScanTier tier);

struct PrimOptions {
    ScanTier tier = ScanTier::Auto;
    // Use subgroup arithmetic where the device has it (tiers b and c, and reductions). false forces the
    // shared-memory workgroup scan.
    bool subgroups = true;
    uint32_t workgroupSize = 256;   // power of two, 32..1024 (and at least the subgroup size)
    uint32_t vectorsPerThread = 4;  // uvec4 loads per invocation and tile, 1..4; tile = workgroupSize * 4 * this
    uint32_t lookbackSpins = 2048;  // polls of a window with silent predecessors before the tile reduces their input
    // Tier c keeps each tile's state and value in one 64-bit word (one atomic load per predecessor, no
    // fences) where the device has 64-bit buffer atomics (DeviceInfo::bufferInt64Atomics); false forces the
    // portable two-word layout (state, then value behind a fence), for tests and comparisons.
    bool packedLookbackStatus = true;
};

// Test hook: pretend that storage-buffer bindings are limited to `bytes` (0 restores the device limit),
// so the chunking that lets inputs exceed maxStorageBufferRange is exercised at small sizes.
void overrideMaxBindingBytes(uint64_t bytes);

}  // namespace sieve::prim
