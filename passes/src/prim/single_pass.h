#pragma once
// Tier c of the exclusive scan: one pass with decoupled look-back (shaders/prim/scan_single.comp),
// optionally fused with stable compaction (records scattered instead of offsets written).
#include "prim/common.h"

namespace sieve::prim::detail {

class SinglePass {
public:
    // mode 0: offsets; 1: u32 records; 2: draw-command records (see shaders/prim/record.glsl). Uses
    // options.lookbackSpins and options.packedLookbackStatus. Needs subgroup ballot and arithmetic.
    static Result<SinglePass> create(const DeviceInfo& dev, const Tiles& tiles, const PrimOptions& options,
                                     bool binarize, uint32_t mode, bool payload);
    uint64_t scratchBytes(uint64_t n) const;

    struct Targets {
        BufferRange output;   // mode 0: offsets, n words; else the records, capacity of them
        Word total;           // mode 0: the total; else the count
        Word overflow;        // modes 1, 2
        BufferRange payload;  // modes 1, 2 with a payload: per-item words (recordWords per item)
        uint32_t capacity = 0;
    };
    // n > 0.
    void record(VkCommandBuffer cmd, BufferRange input, const Targets& targets, BufferRange scratch, uint64_t n) const;
    uint32_t tile() const { return tile_; }
    bool packed() const { return packed_; }  // one 64-bit status word per tile (else three u32 words)

private:
    uint64_t chunk() const;
    // Scratch words: the chunks' tile counters (padded to 8 bytes when packed), then the tile status.
    uint64_t counterWords(uint64_t n) const;
    uint64_t statusWords(uint64_t n) const;
    DeviceInfo dev_;
    uint32_t tile_ = 0;
    uint32_t mode_ = 0;
    bool payload_ = false;
    bool packed_ = false;
    ComputePipeline pipe_;
    Clear clear_;
};

}  // namespace sieve::prim::detail
