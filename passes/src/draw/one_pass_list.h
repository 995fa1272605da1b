#pragma once
// The stable draw list in one dispatch (shaders/draw/list_scan.glsl): the single-pass scan of the draw
// counts with the expansion folded in, each stream a segment of tiles in a virtual index space. Used by
// DrawListBuilder where the device runs the single-pass scan (subgroup ballot and arithmetic) and the
// scan options allow it (ScanTier::Auto or SinglePass); elsewhere the builder scans, then expands.
#include "prim/common.h"
#include "sieve/draw_list.h"

namespace sieve::detail {

class OnePassDrawList {
public:
    // An empty OnePassDrawList (false) where the device or `options` rule the single-pass scan out.
    static Result<OnePassDrawList> create(const DeviceInfo& dev, const prim::PrimOptions& options);
    explicit operator bool() const { return bool(pipe_); }

    // Whether `shape` fits one dispatch (its virtual elements within 2^31, its draw counts one binding);
    // then scratchBytes is what it needs (0 otherwise). Both grow with each dimension of the shape.
    bool fits(const DrawListShape& shape) const;
    uint64_t scratchBytes(const DrawListShape& shape) const;

    // The streams of `shape` (fits(shape), b.lookback or else b.scratch at least scratchBytes(shape)): the
    // one dispatch, after a clear of the status where it lives in the scratch. Refuses, as the scan does,
    // totals whose bound passes 2^32 - 1 and draw counts smaller than the keys.
    Result<void> record(VkCommandBuffer cmd, const DrawListBuffers& b, const DrawListShape& shape,
                        prim::SumBound bound) const;

private:
    uint64_t streamTiles(const DrawListShape& shape) const;
    uint64_t scratchWords(const DrawListShape& shape) const;
    DeviceInfo dev_;
    uint32_t tile_ = 0;
    bool packed_ = false;
    ComputePipeline pipe_;
    prim::detail::Clear clear_;
};

}  // namespace sieve::detail
