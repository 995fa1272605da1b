#pragma once
// Internals shared by the primitives: tile geometry, chunking of large inputs, single-word outputs at
// any 4-byte offset, and the compute -> compute barrier between internal dispatches.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "core/vk.h"
#include "shared/prim_bindings.h"
#include "shared/prim_push.h"
#include "sieve/gpu.h"
#include "sieve/pipeline.h"
#include "sieve/prim/config.h"
#include "sieve/prim/scan.h"
#include "sieve/result.h"

namespace sieve::prim::detail {

struct Tiles {
    uint32_t workgroup = 256;
    uint32_t vectors = 4;
    bool subgroups = false;
    uint32_t tile() const { return workgroup * vectors * 4; }
    // Specialization constants 0..2 of every prim shader (see shaders/prim/config.glsl).
    std::array<uint32_t, 3> spec() const { return {workgroup, vectors, subgroups ? 1u : 0u}; }
};

// The options of a scan whose scratch is transient (the culling and cluster plugins' slots: nobody keeps
// it zeroed between frames): the persistent look-back state, which needs a scratch zeroed once and kept,
// is turned off (with it, stale tile ids read out of range: issue 22).
inline PrimOptions forTransientScratch(PrimOptions o) {
    o.persistentLookback = false;
    return o;
}

// Validates the options and resolves subgroup use against the device.
Result<Tiles> resolveTiles(const DeviceInfo& dev, const PrimOptions& options, bool wantSubgroups);

inline uint64_t ceilDiv(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}
inline uint64_t alignUp(uint64_t a, uint64_t b) {
    return ceilDiv(a, b) * b;
}

// Scan scratch that serves every count m <= n, whichever tier autoScanTier picks for m; needFor(m) is the
// scratch of the tier that scans m. Scratch sized once for a maximum (the plugin's maxInstances) must
// also serve the smaller counts of later frames. Within a tier the need grows with the count, and the
// rule switches tiers only at kAutoSinglePassMaxElements, so the largest need is at n or at the
// threshold.
template <typename NeedFor>
uint64_t scanScratchUpTo(uint64_t n, NeedFor needFor) {
    return std::max<uint64_t>(needFor(n), needFor(std::min(n, kAutoSinglePassMaxElements)));
}

// Offsets of sub-ranges we carve from scratch must satisfy minStorageBufferOffsetAlignment.
uint64_t storageAlignment(const DeviceInfo& dev);

// Largest element count per binding (a multiple of `granule`) for elements of `bytesPerElement`.
uint64_t chunkElements(const DeviceInfo& dev, uint64_t bytesPerElement, uint64_t granule);
uint64_t maxBindingBytes(const DeviceInfo& dev);

// A single u32 at any 4-byte-aligned offset: bound from the aligned offset below it, addressed by word.
struct Word {
    Binding binding;
    uint32_t index = 0;
};
Word wordAt(const DeviceInfo& dev, BufferRange range, VkDeviceSize byteOffset = 0);

// Sub-range of a caller's array; errors when the array range is too small or misaligned.
Result<void> checkArray(const DeviceInfo& dev, const BufferRange& r, uint64_t bytes, const char* what);
Result<void> checkWord(const BufferRange& r, const char* what);
inline BufferRange sub(const BufferRange& r, uint64_t offset, uint64_t size) {
    return {r.buffer, r.offset + offset, size};
}

// Storage writes of one dispatch -> storage reads and writes of the next (both compute).
void computeBarrier(VkCommandBuffer cmd);

// ComputePipeline::create with the tile constants followed by `extra`.
Result<ComputePipeline> makePipeline(const DeviceInfo& dev, const char* shader, uint32_t pushBytes, const Tiles& tiles,
                                     std::initializer_list<uint32_t> extra);

// Records dst[first .. first + count) = value (prim/clear.comp).
class Clear {
public:
    static Result<Clear> create(const DeviceInfo& dev);
    void record(VkCommandBuffer cmd, Binding dst, uint32_t first, uint32_t count, uint32_t value) const;

private:
    ComputePipeline pipe_;
};

}  // namespace sieve::prim::detail
