#pragma once
// Tiers a and b of the exclusive scan: reduce-then-scan. Level 0 reduces each tile to a block sum; the
// block sums are scanned recursively (in place) down to one tile; then each tile is scanned again with
// its block's base added. Tier a uses the shared-memory workgroup scan, tier b subgroup arithmetic.
#include "prim/common.h"

namespace sieve::prim::detail {

class Multilevel {
public:
    // binarize: scan (value != 0) of the level-0 input (compaction flags).
    static Result<Multilevel> create(const DeviceInfo& dev, const Tiles& tiles, bool binarize);
    uint64_t scratchBytes(uint64_t n) const;
    // Records the scan of input[0..n) into output[0..n) and the total into `total`. n > 0.
    void record(VkCommandBuffer cmd, BufferRange input, BufferRange output, Word total, BufferRange scratch,
                uint64_t n) const;
    uint32_t tile() const { return tile_; }

private:
    void scanLevel(VkCommandBuffer cmd, uint32_t level, BufferRange input, BufferRange output, Word total,
                   BufferRange scratch, uint64_t n) const;
    DeviceInfo dev_;
    uint32_t tile_ = 0;
    // [0]: level 0 (maybe binarized), [1]: block sums.
    ComputePipeline reduce_[2];
    ComputePipeline scanBase_[2];  // adds the block base
    ComputePipeline scanTop_[2];   // one tile, writes the total
};

}  // namespace sieve::prim::detail
