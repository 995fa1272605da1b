// The two flag dispatches (early and late phase) of the culling plugin, every view in one dispatch.
#include <array>

#include "core/vk.h"
#include "shared/cull_bindings.h"
#include "sieve/barriers.h"
#include "sieve/cull_flags.h"
#include "sieve/draw_list.h"

namespace sieve {

Result<CullFlagPass> CullFlagPass::create(const DeviceInfo& dev) {
    if (!dev.subgroupBallot)
        return makeError(VK_ERROR_FEATURE_NOT_PRESENT, "CullFlagPass: needs subgroup ballot in compute shaders");
    CullFlagPass p;
    if (auto ok = take(NearestSampler::create(dev, "cull pyramid nearest"), p.sampler_); !ok) return ok.error();
    if (auto ok = take(ComputePipeline::create(dev, {"cull/flag_early.comp", sizeof(gpu::CullFlagPush)}), p.early_);
        !ok)
        return ok.error();
    const std::pair<const char*, ComputePipeline*> late[] = {{"cull/flag_late.comp", &p.late_},
                                                             {"cull/flag_defer.comp", &p.lateDefer_},
                                                             {"cull/flag_candidates.comp", &p.lateCandidates_}};
    for (const auto& [shader, pipe] : late)
        if (auto ok = take(ComputePipeline::create(dev, {shader, sizeof(gpu::CullFlagPush)}), *pipe); !ok)
            return ok.error();
    return p;
}

namespace {
bool fourEarlyRounds(const CullLayout& l) {
    using R = CullLayout::EarlyRounds;
    return l.earlyRounds == R::Four || (l.earlyRounds == R::Auto && l.instanceCount >= kEarlyRoundsFrom);
}

// The draw marks cover every key of the layout (else the pass writes none).
bool marks(const CullPhaseBuffers& b, const CullLayout& l) {
    const uint64_t keys = uint64_t(l.instanceCount) * l.viewCount * l.binCount;
    return l.markEpoch != 0 && b.drawMarks.buffer && b.drawMarks.size >= drawMarkBytes(keys);
}

gpu::CullFlagPush push(const CullPhaseBuffers& b, const CullLayout& l, bool earlyRounds = false) {
    return {l.instanceCount, l.viewCount, l.binCount,
            (l.lateFlags ? 0u : gpu::SIEVE_FLAG_PUSH_NO_LATE_FLAGS) | (l.state ? 0u : gpu::SIEVE_FLAG_PUSH_NO_STATE) |
                (earlyRounds ? gpu::SIEVE_FLAG_PUSH_EARLY_ROUNDS : 0u) |
                (l.earlyFlags ? 0u : gpu::SIEVE_FLAG_PUSH_NO_EARLY_FLAGS),
            marks(b, l) ? l.markEpoch : 0u};
}

// The bindings both phases have (shared/cull_bindings.h); the late phase adds its own after them. Without marks
// the counters stand in for them (not accessed): a buffer the pass reads and writes anyway, so that the stand-in
// (bound read-write) adds no access a caller's barriers would have to cover.
BindingSet<gpu::SIEVE_FLAG_BINDINGS> phaseBindings(const CullPhaseBuffers& b) {
    return bindingsAt<gpu::SIEVE_FLAG_BINDINGS>(
        {bindAt(gpu::SIEVE_FLAG_VIEWS, Binding::uniform(b.params)),
         bindAt(gpu::SIEVE_FLAG_INSTANCES, Binding::storage(b.instances)),
         bindAt(gpu::SIEVE_FLAG_BOUNDS, Binding::storage(b.bounds)),
         bindAt(gpu::SIEVE_FLAG_MESHES, Binding::storage(b.meshes)),
         bindAt(gpu::SIEVE_FLAG_PRIMITIVES, Binding::storage(b.primitives)),
         bindAt(gpu::SIEVE_FLAG_VISIBLE_LAST, Binding::storage(b.visibleLast)),
         bindAt(gpu::SIEVE_FLAG_FLAGS, Binding::storage(b.flags)),
         bindAt(gpu::SIEVE_FLAG_DRAW_COUNTS, Binding::storage(b.drawCounts)),
         bindAt(gpu::SIEVE_FLAG_LODS, Binding::storage(b.lods)),
         bindAt(gpu::SIEVE_FLAG_COUNTERS, Binding::storage(b.counters)),
         bindAt(gpu::SIEVE_FLAG_DRAW_MARKS, Binding::storage(b.drawMarks.buffer ? b.drawMarks : b.counters))});
}
}  // namespace

void CullFlagPass::recordEarly(VkCommandBuffer cmd, const CullPhaseBuffers& b, const CullLayout& layout) const {
    if (!layout.instanceCount || !layout.viewCount) return;
    ScopedLabel label(cmd, "cull flags early");
    const auto set = phaseBindings(b);
    const bool four = fourEarlyRounds(layout);
    const uint64_t invocations =
        four ? (uint64_t(layout.instanceCount) + gpu::SIEVE_FLAG_EARLY_ROUNDS - 1) / gpu::SIEVE_FLAG_EARLY_ROUNDS
             : layout.instanceCount;
    early_.dispatchLinear(cmd, std::span(set).first(gpu::SIEVE_FLAG_EARLY_BINDINGS), push(b, layout, four),
                          early_.groupsFor(invocations));
}

void CullFlagPass::recordLate(VkCommandBuffer cmd, const CullPhaseBuffers& b, const CullLateBuffers& late,
                              const CullLayout& layout) const {
    if (!layout.instanceCount || !layout.viewCount) return;
    ScopedLabel label(cmd, "cull flags late");
    const BufferRange occlusion = late.occlusionView.buffer
                                      ? late.occlusionView
                                      : BufferRange{b.params.buffer, b.params.offset, sizeof(gpu::CullParams)};
    auto set = phaseBindings(b);
    set[gpu::SIEVE_FLAG_PYRAMID] = Binding::sampled(late.pyramid, sampler_.handle(), late.pyramidLayout);
    set[gpu::SIEVE_FLAG_LODS_EARLY] = Binding::storage(late.lodsEarly);
    set[gpu::SIEVE_FLAG_STATE] = Binding::storage(late.state);
    set[gpu::SIEVE_FLAG_OCCLUSION_VIEW] = Binding::uniform(occlusion);
    const uint32_t groups = late_.groupsFor(layout.instanceCount);
    using Split = CullLayout::LateSplit;
    const bool split = layout.lateSplit == Split::Adaptive || layout.lateSplit == Split::All ||
                       (layout.lateSplit == Split::Auto && layout.instanceCount >= kSplitLateFrom);
    if (!split || !late.candidates.buffer || late.candidates.size < cullCandidateBytes(layout.instanceCount)) {
        late_.dispatchLinear(cmd, set, push(b, layout), groups);
        return;
    }
    // The split late pass: every list starts empty (no workgroups, a row per list), after whatever read it before.
    const VkBuffer list = late.candidates.buffer;
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, 0,
                  VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    static const auto header = [] {
        std::array<uint32_t, gpu::SIEVE_CULL_CANDIDATE_HEADER_WORDS> h{};  // every list's count 0
        h[1] = gpu::SIEVE_CULL_CANDIDATE_LISTS;                            // no workgroups yet, a row per list
        h[2] = 1;
        return h;
    }();
    vkCmdUpdateBuffer(cmd, list, late.candidates.offset, sizeof(header), header.data());
    transferToComputeBarrier(cmd);
    set[gpu::SIEVE_FLAG_CANDIDATES] = Binding::storage(late.candidates);
    const gpu::CullFlagPush p = push(b, layout);
    gpu::CullFlagPush first = p;
    if (layout.lateSplit == Split::All) first.options |= gpu::SIEVE_FLAG_PUSH_DEFER_ALL;
    lateDefer_.dispatchLinear(cmd, set, first, groups);
    computeToIndirectBarrier(cmd);
    lateCandidates_.dispatchIndirect(cmd, set, &p, sizeof(p), {list, late.candidates.offset, 12});
}

}  // namespace sieve
