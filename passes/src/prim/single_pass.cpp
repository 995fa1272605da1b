#include "prim/single_pass.h"

#include <algorithm>

namespace sieve::prim::detail {

using SinglePush = gpu::ScanSinglePush;

Result<Lookback> Lookback::resolve(const DeviceInfo& dev, const PrimOptions& options, bool binarize, uint32_t mode,
                                   bool payload) {
    // The look-back inspects one predecessor per lane and combines them with ballots and sums.
    if (!dev.subgroupBallot || !dev.subgroupArithmetic)
        return makeError(VK_ERROR_FEATURE_NOT_PRESENT,
                         "prim: the single-pass scan (tier c) needs subgroup ballot and arithmetic in compute "
                         "shaders; use tier a or b");
    if (options.lookbackPerLane < 1 || options.lookbackPerLane > 16)
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "prim: lookbackPerLane must be 1..16");
    Lookback l;
    // storageAlignment() is at least 16, so the 64-bit status words are 8-byte aligned in memory.
    l.packed = options.packedLookbackStatus && dev.bufferInt64Atomics;
    l.constants = {binarize ? 1u : 0u, mode, payload ? 1u : 0u, std::max(options.lookbackSpins, 1u),
                   options.lookbackPerLane};
    return l;
}

Result<SinglePass> SinglePass::create(const DeviceInfo& dev, const Tiles& tiles, const PrimOptions& options,
                                      bool binarize, uint32_t mode, bool payload) {
    auto look = Lookback::resolve(dev, options, binarize, mode, payload);
    if (!look) return look.error();
    SinglePass s;
    s.dev_ = dev;
    s.tile_ = tiles.tile();
    s.mode_ = mode;
    s.payload_ = payload;
    s.packed_ = look->packed;
    s.persistent_ = options.persistentLookback;
    const auto& c = look->constants;
    auto p = makePipeline(dev, s.packed_ ? "prim/scan_single_packed.comp" : "prim/scan_single.comp", sizeof(SinglePush),
                          tiles, {c[0], c[1], c[2], c[3], c[4]});
    if (!p) return p.error();
    s.pipe_ = std::move(p).value();
    auto cl = Clear::create(dev);
    if (!cl) return cl.error();
    s.clear_ = std::move(cl).value();
    return s;
}

// Elements per dispatch: every per-item binding (input, offsets, payload) must fit the binding limit.
uint64_t SinglePass::chunk() const {
    const uint64_t bytesPerItem = (mode_ == 2) ? 20 : 4;
    return chunkElements(dev_, bytesPerItem, tile_);
}

uint64_t SinglePass::chunkWords() const {
    return 2 + chunk() / tile_ * statusWords();  // even when packed: the 64-bit statuses stay 8-byte aligned
}

uint64_t SinglePass::scratchWords(uint64_t n) const {
    const uint64_t chunks = ceilDiv(n, chunk());
    const uint64_t lastTiles = ceilDiv(n - (chunks - 1) * chunk(), tile_);
    return (chunks - 1) * chunkWords() + 2 + lastTiles * statusWords();
}

uint64_t SinglePass::scratchBytes(uint64_t n) const {
    return n ? scratchWords(n) * 4 : 4;
}

void SinglePass::record(VkCommandBuffer cmd, BufferRange input, const Targets& t, BufferRange scratch,
                        uint64_t n) const {
    ScopedLabel label(cmd, "scan.single_pass");
    const uint64_t chunkItems = chunk();
    const uint32_t chunks = uint32_t(ceilDiv(n, chunkItems));
    const uint32_t tiles = uint32_t(ceilDiv(n, tile_));
    const Binding status = Binding::storage(sub(scratch, 0, scratchBytes(n)));
    if (!persistent_) {
        ScopedLabel reset(cmd, "scan.reset");
        // Counters, epochs and statuses (epoch 0 then, so every stale status reads as silent).
        clear_.record(cmd, status, 0, uint32_t(scratchWords(n)), 0);
    }
    const uint32_t recordWords = mode_ == 2 ? 5 : 1;
    const Binding records = Binding::storage(
        mode_ == 0 ? BufferRange{}
                   : sub(t.output, 0, t.capacity ? uint64_t(t.capacity) * recordWords * 4 : t.output.size));
    const uint64_t region = chunkWords(), tilesPerChunk = chunkItems / tile_;
    // Index of chunk c's first status (64-bit units when packed).
    auto firstStatus = [&](uint64_t c) { return packed_ ? (c * region + 2) / 2 : c * region + 2; };
    for (uint32_t c = 0; c < chunks; ++c) {
        const uint64_t first = uint64_t(c) * chunkItems;
        const uint64_t count = std::min(chunkItems, n - first);
        // Chunk 0 of a persistent scan follows the caller's barrier; the others read the previous chunk.
        if (c > 0 || !persistent_) computeBarrier(cmd);
        const Binding src = Binding::storage(sub(input, first * 4, count * 4));
        const Binding dst = mode_ == 0 ? Binding::storage(sub(t.output, first * 4, count * 4)) : records;
        const Binding payload =
            payload_ ? Binding::storage(sub(t.payload, first * recordWords * 4, count * recordWords * 4)) : src;
        const Binding overflow = mode_ == 0 ? t.total.binding : t.overflow.binding;
        const uint32_t prevStatus = c ? uint32_t(firstStatus(c - 1) + (tilesPerChunk - 1) * (packed_ ? 1 : 3)) : 0;
        SinglePush push{uint32_t(count),
                        uint32_t(first / tile_),
                        tiles - 1,
                        uint32_t(first),
                        uint32_t(c * region),
                        uint32_t(firstStatus(c)),
                        prevStatus,
                        c ? uint32_t((c - 1) * region) : 0u,
                        t.total.index,
                        mode_ == 0 ? t.total.index : t.overflow.index,
                        t.capacity};
        const auto set = bindingsAt<gpu::SIEVE_SCAN_SINGLE_BINDINGS>(
            {bindAt(gpu::SIEVE_SCAN_SINGLE_SRC, src), bindAt(gpu::SIEVE_SCAN_SINGLE_DST, dst),
             bindAt(gpu::SIEVE_SCAN_SINGLE_STATUS, status), bindAt(gpu::SIEVE_SCAN_SINGLE_TOTAL, t.total.binding),
             bindAt(gpu::SIEVE_SCAN_SINGLE_OVERFLOW, overflow), bindAt(gpu::SIEVE_SCAN_SINGLE_PAYLOAD, payload)});
        pipe_.dispatchLinear(cmd, set, push, uint32_t(ceilDiv(count, tile_)));
    }
}

}  // namespace sieve::prim::detail
