#pragma once
// Barrier derivation: the sync state of every subresource (a buffer, or one mip of an image) and the
// barrier a new use of it needs.
#include <optional>
#include <utility>
#include <vector>

#include "engine/graph/compile.h"

namespace engine::graph {

struct SubresourceState {
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
    // The last write, or the stage of the last layout transition (which is a write without access flags).
    VkPipelineStageFlags2 writeStage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 writeAccess = VK_ACCESS_2_NONE;
    // Stages that read it since; they all waited for the write, so a later write only waits for them.
    VkPipelineStageFlags2 readStages = VK_PIPELINE_STAGE_2_NONE;
    // (stage, access) pairs the last write has been made visible to: reads they cover need no barrier.
    std::vector<std::pair<VkPipelineStageFlags2, VkAccessFlags2>> visible;
};

struct SlotState {
    std::vector<SubresourceState> subs;  // one for a buffer, one per mip for an image
    VkImageAspectFlags aspect = 0;       // of the last image use
};

// One use of one subresource, all uses of it by one pass merged.
struct SubresourceUse {
    VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 access = VK_ACCESS_2_NONE;
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
    bool write = false;
    bool image = false;
};

// The dependency `use` needs on what happened to the subresource before (none if already covered), and
// the state after it.
std::optional<Dependency> derive(SubresourceState& state, const SubresourceUse& use);

// Initial states of every slot: nothing happened, layouts UNDEFINED.
std::vector<SlotState> emptyStates(const std::vector<CompiledSlot>& slots);

// The barriers one pass needs, in the order of its uses, consecutive mips with equal dependencies merged.
// Updates `states`. The pass's uses are validated and have resolved ranges.
Barriers passBarriers(std::vector<SlotState>& states, const std::vector<CompiledSlot>& slots,
                      const sieve::PassDesc& pass);

// Appends an image barrier for mips [mip, mip+1) of `slot`, extending the previous one when it is the same
// dependency on the preceding mip.
void appendImageBarrier(std::vector<ImageBarrier>& out, SlotId slot, VkImageAspectFlags aspect, uint32_t mip,
                        const Dependency& d);

}  // namespace engine::graph
