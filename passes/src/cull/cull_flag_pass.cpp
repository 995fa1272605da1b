// The two flag dispatches (early and late phase) of the culling plugin.
#include "sieve/cull_flags.h"

namespace sieve {

Result<CullFlagPass> CullFlagPass::create(const DeviceInfo& dev) {
    if (!dev.subgroupBallot)
        return makeError(VK_ERROR_FEATURE_NOT_PRESENT, "CullFlagPass: needs subgroup ballot in compute shaders");
    CullFlagPass p;
    auto sampler = NearestSampler::create(dev, "cull pyramid nearest");
    if (!sampler) return sampler.error();
    p.sampler_ = std::move(sampler).value();
    auto early = ComputePipeline::create(dev, {"cull/flag_early.comp"});
    if (!early) return early.error();
    p.early_ = std::move(early).value();
    auto late = ComputePipeline::create(dev, {"cull/flag_late.comp"});
    if (!late) return late.error();
    p.late_ = std::move(late).value();
    return p;
}

void CullFlagPass::recordEarly(VkCommandBuffer cmd, const CullPhaseBuffers& b, uint32_t instanceCount) const {
    if (!instanceCount) return;
    ScopedLabel label(cmd, "cull flags early");
    early_.dispatchLinear(cmd,
                          {Binding::uniform(b.params), Binding::storage(b.instances), Binding::storage(b.meshes),
                           Binding::storage(b.primitives), Binding::storage(b.visibleLast), Binding::storage(b.flags),
                           Binding::storage(b.drawCounts), Binding::storage(b.lods), Binding::storage(b.counters)},
                          nullptr, 0, early_.groupsFor(instanceCount));
}

void CullFlagPass::recordLate(VkCommandBuffer cmd, const CullPhaseBuffers& b, BufferRange flagsEarly, BufferRange state,
                              VkImageView pyramid, VkImageLayout pyramidLayout, uint32_t instanceCount) const {
    if (!instanceCount) return;
    ScopedLabel label(cmd, "cull flags late");
    late_.dispatchLinear(cmd,
                         {Binding::uniform(b.params), Binding::storage(b.instances), Binding::storage(b.meshes),
                          Binding::storage(b.primitives), Binding::storage(b.visibleLast), Binding::storage(b.flags),
                          Binding::storage(b.drawCounts), Binding::storage(b.lods), Binding::storage(b.counters),
                          Binding::storage(flagsEarly), Binding::sampled(pyramid, sampler_.handle(), pyramidLayout),
                          Binding::storage(state)},
                         nullptr, 0, late_.groupsFor(instanceCount));
}

}  // namespace sieve
