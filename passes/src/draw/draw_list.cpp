#include "sieve/draw_list.h"

#include "prim/common.h"
#include "shared/draw.h"
#include "shared/draw_push.h"
#include "sieve/barriers.h"

namespace sieve {

Result<DrawListBuilder> DrawListBuilder::create(const DeviceInfo& dev, const prim::PrimOptions& scanOptions) {
    DrawListBuilder b;
    b.dev_ = dev;
    auto scan = prim::Scan::create(dev, scanOptions);
    if (!scan) return scan.error();
    b.scan_ = std::move(scan).value();
    const uint32_t stable[] = {0}, atomic[] = {1};
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

Result<void> DrawListBuilder::record(VkCommandBuffer cmd, const DrawListBuffers& b, uint32_t n, uint32_t capacity,
                                     uint32_t maxDrawsPerInstance, DrawOrder order) const {
    const gpu::DrawExpandPush push{n, capacity};
    // At least one group: group 0 writes the clamped count even when there are no instances.
    const uint32_t groups = n ? stable_.groupsFor(n) : 1;
    const auto bindings = {Binding::storage(b.instances),  Binding::storage(b.meshes), Binding::storage(b.primitives),
                           Binding::storage(b.drawCounts), Binding::storage(b.lods),   Binding::storage(b.offsets),
                           Binding::storage(b.draws),      Binding::storage(b.counts)};
    if (order == DrawOrder::Stable) {
        ScopedLabel label(cmd, "draw list (stable)");
        prim::ScanBuffers scan{b.drawCounts, b.offsets, {b.counts.buffer, b.counts.offset + 8, 4}, b.scratch};
        if (auto r = scan_.record(cmd, scan, n, prim::SumBound::perValue(n, maxDrawsPerInstance)); !r) return r;
        prim::detail::computeBarrier(cmd);
        ScopedLabel expand(cmd, "expand");
        stable_.dispatchLinear(cmd, bindings, push, groups);
        return {};
    }
    ScopedLabel label(cmd, "draw list (atomic append)");
    vkCmdFillBuffer(cmd, b.counts.buffer, b.counts.offset, sizeof(gpu::DrawCounts), 0);
    transferToComputeBarrier(cmd);
    atomic_.dispatchLinear(cmd, bindings, push, groups);
    prim::detail::computeBarrier(cmd);
    finishAtomic_.dispatch(cmd, {Binding::storage(b.counts)}, gpu::DrawFinishPush{capacity}, 1);
    return {};
}

}  // namespace sieve
