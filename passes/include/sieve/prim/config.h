#pragma once
// Options shared by the GPU primitives (reduce, scan, compaction).
#include <cstdint>

namespace sieve::prim {

// How the exclusive scan runs. All tiers give identical results.
enum class ScanTier : uint32_t {
    Auto = 0,    // per device and size: the rule below (autoScanTier(), passes/src/prim/scan.cpp)
    Multilevel,  // (a) portable reduce-then-scan: block sums scanned recursively and added back; shared memory only
    Subgroup,    // (b) the same structure with the workgroup scan on subgroup arithmetic (shared memory if absent)
    SinglePass,  // (c) one pass with decoupled look-back; bounded spinning, never hangs
};
// ScanTier::Auto, chosen per device and size from measurements (bench/RESULTS.md, top section "H200,
// 2026-12-01"; autoScanTier() in passes/src/prim/scan.cpp). H200, driver 580.159.04, warmed by time, interleaved
// with a compute copy, verified (tier c without persistentLookback, which Auto cannot use):
//  - NVIDIA (vendor 0x10DE), n <= kAutoSinglePassMaxElements (2^22): SinglePass. 2^20: c 11.39 us, b 13.73;
//    2^22: c 20.00 us, b 21.55.
//  - NVIDIA above 2^22: Subgroup (b). 2^24: b 65.73 us, c 66.78; 2^28: b 817.3 us, c 955.5 (b reads the
//    input twice but no tile waits for another).
//  - every other device: Subgroup (b), which never makes a workgroup wait for another; nothing measured
//    says SinglePass wins there (on lavapipe workgroups are CPU threads and a waiting tile burns a core).
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
    // Tier c: predecessors each lane of the look-back subgroup inspects per poll (window = subgroup size *
    // this), 1..16. 1 is the fastest measured on the H200: 4 and 8 were slower at 2^20, 2^24 and 2^28
    // (bench/RESULTS.md, 2026-12-01).
    uint32_t lookbackPerLane = 1;
    // Tier c (ScanTier::SinglePass scans, CompactMethod::OnePass): keep the look-back state in the scratch
    // between uses instead of clearing it with a dispatch (and a barrier) before each one. The status words
    // are tagged with the epoch of the scan that wrote them and the scan advances the epoch itself, so the
    // scratch must be zero-filled ONCE, when it is allocated (as HiZBuilder's counter), and then serves
    // every later scan or compaction with the same options; a scratch used with other options (tile shape,
    // status layout) or by anything else in between needs that zero fill again. Epochs wrap after 2^30
    // uses of one scratch. Rejected with ScanTier::Auto and with the other compaction methods, whose
    // scratch layout changes with n.
    bool persistentLookback = false;
    // ScanTier::Auto decides as if the device's vendor ID were this (0: the device's own). Lets tests run
    // the NVIDIA rule, with its switch between tiers c and b, on any device that has tier c.
    uint32_t autoTierVendor = 0;
};

// Test hook: pretend that storage-buffer bindings are limited to `bytes` (0 restores the device limit),
// so the chunking that lets inputs exceed maxStorageBufferRange is exercised at small sizes.
void overrideMaxBindingBytes(uint64_t bytes);

}  // namespace sieve::prim
