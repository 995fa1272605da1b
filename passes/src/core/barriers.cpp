#include "sieve/barriers.h"

#include "core/vk.h"

namespace sieve {

namespace {

// The fields every sync2 barrier struct has: the stages and accesses of `d`.
template <class Barrier>
Barrier stagesOf(VkStructureType type, const Dependency& d) {
    Barrier b{type};
    b.srcStageMask = d.srcStage;
    b.srcAccessMask = d.srcAccess;
    b.dstStageMask = d.dstStage;
    b.dstAccessMask = d.dstAccess;
    return b;
}

}  // namespace

void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                   VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess) {
    const auto b =
        stagesOf<VkMemoryBarrier2>(VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, {srcStage, srcAccess, dstStage, dstAccess});
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.memoryBarrierCount = 1;
    dep.pMemoryBarriers = &b;
    vkCmdPipelineBarrier2(cmd, &dep);
}

void computeToComputeBarrier(VkCommandBuffer cmd) {
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

void computeToIndirectBarrier(VkCommandBuffer cmd) {
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                      VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

void transferToComputeBarrier(VkCommandBuffer cmd) {
    // Synchronization validation tracks fills in the copy stage, the spec names the clear stage: both.
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

VkImageMemoryBarrier2 imageMemoryBarrier(VkImage image, const VkImageSubresourceRange& range, const Dependency& d) {
    auto b = stagesOf<VkImageMemoryBarrier2>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2, d);
    b.oldLayout = d.oldLayout;
    b.newLayout = d.newLayout;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = range;
    return b;
}

VkBufferMemoryBarrier2 bufferMemoryBarrier(VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size,
                                           const Dependency& d) {
    auto b = stagesOf<VkBufferMemoryBarrier2>(VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2, d);
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.buffer = buffer;
    b.offset = offset;
    b.size = size ? size : VK_WHOLE_SIZE;
    return b;
}

void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkPipelineStageFlags2 srcStage,
                  VkAccessFlags2 srcAccess, VkImageLayout oldLayout, VkPipelineStageFlags2 dstStage,
                  VkAccessFlags2 dstAccess, VkImageLayout newLayout, uint32_t baseMip, uint32_t mipCount) {
    const VkImageMemoryBarrier2 b = imageMemoryBarrier(
        image, {aspect, baseMip, mipCount, 0, 1}, {srcStage, srcAccess, dstStage, dstAccess, oldLayout, newLayout});
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.imageMemoryBarrierCount = 1;
    dep.pImageMemoryBarriers = &b;
    vkCmdPipelineBarrier2(cmd, &dep);
}

}  // namespace sieve
