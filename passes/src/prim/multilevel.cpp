#include "prim/multilevel.h"

#include <algorithm>

namespace sieve::prim::detail {

namespace {
using gpu::ReducePush;
using TilePush = gpu::ScanTilePush;
const char* kLevelLabels[] = {"scan.level0", "scan.level1", "scan.level2", "scan.level3", "scan.level4"};

// prim/scan_tile.comp's descriptors (shared/prim_bindings.h).
BindingSet<gpu::SIEVE_SCAN_TILE_BINDINGS> tileBindings(const Binding& src, const Binding& dst, const Binding& base,
                                                       const Binding& total) {
    return bindingsAt<gpu::SIEVE_SCAN_TILE_BINDINGS>(
        {bindAt(gpu::SIEVE_SCAN_TILE_SRC, src), bindAt(gpu::SIEVE_SCAN_TILE_DST, dst),
         bindAt(gpu::SIEVE_SCAN_TILE_BASE, base), bindAt(gpu::SIEVE_SCAN_TILE_TOTAL, total)});
}
}  // namespace

Result<Multilevel> Multilevel::create(const DeviceInfo& dev, const Tiles& tiles, bool binarize) {
    Multilevel m;
    m.dev_ = dev;
    m.tile_ = tiles.tile();
    for (uint32_t i = 0; i < 2; ++i) {
        const uint32_t bin = (i == 0 && binarize) ? 1 : 0;
        auto r = makePipeline(dev, "prim/reduce.comp", sizeof(ReducePush), tiles, {0u, bin});
        if (!r) return r.error();
        m.reduce_[i] = std::move(r).value();
        auto b = makePipeline(dev, "prim/scan_tile.comp", sizeof(TilePush), tiles, {bin, 1u});
        if (!b) return b.error();
        m.scanBase_[i] = std::move(b).value();
        auto t = makePipeline(dev, "prim/scan_tile.comp", sizeof(TilePush), tiles, {bin, 0u});
        if (!t) return t.error();
        m.scanTop_[i] = std::move(t).value();
    }
    return m;
}

// The block sums of every level above 0, one after the other, each aligned.
uint64_t Multilevel::scratchBytes(uint64_t n) const {
    uint64_t bytes = 0;
    for (uint64_t count = n; count > tile_;) {
        count = ceilDiv(count, tile_);
        bytes += alignUp(count * 4, storageAlignment(dev_));
    }
    return bytes;
}

void Multilevel::record(VkCommandBuffer cmd, BufferRange input, BufferRange output, Word total, BufferRange scratch,
                        uint64_t n) const {
    scanLevel(cmd, 0, input, output, total, scratch, n);
}

void Multilevel::scanLevel(VkCommandBuffer cmd, uint32_t level, BufferRange input, BufferRange output, Word total,
                           BufferRange scratch, uint64_t n) const {
    ScopedLabel label(cmd, kLevelLabels[std::min<uint32_t>(level, 4)]);
    const uint32_t k = level == 0 ? 0 : 1;
    // Only level 0 can exceed a binding; block sums are at most 2^32 / tile words.
    const uint64_t chunk = level == 0 ? chunkElements(dev_, 4, tile_) : n;
    if (n <= tile_) {
        scanTop_[k].dispatchLinear(cmd,
                                   tileBindings(Binding::storage(sub(input, 0, n * 4)),
                                                Binding::storage(sub(output, 0, n * 4)), total.binding, total.binding),
                                   TilePush{uint32_t(n), 0, total.index, 1}, 1);
        return;
    }
    const uint64_t blocks = ceilDiv(n, tile_);
    const BufferRange sums = sub(scratch, 0, blocks * 4);
    const uint64_t sumsBytes = alignUp(blocks * 4, storageAlignment(dev_));
    const BufferRange rest =
        sub(scratch, sumsBytes, scratch.size == VK_WHOLE_SIZE ? VK_WHOLE_SIZE : scratch.size - sumsBytes);

    for (uint64_t first = 0; first < n; first += chunk) {
        const uint64_t count = std::min(chunk, n - first);
        if (first) computeBarrier(cmd);
        reduce_[k].dispatchLinear(
            cmd,
            bindingsAt<gpu::SIEVE_REDUCE_BINDINGS>(
                {bindAt(gpu::SIEVE_REDUCE_SRC, Binding::storage(sub(input, first * 4, count * 4))),
                 bindAt(gpu::SIEVE_REDUCE_DST, Binding::storage(sums))}),
            ReducePush{uint32_t(count), uint32_t(first / tile_)}, uint32_t(ceilDiv(count, tile_)));
    }
    computeBarrier(cmd);
    scanLevel(cmd, level + 1, sums, sums, total, rest, blocks);
    for (uint64_t first = 0; first < n; first += chunk) {
        const uint64_t count = std::min(chunk, n - first);
        computeBarrier(cmd);
        scanBase_[k].dispatchLinear(
            cmd,
            tileBindings(Binding::storage(sub(input, first * 4, count * 4)),
                         Binding::storage(sub(output, first * 4, count * 4)), Binding::storage(sums), total.binding),
            TilePush{uint32_t(count), uint32_t(first / tile_), total.index, 0}, uint32_t(ceilDiv(count, tile_)));
    }
}

}  // namespace sieve::prim::detail
