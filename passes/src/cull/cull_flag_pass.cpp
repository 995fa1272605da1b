// The two flag dispatches (early and late phase) of the culling plugin, every view in one dispatch.
#include "sieve/cull_flags.h"

namespace sieve {

Result<CullFlagPass> CullFlagPass::create(const DeviceInfo& dev) {
    if (!dev.subgroupBallot)
        return makeError(VK_ERROR_FEATURE_NOT_PRESENT, "CullFlagPass: needs subgroup ballot in compute shaders");
    CullFlagPass p;
    if (auto ok = take(NearestSampler::create(dev, "cull pyramid nearest"), p.sampler_); !ok) return ok.error();
    if (auto ok = take(ComputePipeline::create(dev, {"cull/flag_early.comp", sizeof(gpu::CullFlagPush)}), p.early_);
        !ok)
        return ok.error();
    if (auto ok = take(ComputePipeline::create(dev, {"cull/flag_late.comp", sizeof(gpu::CullFlagPush)}), p.late_); !ok)
        return ok.error();
    return p;
}

namespace {
gpu::CullFlagPush push(const CullLayout& l) {
    return {l.instanceCount, l.viewCount, l.binCount, 0u};
}
}  // namespace

void CullFlagPass::recordEarly(VkCommandBuffer cmd, const CullPhaseBuffers& b, const CullLayout& layout) const {
    if (!layout.instanceCount || !layout.viewCount) return;
    ScopedLabel label(cmd, "cull flags early");
    early_.dispatchLinear(cmd,
                          {Binding::uniform(b.params), Binding::storage(b.instances), Binding::storage(b.meshes),
                           Binding::storage(b.primitives), Binding::storage(b.visibleLast), Binding::storage(b.flags),
                           Binding::storage(b.drawCounts), Binding::storage(b.lods), Binding::storage(b.counters)},
                          push(layout), early_.groupsFor(layout.instanceCount));
}

void CullFlagPass::recordLate(VkCommandBuffer cmd, const CullPhaseBuffers& b, const CullLateBuffers& late,
                              const CullLayout& layout) const {
    if (!layout.instanceCount || !layout.viewCount) return;
    ScopedLabel label(cmd, "cull flags late");
    const BufferRange occlusion = late.occlusionView.buffer
                                      ? late.occlusionView
                                      : BufferRange{b.params.buffer, b.params.offset, sizeof(gpu::CullParams)};
    late_.dispatchLinear(
        cmd,
        {Binding::uniform(b.params), Binding::storage(b.instances), Binding::storage(b.meshes),
         Binding::storage(b.primitives), Binding::storage(b.visibleLast), Binding::storage(b.flags),
         Binding::storage(b.drawCounts), Binding::storage(b.lods), Binding::storage(b.counters),
         Binding::storage(late.flagsEarly), Binding::sampled(late.pyramid, sampler_.handle(), late.pyramidLayout),
         Binding::storage(late.lodsEarly), Binding::storage(late.state), Binding::uniform(occlusion)},
        push(layout), late_.groupsFor(layout.instanceCount));
}

}  // namespace sieve
