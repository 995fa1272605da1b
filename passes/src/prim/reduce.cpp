#include "sieve/prim/reduce.h"

#include "prim/common.h"

namespace sieve::prim {

using namespace detail;

using gpu::ReducePush;

namespace {
// prim/reduce.comp's descriptors (shared/prim_bindings.h).
BindingSet<gpu::SIEVE_REDUCE_BINDINGS> reduceBindings(const Binding& src, const Binding& dst) {
    return bindingsAt<gpu::SIEVE_REDUCE_BINDINGS>(
        {bindAt(gpu::SIEVE_REDUCE_SRC, src), bindAt(gpu::SIEVE_REDUCE_DST, dst)});
}
}  // namespace

Result<Reduce> Reduce::create(const DeviceInfo& dev, ReduceOp op, const PrimOptions& options) {
    auto tiles = resolveTiles(dev, options, true);
    if (!tiles) return tiles.error();
    Reduce r;
    r.dev_ = dev;
    r.op_ = op;
    r.tile_ = tiles->tile();
    auto p = makePipeline(dev, "prim/reduce.comp", sizeof(ReducePush), *tiles, {uint32_t(op), 0u});
    if (!p) return p.error();
    r.pipe_ = std::move(p).value();
    return r;
}

uint32_t Reduce::identityBits() const {
    switch (op_) {
        case ReduceOp::MinF32: return 0x7f800000u;  // +inf
        case ReduceOp::MaxF32: return 0xff800000u;  // -inf
        default: return 0;
    }
}

// Two ping-pong regions: A holds level-1 partials, B level-2; deeper levels alternate (A is the larger).
VkDeviceSize Reduce::scratchBytes(uint64_t n) const {
    const uint64_t a = ceilDiv(n, tile_);
    if (a <= 1) return 0;
    const uint64_t align = storageAlignment(dev_);
    return alignUp(a * 4, align) + alignUp(ceilDiv(a, tile_) * 4, align);
}

Result<bool> Reduce::record(VkCommandBuffer cmd, BufferRange input, BufferRange output, BufferRange scratch, uint32_t n,
                            SumBound bound) const {
    if (op_ == ReduceOp::SumU32 && !bound.fitsU32())
        return makeError(VK_ERROR_UNKNOWN, "reduce: the sum could exceed 2^32-1 (declared bound " +
                                               std::to_string(bound.maxTotal) + "); rejected");
    if (n == 0) return false;
    if (auto r = checkArray(dev_, input, uint64_t(n) * 4, "reduce input"); !r) return r.error();
    if (auto r = checkWord(output, "reduce output"); !r) return r.error();
    const uint64_t a = ceilDiv(n, tile_);
    if (a > 1)
        if (auto r = checkArray(dev_, scratch, scratchBytes(n), "reduce scratch"); !r) return r.error();

    ScopedLabel label(cmd, "reduce");
    const Word out = wordAt(dev_, output);
    const uint64_t align = storageAlignment(dev_);
    const BufferRange regions[2] = {sub(scratch, 0, alignUp(a * 4, align)),
                                    sub(scratch, alignUp(a * 4, align), alignUp(ceilDiv(a, tile_) * 4, align))};
    {
        ScopedLabel level(cmd, "reduce.level0");
        const uint64_t chunk = chunkElements(dev_, 4, tile_);
        for (uint64_t first = 0; first < n; first += chunk) {
            const uint64_t count = std::min<uint64_t>(chunk, n - first);
            if (first) computeBarrier(cmd);
            const Binding src = Binding::storage(sub(input, first * 4, count * 4));
            if (a == 1)
                pipe_.dispatchLinear(cmd, reduceBindings(src, out.binding), ReducePush{uint32_t(count), out.index}, 1);
            else
                pipe_.dispatchLinear(cmd, reduceBindings(src, Binding::storage(regions[0])),
                                     ReducePush{uint32_t(count), uint32_t(first / tile_)},
                                     uint32_t(ceilDiv(count, tile_)));
        }
    }
    uint64_t count = a;
    for (uint32_t level = 1, from = 0; count > 1; ++level, from ^= 1) {
        ScopedLabel l(cmd, level == 1 ? "reduce.level1" : "reduce.levelN");
        computeBarrier(cmd);
        const uint64_t groups = ceilDiv(count, tile_);
        const Binding src = Binding::storage(regions[from]);
        if (groups == 1)
            pipe_.dispatchLinear(cmd, reduceBindings(src, out.binding), ReducePush{uint32_t(count), out.index}, 1);
        else
            pipe_.dispatchLinear(cmd, reduceBindings(src, Binding::storage(regions[from ^ 1])),
                                 ReducePush{uint32_t(count), 0}, uint32_t(groups));
        count = groups;
    }
    return true;
}

}  // namespace sieve::prim
