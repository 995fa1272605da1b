#include "sieve/prim/compact.h"

#include <algorithm>

#include "prim/common.h"
#include "prim/multilevel.h"
#include "prim/single_pass.h"

namespace sieve::prim {

using namespace detail;

const char* methodName(CompactMethod m) {
    switch (m) {
        case CompactMethod::ScanScatter: return "scan-scatter";
        case CompactMethod::OnePass: return "onepass";
        case CompactMethod::Gather: return "gather";
        case CompactMethod::AtomicAppend: return "atomic-append";
    }
    return "?";
}

using ScatterPush = gpu::CompactScatterPush;
using GatherPush = gpu::CompactGatherPush;
using AppendPush = gpu::CompactAppendPush;
using FinishPush = gpu::CompactFinishPush;

struct Compact::Impl {
    DeviceInfo dev;
    Tiles tiles;
    std::unique_ptr<Multilevel> multilevel;  // scan for ScanScatter / Gather (tiers a, b)
    std::unique_ptr<SinglePass> singlePass;  // scan (tier c) or the one-pass compaction
    ComputePipeline second;                  // scatter, gather or append
    ComputePipeline finish;                  // AtomicAppend: counter -> count, overflow
    std::unique_ptr<Clear> clear;
    ScanTier tier = ScanTier::Auto;  // resolved; Auto when nothing is scanned
    bool autoTier = false;           // scanned methods under ScanTier::Auto: tier per size (autoScanTier)
    uint32_t autoVendor = 0;         // PrimOptions::autoTierVendor
    ScanTier tierFor(uint64_t n) const { return autoTier ? autoScanTier(dev, n, autoVendor) : tier; }

    bool scanned(CompactMethod m) const { return m == CompactMethod::ScanScatter || m == CompactMethod::Gather; }
    uint64_t offsetsBytes(uint64_t n) const { return alignUp(n * 4, storageAlignment(dev)); }
    uint64_t totalBytes() const { return storageAlignment(dev); }
    // Enough for every count up to n (the tier may differ per count; see scanScratchUpTo).
    uint64_t scanScratch(uint64_t n) const {
        return scanScratchUpTo(n, [this](uint64_t m) {
            return tierFor(m) == ScanTier::SinglePass ? singlePass->scratchBytes(m) : multilevel->scratchBytes(m);
        });
    }

    // create()'s last piece: the scatter, gather or append pipeline (and append's finish).
    Result<void> createSecond(const CompactOptions& o);
    // record()'s pieces (n > 0).
    Result<void> checkArrays(const CompactOptions& o, const CompactBuffers& b, uint64_t n, uint32_t capacity,
                             uint64_t recordBytes, VkDeviceSize scratchBytes) const;
    void recordAppend(VkCommandBuffer cmd, const CompactOptions& o, const CompactBuffers& b, const Binding& records,
                      const Word& count, const Word& overflow, uint64_t n, uint32_t capacity, uint64_t rb) const;
    void recordScatter(VkCommandBuffer cmd, const CompactOptions& o, const CompactBuffers& b,
                       const BufferRange& offsets, const Binding& records, const Word& total, const Word& count,
                       const Word& overflow, uint64_t n, uint32_t capacity, uint64_t rb) const;
    void recordGather(VkCommandBuffer cmd, const CompactOptions& o, const CompactBuffers& b, const BufferRange& offsets,
                      const Binding& records, const Word& total, const Word& count, const Word& overflow, uint64_t n,
                      uint32_t capacity, uint64_t rb) const;
};

Result<void> Compact::Impl::checkArrays(const CompactOptions& o, const CompactBuffers& b, uint64_t n, uint32_t capacity,
                                        uint64_t rb, VkDeviceSize scratchBytes) const {
    if (auto r = checkArray(dev, b.flags, n * 4, "compact flags"); !r) return r;
    if (o.payload)
        if (auto r = checkArray(dev, b.payload, n * rb, "compact payload"); !r) return r;
    if (auto r = checkArray(dev, b.records, uint64_t(capacity) * rb, "compact records"); !r) return r;
    if (auto r = checkArray(dev, b.scratch, scratchBytes, "compact scratch"); !r) return r;
    if (uint64_t(capacity) * rb > maxBindingBytes(dev))
        return makeError(VK_ERROR_UNKNOWN, "compact: capacity * record size exceeds maxStorageBufferRange");
    if (o.method == CompactMethod::Gather && n * rb > maxBindingBytes(dev))
        return makeError(VK_ERROR_UNKNOWN, "compact: the gather method needs all n items in one binding");
    return {};
}

void Compact::Impl::recordAppend(VkCommandBuffer cmd, const CompactOptions& o, const CompactBuffers& b,
                                 const Binding& records, const Word& count, const Word& overflow, uint64_t n,
                                 uint32_t capacity, uint64_t rb) const {
    const uint64_t chunk = chunkElements(dev, rb, tiles.tile());
    const Word counter = wordAt(dev, b.scratch);
    clear->record(cmd, counter.binding, counter.index, 1, 0);
    for (uint64_t first = 0; first < n; first += chunk) {
        const uint64_t items = std::min(chunk, n - first);
        computeBarrier(cmd);
        const Binding flags = Binding::storage(sub(b.flags, first * 4, items * 4));
        const Binding payload = o.payload ? Binding::storage(sub(b.payload, first * rb, items * rb)) : flags;
        second.dispatchLinear(
            cmd,
            bindingsAt<gpu::SIEVE_APPEND_BINDINGS>(
                {bindAt(gpu::SIEVE_APPEND_FLAGS, flags), bindAt(gpu::SIEVE_APPEND_OUT, records),
                 bindAt(gpu::SIEVE_APPEND_PAYLOAD, payload), bindAt(gpu::SIEVE_APPEND_COUNTER, counter.binding)}),
            AppendPush{uint32_t(items), uint32_t(first), capacity, counter.index},
            uint32_t(ceilDiv(items, tiles.tile())));
    }
    computeBarrier(cmd);
    finish.dispatch(cmd,
                    bindingsAt<gpu::SIEVE_FINISH_BINDINGS>({bindAt(gpu::SIEVE_FINISH_COUNTER, counter.binding),
                                                            bindAt(gpu::SIEVE_FINISH_COUNT, count.binding),
                                                            bindAt(gpu::SIEVE_FINISH_OVERFLOW, overflow.binding)}),
                    FinishPush{counter.index, count.index, overflow.index, capacity}, 1);
}

void Compact::Impl::recordScatter(VkCommandBuffer cmd, const CompactOptions& o, const CompactBuffers& b,
                                  const BufferRange& offsets, const Binding& records, const Word& total,
                                  const Word& count, const Word& overflow, uint64_t n, uint32_t capacity,
                                  uint64_t rb) const {
    ScopedLabel scatter(cmd, "compact.scatter");
    const uint64_t chunk = chunkElements(dev, rb, tiles.tile());
    for (uint64_t first = 0; first < n; first += chunk) {
        const uint64_t items = std::min(chunk, n - first);
        computeBarrier(cmd);
        const Binding flags = Binding::storage(sub(b.flags, first * 4, items * 4));
        const Binding payload = o.payload ? Binding::storage(sub(b.payload, first * rb, items * rb)) : flags;
        const auto set = bindingsAt<gpu::SIEVE_SCATTER_BINDINGS>(
            {bindAt(gpu::SIEVE_SCATTER_FLAGS, flags),
             bindAt(gpu::SIEVE_SCATTER_OFFSETS, Binding::storage(sub(offsets, first * 4, items * 4))),
             bindAt(gpu::SIEVE_SCATTER_OUT, records), bindAt(gpu::SIEVE_SCATTER_PAYLOAD, payload),
             bindAt(gpu::SIEVE_SCATTER_TOTAL, total.binding), bindAt(gpu::SIEVE_SCATTER_COUNT, count.binding),
             bindAt(gpu::SIEVE_SCATTER_OVERFLOW, overflow.binding)});
        second.dispatchLinear(cmd, set,
                              ScatterPush{uint32_t(items), uint32_t(first), capacity, total.index, count.index,
                                          overflow.index, first == 0 ? 1u : 0u},
                              uint32_t(ceilDiv(items, tiles.tile())));
    }
}

Compact::Compact() = default;
Compact::Compact(Compact&&) noexcept = default;
Compact& Compact::operator=(Compact&&) noexcept = default;
Compact::~Compact() = default;

Result<Compact> Compact::create(const DeviceInfo& dev, const CompactOptions& options) {
    if (options.prim.persistentLookback && options.method != CompactMethod::OnePass)
        return makeError(VK_ERROR_INITIALIZATION_FAILED,
                         "compact: persistentLookback needs CompactMethod::OnePass (the other methods' scratch "
                         "layout changes with n)");
    Compact c;
    c.options_ = options;
    if (c.options_.record == RecordKind::DrawIndexed) c.options_.payload = true;
    const CompactOptions& o = c.options_;
    c.impl_ = std::make_unique<Impl>();
    Impl& impl = *c.impl_;
    impl.dev = dev;
    impl.autoVendor = o.prim.autoTierVendor;
    ScanTier tier = o.prim.tier == ScanTier::Auto ? autoScanTier(dev, 1, impl.autoVendor) : o.prim.tier;
    if (o.method == CompactMethod::OnePass) tier = ScanTier::SinglePass;
    auto tiles = resolveTiles(dev, o.prim, tier != ScanTier::Multilevel);
    if (!tiles) return tiles.error();
    impl.tiles = *tiles;
    const uint32_t mode = uint32_t(o.record);

    auto clear = Clear::create(dev);
    if (!clear) return clear.error();
    impl.clear = std::make_unique<Clear>(std::move(clear).value());

    impl.tier = (o.method == CompactMethod::OnePass || impl.scanned(o.method)) ? tier : ScanTier::Auto;
    impl.autoTier = impl.scanned(o.method) && o.prim.tier == ScanTier::Auto;
    if (o.method == CompactMethod::OnePass) {
        auto p = SinglePass::create(dev, *tiles, o.prim, true, mode, o.payload);
        if (!p) return p.error();
        impl.singlePass = std::make_unique<SinglePass>(std::move(p).value());
        return c;
    }
    if (impl.scanned(o.method)) {
        if (tier == ScanTier::SinglePass) {
            auto p = SinglePass::create(dev, *tiles, o.prim, true, 0, false);
            if (!p) return p.error();
            impl.singlePass = std::make_unique<SinglePass>(std::move(p).value());
        }
        if (tier != ScanTier::SinglePass || impl.autoTier) {
            auto m = Multilevel::create(dev, *tiles, true);
            if (!m) return m.error();
            impl.multilevel = std::make_unique<Multilevel>(std::move(m).value());
        }
    }
    if (auto r = impl.createSecond(o); !r) return r.error();
    return c;
}

Result<void> Compact::Impl::createSecond(const CompactOptions& o) {
    const uint32_t mode = uint32_t(o.record);
    const uint32_t payload = o.payload ? 1 : 0;
    Result<ComputePipeline> p = makeError(VK_ERROR_UNKNOWN, "compact: unknown method");
    switch (o.method) {
        case CompactMethod::ScanScatter:
            p = makePipeline(dev, "prim/compact_scatter.comp", sizeof(ScatterPush), tiles, {mode, payload});
            break;
        case CompactMethod::Gather:
            p = makePipeline(dev, "prim/compact_gather.comp", sizeof(GatherPush), tiles, {mode, payload});
            break;
        case CompactMethod::AtomicAppend: {
            p = makePipeline(dev, "prim/compact_append.comp", sizeof(AppendPush), tiles, {mode, payload});
            auto f = ComputePipeline::create(dev, {"prim/compact_finish.comp", sizeof(FinishPush)});
            if (!f) return f.error();
            finish = std::move(f).value();
            break;
        }
        default: break;
    }
    if (!p) return p.error();
    second = std::move(p).value();
    return {};
}

ScanTier Compact::scanTier() const {
    return impl_->autoTier ? impl_->tierFor(kMaxScanElements) : impl_->tier;
}

bool Compact::packedLookbackStatus() const {
    return impl_->singlePass && impl_->singlePass->packed();
}

VkDeviceSize Compact::scratchBytes(uint64_t n) const {
    const Impl& impl = *impl_;
    switch (options_.method) {
        case CompactMethod::OnePass: return impl.singlePass->scratchBytes(n);
        case CompactMethod::AtomicAppend: return 4;
        default: return impl.offsetsBytes(n) + impl.totalBytes() + impl.scanScratch(n);
    }
}

void Compact::Impl::recordGather(VkCommandBuffer cmd, const CompactOptions& o, const CompactBuffers& b,
                                 const BufferRange& offsets, const Binding& records, const Word& total,
                                 const Word& count, const Word& overflow, uint64_t n, uint32_t capacity,
                                 uint64_t rb) const {
    ScopedLabel gather(cmd, "compact.gather");
    computeBarrier(cmd);
    const Binding payload = o.payload ? Binding::storage(sub(b.payload, 0, n * rb)) : Binding::storage(offsets);
    const uint64_t slots = std::max<uint64_t>(std::min<uint64_t>(n, capacity), 1);  // one group writes the count
    const auto set = bindingsAt<gpu::SIEVE_GATHER_BINDINGS>(
        {bindAt(gpu::SIEVE_GATHER_OFFSETS, Binding::storage(offsets)), bindAt(gpu::SIEVE_GATHER_OUT, records),
         bindAt(gpu::SIEVE_GATHER_PAYLOAD, payload), bindAt(gpu::SIEVE_GATHER_TOTAL, total.binding),
         bindAt(gpu::SIEVE_GATHER_COUNT, count.binding), bindAt(gpu::SIEVE_GATHER_OVERFLOW, overflow.binding)});
    second.dispatchLinear(cmd, set, GatherPush{uint32_t(n), capacity, total.index, count.index, overflow.index},
                          uint32_t(ceilDiv(slots, tiles.workgroup)));
}

Result<void> Compact::record(VkCommandBuffer cmd, const CompactBuffers& b, uint64_t n, uint32_t capacity) const {
    const Impl& impl = *impl_;
    const DeviceInfo& dev = impl.dev;
    const CompactMethod method = options_.method;
    const uint64_t rb = recordBytes();
    if (n > kMaxScanElements)
        return makeError(VK_ERROR_UNKNOWN, "compact: " + std::to_string(n) + " items exceed the supported 2^31");
    if (auto r = checkWord(b.count, "compact count"); !r) return r;
    if (auto r = checkWord(b.overflow, "compact overflow"); !r) return r;
    const Word count = wordAt(dev, b.count);
    const Word overflow = wordAt(dev, b.overflow);
    ScopedLabel label(cmd, "compact");
    if (n == 0) {
        impl.clear->record(cmd, count.binding, count.index, 1, 0);
        computeBarrier(cmd);  // the two words may share a binding range
        impl.clear->record(cmd, overflow.binding, overflow.index, 1, 0);
        return {};
    }
    if (auto r = impl.checkArrays(options_, b, n, capacity, rb, scratchBytes(n)); !r) return r;

    const BufferRange records = sub(b.records, 0, capacity ? uint64_t(capacity) * rb : b.records.size);
    const Binding recordsBinding = Binding::storage(records);
    if (method == CompactMethod::OnePass) {
        impl.singlePass->record(cmd, b.flags, {records, count, overflow, b.payload, capacity}, b.scratch, n);
        return {};
    }
    if (method == CompactMethod::AtomicAppend) {
        impl.recordAppend(cmd, options_, b, recordsBinding, count, overflow, n, capacity, rb);
        return {};
    }

    // Scan of (flags != 0) into scratch, then scatter or gather.
    const BufferRange offsets = sub(b.scratch, 0, n * 4);
    const Word total = wordAt(dev, b.scratch, impl.offsetsBytes(n));
    const uint64_t scanAt = impl.offsetsBytes(n) + impl.totalBytes();
    const BufferRange scanScratch = sub(b.scratch, scanAt, std::max<uint64_t>(impl.scanScratch(n), 4));
    {
        ScopedLabel scan(cmd, "scan");
        if (impl.tierFor(n) == ScanTier::SinglePass)
            impl.singlePass->record(cmd, b.flags, {offsets, total, total, {}, 0}, scanScratch, n);
        else
            impl.multilevel->record(cmd, b.flags, offsets, total, scanScratch, n);
    }
    if (method == CompactMethod::ScanScatter) {
        impl.recordScatter(cmd, options_, b, offsets, recordsBinding, total, count, overflow, n, capacity, rb);
        return {};
    }
    impl.recordGather(cmd, options_, b, offsets, recordsBinding, total, count, overflow, n, capacity, rb);
    return {};
}

}  // namespace sieve::prim
