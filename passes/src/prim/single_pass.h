#pragma once
// Tier c of the exclusive scan: one pass with decoupled look-back (shaders/prim/scan_single.comp),
// optionally compacting in the same pass (CompactMethod::OnePass: records scattered instead of offsets
// written).
#include "prim/common.h"

namespace sieve::prim::detail {

// The look-back form and specialization constants of prim/scan_single.glsl, for SinglePass and for the
// shaders that fold their own work into that scan (SIEVE_SCAN_HOOKS: the cluster plugin's scans). Needs
// subgroup ballot and arithmetic; uses options.lookbackSpins, packedLookbackStatus and lookbackPerLane.
struct Lookback {
    bool packed = false;                  // one 64-bit status word per tile (else three u32 words)
    std::array<uint32_t, 5> constants{};  // ids 3..7: binarize, mode, payload, spins, predecessors per lane
    static Result<Lookback> resolve(const DeviceInfo& dev, const PrimOptions& options, bool binarize, uint32_t mode,
                                    bool payload);
};

class SinglePass {
public:
    // mode 0: offsets; 1: u32 records; 2: draw-command records (see shaders/prim/record.glsl). Uses
    // options.lookbackSpins, packedLookbackStatus, lookbackPerLane and persistentLookback. Needs subgroup
    // ballot and arithmetic.
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
    bool packed() const { return packed_; }          // one 64-bit status word per tile (else three u32 words)
    bool persistent() const { return persistent_; }  // no clear pass: the scratch is zeroed once by the host

private:
    uint64_t chunk() const;
    // Scratch: per chunk a region of chunkWords() u32 at a place that does not depend on n (so that
    // persistent state stays where the next scan looks for it): ticket counter, epoch, then one status
    // per tile of the chunk (statusWords() each). The last chunk's region ends after its last tile.
    uint64_t statusWords() const { return packed_ ? 2 : 3; }
    uint64_t chunkWords() const;
    uint64_t scratchWords(uint64_t n) const;
    DeviceInfo dev_;
    uint32_t tile_ = 0;
    uint32_t mode_ = 0;
    bool payload_ = false;
    bool packed_ = false;
    bool persistent_ = false;
    ComputePipeline pipe_;
    Clear clear_;
};

}  // namespace sieve::prim::detail
