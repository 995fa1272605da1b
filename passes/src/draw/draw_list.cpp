#include "sieve/draw_list.h"

#include <algorithm>
#include <string>

#include "draw/one_pass_list.h"
#include "prim/common.h"
#include "shared/draw.h"
#include "shared/draw_bindings.h"
#include "shared/draw_push.h"
#include "sieve/barriers.h"

namespace sieve {

DrawListBuilder::DrawListBuilder() = default;
DrawListBuilder::DrawListBuilder(DrawListBuilder&&) noexcept = default;
DrawListBuilder& DrawListBuilder::operator=(DrawListBuilder&&) noexcept = default;
DrawListBuilder::~DrawListBuilder() = default;

Result<DrawListBuilder> DrawListBuilder::create(const DeviceInfo& dev, const prim::PrimOptions& scanOptions) {
    DrawListBuilder b;
    b.dev_ = dev;
    auto scan = prim::Scan::create(dev, scanOptions);
    if (!scan) return scan.error();
    b.scan_ = std::move(scan).value();
    auto onePass = detail::OnePassDrawList::create(dev, scanOptions);
    if (!onePass) return onePass.error();
    if (*onePass) b.onePass_ = std::make_unique<detail::OnePassDrawList>(std::move(onePass).value());
    const uint32_t group = fittedGroupSize(dev, 256);
    const uint32_t stable[] = {0, group}, atomic[] = {1, group};
    auto s = ComputePipeline::create(dev, {"draw/expand.comp", sizeof(gpu::DrawExpandPush), stable});
    if (!s) return s.error();
    auto a = ComputePipeline::create(dev, {"draw/expand.comp", sizeof(gpu::DrawExpandPush), atomic});
    if (!a) return a.error();
    auto f = ComputePipeline::create(dev, {"draw/finish_atomic.comp", sizeof(gpu::DrawFinishPush)});
    if (!f) return f.error();
    b.stable_ = std::move(s).value();
    b.atomic_ = std::move(a).value();
    b.finishAtomic_ = std::move(f).value();
    return b;
}

VkDeviceSize DrawListBuilder::scratchBytes(const DrawListShape& largest) const {
    const VkDeviceSize scan = scan_.scratchBytes(largest.keys());
    return onePass_ ? std::max<VkDeviceSize>(scan, onePass_->scratchBytes(largest)) : scan;
}

VkDeviceSize DrawListBuilder::lookbackBytes(const DrawListShape& largest) const {
    return onePass_ ? onePass_->scratchBytes(largest) : 0;
}

bool DrawListBuilder::onePass(const DrawListShape& shape, const DrawListBuffers& b) const {
    const VkDeviceSize need = onePass_ ? onePass_->scratchBytes(shape) : 0;
    return need && (b.lookback.buffer ? b.lookback.size : b.scratch.size) >= need;
}

Result<void> DrawListBuilder::record(VkCommandBuffer cmd, const DrawListBuffers& b, const DrawListShape& shape,
                                     DrawOrder order) const {
    const uint64_t keys = shape.keys();
    const uint32_t streams = shape.viewCount * shape.binCount;
    if (shape.viewCount == 0 || shape.binCount == 0 || shape.viewCount > 65536 || shape.binCount > 65536)
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "DrawListBuilder: " + std::to_string(shape.viewCount) +
                                                             " views x " + std::to_string(shape.binCount) +
                                                             " bins: each must be 1..65536");
    if (keys > prim::kMaxScanElements)
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "DrawListBuilder: " + std::to_string(keys) +
                                                             " (view, bin, instance) keys exceed " +
                                                             std::to_string(prim::kMaxScanElements));
    if (b.markEpoch != 0 && keys)
        if (auto r = prim::detail::checkArray(dev_, b.drawMarks, drawMarkBytes(keys), "draw marks"); !r) return r;
    const uint64_t bound = uint64_t(shape.instanceCount) * shape.viewCount * shape.maxDrawsPerInstance;
    if (order == DrawOrder::Stable && onePass(shape, b)) {
        ScopedLabel label(cmd, "draw list (stable, one pass)");
        return onePass_->record(cmd, b, shape, prim::SumBound::total(bound));
    }
    // The scan-then-expand and atomic-append paths.
    const gpu::DrawExpandPush push{shape.instanceCount, streams, shape.binCount, 0};
    // At least one group, and one invocation per stream: they write the clamped counts even for no keys.
    const uint32_t groups = std::max({stable_.groupsFor(keys), stable_.groupsFor(streams), 1u});
    const auto bindings =
        bindingsAt<gpu::SIEVE_EXPAND_BINDINGS>({bindAt(gpu::SIEVE_EXPAND_INSTANCES, Binding::storage(b.instances)),
                                                bindAt(gpu::SIEVE_EXPAND_MESHES, Binding::storage(b.meshes)),
                                                bindAt(gpu::SIEVE_EXPAND_PRIMITIVES, Binding::storage(b.primitives)),
                                                bindAt(gpu::SIEVE_EXPAND_DRAW_COUNTS, Binding::storage(b.drawCounts)),
                                                bindAt(gpu::SIEVE_EXPAND_LODS, Binding::storage(b.lods)),
                                                bindAt(gpu::SIEVE_EXPAND_OFFSETS, Binding::storage(b.offsets)),
                                                bindAt(gpu::SIEVE_EXPAND_DRAWS, Binding::storage(b.draws)),
                                                bindAt(gpu::SIEVE_EXPAND_COUNTS, Binding::storage(b.counts)),
                                                bindAt(gpu::SIEVE_EXPAND_STREAMS, Binding::storage(b.streams))});
    if (order == DrawOrder::Stable) {
        ScopedLabel label(cmd, "draw list (stable)");
        // The grand total lands in the last stream's total, which only that stream's invocation reads.
        const VkDeviceSize total = b.counts.offset + VkDeviceSize(streams - 1) * sizeof(gpu::DrawCounts) + 8;
        prim::ScanBuffers scan{b.drawCounts, b.offsets, {b.counts.buffer, total, 4}, b.scratch};
        if (auto r = scan_.record(cmd, scan, keys, prim::SumBound::total(bound)); !r) return r;
        prim::detail::computeBarrier(cmd);
        ScopedLabel expand(cmd, "expand");
        stable_.dispatchLinear(cmd, bindings, push, groups);
        return {};
    }
    ScopedLabel label(cmd, "draw list (atomic append)");
    vkCmdFillBuffer(cmd, b.counts.buffer, b.counts.offset, VkDeviceSize(streams) * sizeof(gpu::DrawCounts), 0);
    transferToComputeBarrier(cmd);
    atomic_.dispatchLinear(cmd, bindings, push, groups);
    prim::detail::computeBarrier(cmd);
    finishAtomic_.dispatch(cmd,
                           bindingsAt<gpu::SIEVE_FINISH_ATOMIC_BINDINGS>(
                               {bindAt(gpu::SIEVE_FINISH_ATOMIC_COUNTS, Binding::storage(b.counts)),
                                bindAt(gpu::SIEVE_FINISH_ATOMIC_STREAMS, Binding::storage(b.streams))}),
                           gpu::DrawFinishPush{streams}, finishAtomic_.groupsFor(streams));
    return {};
}

}  // namespace sieve
