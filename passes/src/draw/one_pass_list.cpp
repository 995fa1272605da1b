#include "draw/one_pass_list.h"

#include <algorithm>
#include <string>

#include "prim/single_pass.h"
#include "shared/draw_bindings.h"
#include "shared/draw_push.h"
#include "shared/prim_bindings.h"

namespace sieve::detail {

Result<OnePassDrawList> OnePassDrawList::create(const DeviceInfo& dev, const prim::PrimOptions& options) {
    OnePassDrawList f;
    const bool singlePass = options.tier == prim::ScanTier::Auto || options.tier == prim::ScanTier::SinglePass;
    if (!singlePass || !dev.subgroupBallot || !dev.subgroupArithmetic) return f;
    auto tiles = prim::detail::resolveTiles(dev, options, true);
    if (!tiles) return tiles.error();
    auto look = prim::detail::Lookback::resolve(dev, options, false, 1, false);
    if (!look) return look.error();
    const auto& c = look->constants;
    auto p = prim::detail::makePipeline(dev, look->packed ? "draw/list_scan_packed.comp" : "draw/list_scan.comp",
                                        sizeof(gpu::DrawScanPush), *tiles, {c[0], c[1], c[2], c[3], c[4]});
    if (!p) return p.error();
    auto clear = prim::detail::Clear::create(dev);
    if (!clear) return clear.error();
    f.dev_ = dev;
    f.tile_ = tiles->tile();
    f.packed_ = look->packed;
    f.pipe_ = std::move(p).value();
    f.clear_ = std::move(clear).value();
    return f;
}

uint64_t OnePassDrawList::streamTiles(const DrawListShape& shape) const {
    return prim::detail::ceilDiv(shape.instanceCount, tile_);
}

// The ticket counter and epoch, then one status per tile (prim/scan_single.glsl, one chunk).
uint64_t OnePassDrawList::scratchWords(const DrawListShape& shape) const {
    const uint64_t tiles = std::max<uint64_t>(uint64_t(shape.viewCount) * shape.binCount * streamTiles(shape), 1);
    return 2 + tiles * (packed_ ? 2 : 3);
}

bool OnePassDrawList::fits(const DrawListShape& shape) const {
    const uint64_t virtualElements = uint64_t(shape.viewCount) * shape.binCount * streamTiles(shape) * tile_;
    return *this && virtualElements <= prim::kMaxScanElements &&
           shape.keys() * 4 <= prim::detail::maxBindingBytes(dev_) &&
           scratchWords(shape) * 4 <= prim::detail::maxBindingBytes(dev_);
}

uint64_t OnePassDrawList::scratchBytes(const DrawListShape& shape) const {
    return fits(shape) ? scratchWords(shape) * 4 : 0;
}

Result<void> OnePassDrawList::record(VkCommandBuffer cmd, const DrawListBuffers& b, const DrawListShape& shape,
                                     prim::SumBound bound) const {
    if (!bound.fitsU32())
        return makeError(VK_ERROR_UNKNOWN, "DrawListBuilder: the draws could exceed 2^32-1 (declared bound " +
                                               std::to_string(bound.maxTotal) + "); rejected");
    if (shape.keys())
        if (auto r = prim::detail::checkArray(dev_, b.drawCounts, shape.keys() * 4, "draw counts"); !r) return r;
    const bool marked = b.markEpoch != 0 && b.drawMarks.buffer != VK_NULL_HANDLE;
    const uint32_t streams = shape.viewCount * shape.binCount, perStream = uint32_t(streamTiles(shape));
    const bool persistent = b.lookback.buffer != VK_NULL_HANDLE;
    const Binding status =
        Binding::storage(prim::detail::sub(persistent ? b.lookback : b.scratch, 0, scratchBytes(shape)));
    if (!persistent) {
        ScopedLabel reset(cmd, "scan.reset");
        clear_.record(cmd, status, 0, uint32_t(scratchWords(shape)), 0);
        prim::detail::computeBarrier(cmd);
    }
    const gpu::DrawScanPush push{shape.instanceCount, streams, shape.binCount, perStream, marked ? b.markEpoch : 0u};
    // Bindings 0 and 1 are not in the shader's layout (skipped); the draws stand in for them.
    const Binding draws = Binding::storage(b.draws);
    const auto set = bindingsAt<gpu::SIEVE_LIST_SCAN_BINDINGS>(
        {bindAt(gpu::SIEVE_SCAN_SINGLE_SRC, draws), bindAt(gpu::SIEVE_SCAN_SINGLE_DST, draws),
         bindAt(gpu::SIEVE_SCAN_SINGLE_STATUS, status),
         bindAt(gpu::SIEVE_LIST_SCAN_INSTANCES, Binding::storage(b.instances)),
         bindAt(gpu::SIEVE_LIST_SCAN_MESHES, Binding::storage(b.meshes)),
         bindAt(gpu::SIEVE_LIST_SCAN_PRIMITIVES, Binding::storage(b.primitives)),
         bindAt(gpu::SIEVE_LIST_SCAN_DRAW_COUNTS, Binding::storage(b.drawCounts)),
         bindAt(gpu::SIEVE_LIST_SCAN_LODS, Binding::storage(b.lods)), bindAt(gpu::SIEVE_LIST_SCAN_DRAWS, draws),
         bindAt(gpu::SIEVE_LIST_SCAN_COUNTS, Binding::storage(b.counts)),
         bindAt(gpu::SIEVE_LIST_SCAN_STREAMS, Binding::storage(b.streams)),
         // Without marks the draw counts stand in (not read).
         bindAt(gpu::SIEVE_LIST_SCAN_DRAW_MARKS, Binding::storage(marked ? b.drawMarks : b.drawCounts))});
    pipe_.dispatchLinear(cmd, set, push, std::max(streams * perStream, 1u));
    return {};
}

}  // namespace sieve::detail
