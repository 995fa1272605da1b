#include "engine/graph/barriers.h"

#include <algorithm>

#include "engine/graph/sync_rules.h"

namespace engine::graph {

namespace {

// True when every (stage bit, access) of the use was made visible by an earlier barrier.
bool isVisible(const SubresourceState& s, VkPipelineStageFlags2 stage, VkAccessFlags2 access) {
    for (VkPipelineStageFlags2 rest = stage; rest; rest &= rest - 1) {
        VkPipelineStageFlags2 bit = rest & (~rest + 1);
        VkAccessFlags2 seen = 0;
        for (const auto& [visStage, visAccess] : s.visible)
            if (visStage & bit) seen |= visAccess;
        if ((access & seen) != access) return false;
    }
    return true;
}

}  // namespace

std::optional<Dependency> derive(SubresourceState& s, const SubresourceUse& use) {
    Dependency d;
    d.dstStage = use.stage;
    d.dstAccess = use.access;
    d.oldLayout = s.layout;
    d.newLayout = use.image ? use.layout : VK_IMAGE_LAYOUT_UNDEFINED;
    const bool transition = use.image && s.layout != use.layout;

    if (use.write || transition) {
        // Write-after-read: the readers waited for the last write, so an execution dependency on them is
        // enough (no access). Otherwise write-after-write, or read-after-write across a layout transition.
        if (s.readStages) {
            d.srcStage = s.readStages;
        } else {
            d.srcStage = s.writeStage;
            d.srcAccess = s.writeAccess;
        }
        s.layout = d.newLayout;
        if (use.write) {
            s.writeStage = use.stage;
            s.writeAccess = writeAccessBits(use.access);
            s.readStages = VK_PIPELINE_STAGE_2_NONE;
            s.visible.clear();
        } else {
            // A read behind a layout transition: the transition is the write later uses chain on.
            s.writeStage = use.stage;
            s.writeAccess = VK_ACCESS_2_NONE;
            s.readStages = use.stage;
            s.visible = {{use.stage, use.access}};
        }
        if (!transition && d.srcStage == VK_PIPELINE_STAGE_2_NONE) return std::nullopt;  // first use
        return d;
    }

    // Read in the current layout: reads merge; only stages/accesses the last write is not yet visible to
    // need a barrier.
    s.readStages |= use.stage;
    if (s.writeStage == VK_PIPELINE_STAGE_2_NONE || isVisible(s, use.stage, use.access)) return std::nullopt;
    d.srcStage = s.writeStage;
    d.srcAccess = s.writeAccess;
    s.visible.emplace_back(use.stage, use.access);
    return d;
}

std::vector<SlotState> emptyStates(const std::vector<CompiledSlot>& slots) {
    std::vector<SlotState> states(slots.size());
    for (size_t i = 0; i < slots.size(); ++i) {
        const bool image = slots[i].desc.kind == sieve::SlotKind::Image;
        states[i].subs.resize(image ? std::max(slots[i].desc.mipLevels, 1u) : 1);
    }
    return states;
}

void appendImageBarrier(std::vector<ImageBarrier>& out, SlotId slot, VkImageAspectFlags aspect, uint32_t mip,
                        const Dependency& d) {
    ImageBarrier b{slot, d, aspect, mip, 1};
    if (!out.empty()) {
        ImageBarrier& last = out.back();
        ImageBarrier probe = b;
        probe.baseMip = last.baseMip;
        probe.mipCount = last.mipCount;
        if (probe == last && last.baseMip + last.mipCount == mip) {
            ++last.mipCount;
            return;
        }
    }
    out.push_back(b);
}

Barriers passBarriers(std::vector<SlotState>& states, const std::vector<CompiledSlot>& slots,
                      const sieve::PassDesc& pass) {
    // Merge all uses of each subresource by this pass into one, keeping the order of first appearance.
    struct Merged {
        SlotId slot;
        uint32_t sub;
        VkImageAspectFlags aspect;
        SubresourceUse use;
    };
    std::vector<Merged> merged;
    for (const sieve::ResourceUse& u : pass.uses) {
        const bool image = slots[u.slot].desc.kind == sieve::SlotKind::Image;
        const uint32_t first = image ? u.range.baseMipLevel : 0;
        const uint32_t count = image ? u.range.levelCount : 1;
        for (uint32_t sub = first; sub < first + count; ++sub) {
            Merged* m = nullptr;
            for (Merged& e : merged)
                if (e.slot == u.slot && e.sub == sub) m = &e;
            if (!m) m = &merged.emplace_back(Merged{u.slot, sub, 0, {0, 0, u.layout, false, image}});
            m->aspect |= image ? u.range.aspectMask : 0;
            m->use.stage |= u.stage;
            m->use.access |= u.access;
            m->use.write = m->use.write || u.write;
        }
    }

    Barriers out;
    for (const Merged& m : merged) {
        SlotState& slot = states[m.slot];
        std::optional<Dependency> d = derive(slot.subs[m.sub], m.use);
        if (m.use.image) slot.aspect = m.aspect;
        if (!d) continue;
        if (m.use.image)
            appendImageBarrier(out.images, m.slot, m.aspect, m.sub, *d);
        else
            out.buffers.push_back({m.slot, d->srcStage, d->srcAccess, d->dstStage, d->dstAccess});
    }
    return out;
}

}  // namespace engine::graph
