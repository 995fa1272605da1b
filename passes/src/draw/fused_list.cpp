#include "draw/fused_list.h"

#include <algorithm>
#include <string>

#include "prim/single_pass.h"
#include "shared/draw_push.h"

namespace sieve::detail {

Result<FusedDrawList> FusedDrawList::create(const DeviceInfo& dev, const prim::PrimOptions& options) {
    FusedDrawList f;
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

uint64_t FusedDrawList::streamTiles(const DrawListShape& shape) const {
    return prim::detail::ceilDiv(shape.instanceCount, tile_);
}

// The ticket counter and epoch, then one status per tile (prim/scan_single.glsl, one chunk).
uint64_t FusedDrawList::scratchWords(const DrawListShape& shape) const {
    const uint64_t tiles = std::max<uint64_t>(uint64_t(shape.viewCount) * shape.binCount * streamTiles(shape), 1);
    return 2 + tiles * (packed_ ? 2 : 3);
}

bool FusedDrawList::fits(const DrawListShape& shape) const {
    const uint64_t virtualElements = uint64_t(shape.viewCount) * shape.binCount * streamTiles(shape) * tile_;
    return *this && virtualElements <= prim::kMaxScanElements &&
           shape.keys() * 4 <= prim::detail::maxBindingBytes(dev_) &&
           scratchWords(shape) * 4 <= prim::detail::maxBindingBytes(dev_);
}

uint64_t FusedDrawList::scratchBytes(const DrawListShape& shape) const {
    return fits(shape) ? scratchWords(shape) * 4 : 0;
}

Result<void> FusedDrawList::record(VkCommandBuffer cmd, const DrawListBuffers& b, const DrawListShape& shape,
                                   prim::SumBound bound) const {
    if (!bound.fitsU32())
        return makeError(VK_ERROR_UNKNOWN, "DrawListBuilder: the draws could exceed 2^32-1 (declared bound " +
                                               std::to_string(bound.maxTotal) + "); rejected");
    if (shape.keys())
        if (auto r = prim::detail::checkArray(dev_, b.drawCounts, shape.keys() * 4, "draw counts"); !r) return r;
    const uint32_t streams = shape.viewCount * shape.binCount, perStream = uint32_t(streamTiles(shape));
    const bool persistent = b.lookback.buffer != VK_NULL_HANDLE;
    const Binding status =
        Binding::storage(prim::detail::sub(persistent ? b.lookback : b.scratch, 0, scratchBytes(shape)));
    if (!persistent) {
        ScopedLabel reset(cmd, "scan.reset");
        clear_.record(cmd, status, 0, uint32_t(scratchWords(shape)), 0);
        prim::detail::computeBarrier(cmd);
    }
    const gpu::DrawScanPush push{shape.instanceCount, streams, shape.binCount, perStream};
    // Bindings 0 and 1 are not in the shader's layout (skipped); the draws stand in for them.
    const Binding draws = Binding::storage(b.draws);
    pipe_.dispatchLinear(cmd,
                         {draws, draws, status, Binding::storage(b.instances), Binding::storage(b.meshes),
                          Binding::storage(b.primitives), Binding::storage(b.drawCounts), Binding::storage(b.lods),
                          draws, Binding::storage(b.counts), Binding::storage(b.streams)},
                         push, std::max(streams * perStream, 1u));
    return {};
}

}  // namespace sieve::detail
