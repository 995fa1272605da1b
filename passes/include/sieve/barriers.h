#pragma once
// One-line sync2 barriers for the barriers inside a pass (the host derives the ones between passes).
#include <vulkan/vulkan.h>

namespace sieve {

// A global memory dependency: writes at srcStage/srcAccess made visible to dstStage/dstAccess.
void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                   VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess);

// Storage writes of one compute dispatch -> storage reads and writes of the next.
void computeToComputeBarrier(VkCommandBuffer cmd);

// Fills and updates (vkCmdFillBuffer / vkCmdUpdateBuffer) -> storage reads and writes of compute dispatches.
void transferToComputeBarrier(VkCommandBuffer cmd);

// An image dependency with a layout transition, over `range` (all mips of layer 0 by default).
void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkPipelineStageFlags2 srcStage,
                  VkAccessFlags2 srcAccess, VkImageLayout oldLayout, VkPipelineStageFlags2 dstStage,
                  VkAccessFlags2 dstAccess, VkImageLayout newLayout, uint32_t baseMip = 0,
                  uint32_t mipCount = VK_REMAINING_MIP_LEVELS);

}  // namespace sieve
