#include "engine/graph/compile.h"

#include "engine/graph/barriers.h"
#include "engine/graph/sync_rules.h"
#include "engine/graph/validate.h"

namespace engine::graph {

namespace {

using sieve::Lifetime;

bool readsContents(const sieve::ResourceUse& u) {
    return !u.write || readAccessBits(u.access) != 0;
}

// Passes to keep: those with side effects, and those writing what a kept pass reads later in the frame,
// what the host reads (imported slots), or what a kept pass reads next frame (persistent slots). Iterated
// because persistent reads can come before the write that feeds them.
std::vector<bool> livePasses(const std::vector<CompiledSlot>& slots, const std::vector<sieve::PassDesc>& passes) {
    std::vector<bool> live(passes.size(), false);
    for (bool changed = true; changed;) {
        changed = false;
        std::vector<bool> needed(slots.size(), false);
        for (size_t s = 0; s < slots.size(); ++s) needed[s] = slots[s].desc.lifetime == Lifetime::Imported;
        for (size_t p = 0; p < passes.size(); ++p)
            for (const sieve::ResourceUse& u : passes[p].uses)
                if (live[p] && readsContents(u) && slots[u.slot].desc.lifetime == Lifetime::Persistent)
                    needed[u.slot] = true;
        for (size_t p = passes.size(); p-- > 0;) {
            bool keep = passes[p].sideEffect;
            for (const sieve::ResourceUse& u : passes[p].uses) keep = keep || (u.write && needed[u.slot]);
            if (!keep) continue;
            for (const sieve::ResourceUse& u : passes[p].uses)
                if (readsContents(u)) needed[u.slot] = true;
            if (!live[p]) live[p] = changed = true;
        }
    }
    return live;
}

// The state of each slot when a frame starts, from the state the previous frame ended in.
std::vector<SlotState> frameStartStates(const std::vector<CompiledSlot>& slots, std::vector<SlotState> end) {
    for (size_t s = 0; s < slots.size(); ++s) {
        const CompiledSlot& slot = slots[s];
        if (slot.desc.lifetime == Lifetime::Persistent) continue;  // exactly as the last frame left it
        for (SubresourceState& sub : end[s].subs) {
            // Transients are discarded; the previous frame's accesses still have to finish before new writes
            // (frames in flight share one copy, on one queue).
            sub.layout = VK_IMAGE_LAYOUT_UNDEFINED;
            sub.visible.clear();
            if (slot.desc.lifetime != Lifetime::Imported) continue;
            const AccessState& in = slot.import.initial;
            sub.layout = in.layout;
            if (in.stage == VK_PIPELINE_STAGE_2_NONE) continue;  // carry our own accesses over
            if (writeAccessBits(in.access))
                sub = {in.layout, in.stage, writeAccessBits(in.access), VK_PIPELINE_STAGE_2_NONE, {}};
            else
                sub = {in.layout, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, in.stage, {}};
        }
    }
    return end;
}

// Imported slots to the state the host declared for the end of the frame.
Barriers finalBarriers(const std::vector<CompiledSlot>& slots, std::vector<SlotState>& states) {
    Barriers out;
    for (size_t s = 0; s < slots.size(); ++s) {
        const CompiledSlot& slot = slots[s];
        const AccessState& fin = slot.import.final;
        if (!slot.used || slot.desc.lifetime != Lifetime::Imported) continue;
        if (fin.stage == VK_PIPELINE_STAGE_2_NONE && fin.layout == VK_IMAGE_LAYOUT_UNDEFINED) continue;
        const bool image = slot.desc.kind == sieve::SlotKind::Image;
        for (uint32_t m = 0; m < states[s].subs.size(); ++m) {
            SubresourceState& sub = states[s].subs[m];
            SubresourceUse use{fin.stage, fin.access, fin.layout != VK_IMAGE_LAYOUT_UNDEFINED ? fin.layout : sub.layout,
                               false, image};
            std::optional<Dependency> d = derive(sub, use);
            if (!d) continue;
            if (image)
                appendImageBarrier(out.images, static_cast<SlotId>(s), states[s].aspect, m, *d);
            else
                out.buffers.push_back({static_cast<SlotId>(s), d->srcStage, d->srcAccess, d->dstStage, d->dstAccess});
        }
    }
    return out;
}

}  // namespace

sieve::Result<CompiledGraph> compile(const GraphBuilder& graph) {
    CompiledGraph out;
    for (const SlotInfo& s : graph.slots()) out.slots.push_back({s.desc, s.import, false, {}});
    std::vector<sieve::PassDesc> passes;
    for (const PassInfo& p : graph.passes()) {
        passes.push_back(p.desc);
        resolveRanges(out.slots, passes.back());
    }
    if (auto r = validate(out.slots, passes); !r) return r.error();

    std::vector<bool> live = livePasses(out.slots, passes);
    for (uint32_t p = 0; p < passes.size(); ++p) {
        if (!live[p]) {
            out.culled.push_back(passes[p].name);
            continue;
        }
        out.passes.push_back({p, passes[p], graph.passes()[p].record, {}});
        for (const sieve::ResourceUse& u : passes[p].uses) out.slots[u.slot].used = true;
    }

    // One frame from scratch gives the state frames end in; the real frame starts from it. A second
    // frame from that start ends in the same state, so every frame needs the same barriers.
    std::vector<SlotState> state = emptyStates(out.slots);
    for (const CompiledPass& p : out.passes) (void)passBarriers(state, out.slots, p.desc);
    for (size_t s = 0; s < out.slots.size(); ++s)
        if (out.slots[s].desc.lifetime == Lifetime::Persistent && out.slots[s].desc.kind == sieve::SlotKind::Image)
            for (const SubresourceState& sub : state[s].subs) out.slots[s].entryLayouts.push_back(sub.layout);

    state = frameStartStates(out.slots, std::move(state));
    for (CompiledPass& p : out.passes) p.before = passBarriers(state, out.slots, p.desc);
    out.final = finalBarriers(out.slots, state);
    return out;
}

}  // namespace engine::graph
