#pragma once
// One-line sync2 barriers for the barriers inside a pass (the host derives the ones between passes).
#include <vulkan/vulkan.h>

namespace sieve {

// One dependency between two accesses of a resource, with the layout transition of an image (both layouts
// UNDEFINED for a buffer): the fields a host that derives its own barriers fills for every barrier.
struct Dependency {
    VkPipelineStageFlags2 srcStage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 srcAccess = VK_ACCESS_2_NONE;
    VkPipelineStageFlags2 dstStage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 dstAccess = VK_ACCESS_2_NONE;
    VkImageLayout oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkImageLayout newLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    bool operator==(const Dependency&) const = default;
};

// The barrier structs of `d` (no queue family transfer), for batching several into one vkCmdPipelineBarrier2.
VkImageMemoryBarrier2 imageMemoryBarrier(VkImage image, const VkImageSubresourceRange& range, const Dependency& d);
// `size` 0: the rest of the buffer (VK_WHOLE_SIZE).
VkBufferMemoryBarrier2 bufferMemoryBarrier(VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size,
                                           const Dependency& d);

// A global memory dependency: writes at srcStage/srcAccess made visible to dstStage/dstAccess.
void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                   VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess);

// Storage writes of one compute dispatch -> storage reads and writes of the next.
void computeToComputeBarrier(VkCommandBuffer cmd);

// Storage writes of one compute dispatch -> the next dispatch's indirect arguments and storage reads and writes.
void computeToIndirectBarrier(VkCommandBuffer cmd);

// Fills and updates (vkCmdFillBuffer / vkCmdUpdateBuffer) -> storage reads and writes of compute dispatches.
void transferToComputeBarrier(VkCommandBuffer cmd);

// An image dependency with a layout transition, over `range` (all mips of layer 0 by default).
void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkPipelineStageFlags2 srcStage,
                  VkAccessFlags2 srcAccess, VkImageLayout oldLayout, VkPipelineStageFlags2 dstStage,
                  VkAccessFlags2 dstAccess, VkImageLayout newLayout, uint32_t baseMip = 0,
                  uint32_t mipCount = VK_REMAINING_MIP_LEVELS);

}  // namespace sieve
