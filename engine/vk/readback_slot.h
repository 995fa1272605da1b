#pragma once
// A host-visible buffer per frame slot that a graph pass copies GPU results into (engine/scene/
// draw_readback.h, engine/ui/pick_readback_pass.h), with the frame it holds.
#include <volk.h>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/vk/resources.h"
#include "sieve/barriers.h"

namespace engine {

struct ReadbackSlot {
    Buffer buffer;
    std::optional<uint64_t> frame;  // recorded into the buffer

    // After the frame's copies (writes at `stages` with `access`): visible to the host once the frame's
    // fence is waited for; the slot holds `frameIndex`.
    void written(VkCommandBuffer cmd, VkPipelineStageFlags2 stages, VkAccessFlags2 access, uint64_t frameIndex) {
        sieve::memoryBarrier(cmd, stages, access, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        frame = frameIndex;
    }
};

// The bytes of slot `frameSlot` and the frame they hold, after its fence; null where nothing was copied.
inline const uint8_t* readbackBytes(std::span<const ReadbackSlot> slots, uint32_t frameSlot, uint64_t& frameIndex) {
    if (frameSlot >= slots.size() || !slots[frameSlot].frame) return nullptr;
    frameIndex = *slots[frameSlot].frame;
    return static_cast<const uint8_t*>(slots[frameSlot].buffer.mapped());
}

}  // namespace engine
