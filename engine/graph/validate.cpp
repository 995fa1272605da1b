#include "engine/graph/validate.h"

#include <algorithm>
#include <optional>

#include "engine/graph/names.h"
#include "engine/graph/sync_rules.h"

namespace engine::graph {

namespace {

using sieve::ResourceUse;
using sieve::SlotKind;

sieve::Error conflict(const std::string& pass, const std::string& slot, const std::string& problem) {
    return sieve::makeError(VK_ERROR_VALIDATION_FAILED_EXT,
                            "render graph: pass '" + pass + "', slot '" + slot + "': " + problem);
}

bool isImage(const CompiledSlot& s) {
    return s.desc.kind == SlotKind::Image;
}
uint32_t mipCount(const CompiledSlot& s) {
    return std::max(s.desc.mipLevels, 1u);
}

// What is wrong with one use taken alone, if anything.
std::optional<std::string> checkUse(const CompiledSlot& slot, const ResourceUse& u) {
    const VkAccessFlags2 writes = writeAccessBits(u.access);
    if (u.access == VK_ACCESS_2_NONE) return "the use declares no access";
    if (u.stage == VK_PIPELINE_STAGE_2_NONE) return "the use declares no stage";
    if (u.write && !writes) return "declared as a write, but its access " + accessNames(u.access) + " only reads";
    if (!u.write && writes) return "declared as a read, but its access " + accessNames(u.access) + " writes";
    if (VkAccessFlags2 bad = accessUnsupportedByStages(u.stage, u.access))
        return "access " + accessNames(bad) + " cannot happen at stage " + stageNames(u.stage);
    if (!isImage(slot)) {
        if (u.layout != VK_IMAGE_LAYOUT_UNDEFINED)
            return std::string("an image use (layout ") + layoutName(u.layout) + ") of a buffer slot";
        return std::nullopt;
    }
    if (u.layout == VK_IMAGE_LAYOUT_UNDEFINED || u.layout == VK_IMAGE_LAYOUT_PREINITIALIZED)
        return std::string("a buffer use (layout ") + layoutName(u.layout) + ") of an image slot";
    if (u.write && isReadOnlyLayout(u.layout))
        return std::string("a write in the read-only layout ") + layoutName(u.layout);
    if (u.range.aspectMask == 0) return "the image range has no aspect";
    if (u.range.baseArrayLayer != 0 || u.range.layerCount != 1) return "the graph tracks layer 0 only";
    if (u.range.levelCount == 0 || u.range.baseMipLevel + u.range.levelCount > mipCount(slot))
        return "mips [" + std::to_string(u.range.baseMipLevel) + ", " +
               std::to_string(u.range.baseMipLevel + u.range.levelCount) + ") outside the image's " +
               std::to_string(mipCount(slot)) + " mip(s)";
    return std::nullopt;
}

// Two uses of one subresource by one pass must agree on its layout.
sieve::Result<void> checkLayoutsAgree(const std::vector<CompiledSlot>& slots, const sieve::PassDesc& pass) {
    for (size_t i = 0; i < pass.uses.size(); ++i) {
        for (size_t j = i + 1; j < pass.uses.size(); ++j) {
            const ResourceUse& a = pass.uses[i];
            const ResourceUse& b = pass.uses[j];
            if (a.slot != b.slot || !isImage(slots[a.slot]) || a.layout == b.layout) continue;
            const uint32_t lo = std::max(a.range.baseMipLevel, b.range.baseMipLevel);
            const uint32_t hi =
                std::min(a.range.baseMipLevel + a.range.levelCount, b.range.baseMipLevel + b.range.levelCount);
            if (lo < hi)
                return conflict(pass.name, slots[a.slot].desc.name,
                                "mip " + std::to_string(lo) + " is used in two layouts, " + layoutName(a.layout) +
                                    " and " + layoutName(b.layout));
        }
    }
    return {};
}

// Reading contents no earlier pass of the frame wrote: fine for persistent slots (last frame's contents)
// and imported ones (the host's), an error for transients and for imported images handed over UNDEFINED.
sieve::Result<void> checkReadsFollowWrites(const std::vector<CompiledSlot>& slots,
                                           const std::vector<sieve::PassDesc>& passes) {
    std::vector<std::vector<bool>> written(slots.size());
    for (size_t s = 0; s < slots.size(); ++s) written[s].assign(isImage(slots[s]) ? mipCount(slots[s]) : 1, false);
    for (const sieve::PassDesc& pass : passes) {
        for (const ResourceUse& u : pass.uses) {
            const CompiledSlot& slot = slots[u.slot];
            const uint32_t first = isImage(slot) ? u.range.baseMipLevel : 0;
            const uint32_t count = isImage(slot) ? u.range.levelCount : 1;
            for (uint32_t m = first; m < first + count; ++m) {
                if (u.write || written[u.slot][m]) continue;
                const sieve::Lifetime life = slot.desc.lifetime;
                if (life == sieve::Lifetime::Transient)
                    return conflict(pass.name, slot.desc.name,
                                    "reads the transient slot before any pass of the frame writes it");
                if (life == sieve::Lifetime::Imported && isImage(slot) &&
                    slot.import.initial.layout == VK_IMAGE_LAYOUT_UNDEFINED)
                    return conflict(pass.name, slot.desc.name,
                                    "reads the imported image before any pass writes it, but its initial layout "
                                    "is UNDEFINED (contents discarded): declare ImportDesc::initial.layout");
            }
            if (u.write)
                for (uint32_t m = first; m < first + count; ++m) written[u.slot][m] = true;
        }
    }
    return {};
}

}  // namespace

void resolveRanges(const std::vector<CompiledSlot>& slots, sieve::PassDesc& pass) {
    for (ResourceUse& u : pass.uses) {
        if (u.slot >= slots.size() || !isImage(slots[u.slot])) continue;
        const uint32_t mips = mipCount(slots[u.slot]);
        if (u.range.levelCount == VK_REMAINING_MIP_LEVELS)
            u.range.levelCount = u.range.baseMipLevel < mips ? mips - u.range.baseMipLevel : 0;
        if (u.range.layerCount == VK_REMAINING_ARRAY_LAYERS)
            u.range.layerCount = 1 - std::min(u.range.baseArrayLayer, 1u);
    }
}

sieve::Result<void> validate(const std::vector<CompiledSlot>& slots, const std::vector<sieve::PassDesc>& passes) {
    for (size_t i = 0; i < slots.size(); ++i)
        for (size_t j = i + 1; j < slots.size(); ++j)
            if (slots[i].desc.name == slots[j].desc.name)
                return sieve::makeError(VK_ERROR_VALIDATION_FAILED_EXT,
                                        "render graph: slots " + std::to_string(i) + " and " + std::to_string(j) +
                                            " are both named '" + slots[i].desc.name + "'");
    for (const sieve::PassDesc& pass : passes) {
        for (size_t i = 0; i < pass.uses.size(); ++i) {
            const ResourceUse& u = pass.uses[i];
            if (u.slot >= slots.size())
                return conflict(pass.name, "#" + std::to_string(u.slot),
                                "use " + std::to_string(i) + " names a slot out of range (the graph has " +
                                    std::to_string(slots.size()) + " slots)");
            if (auto problem = checkUse(slots[u.slot], u))
                return conflict(pass.name, slots[u.slot].desc.name, *problem);
        }
        if (auto r = checkLayoutsAgree(slots, pass); !r) return r;
    }
    return checkReadsFollowWrites(slots, passes);
}

}  // namespace engine::graph
