#include "sieve/plugin.h"

namespace sieve::use {

namespace {
ResourceUse buffer(SlotId s, VkPipelineStageFlags2 stage, VkAccessFlags2 access, bool write) {
    ResourceUse u;
    u.slot = s;
    u.stage = stage;
    u.access = access;
    u.write = write;
    return u;
}
ResourceUse image(SlotId s, VkPipelineStageFlags2 stage, VkAccessFlags2 access, VkImageLayout layout,
                  VkImageAspectFlags aspect, uint32_t baseMip, uint32_t mipCount, bool write) {
    ResourceUse u = buffer(s, stage, access, write);
    u.layout = layout;
    u.range = {aspect, baseMip, mipCount, 0, 1};
    return u;
}
}  // namespace

ResourceUse storageRead(SlotId s, VkPipelineStageFlags2 stage) {
    return buffer(s, stage, VK_ACCESS_2_SHADER_STORAGE_READ_BIT, false);
}
ResourceUse storageWrite(SlotId s, VkPipelineStageFlags2 stage) {
    return buffer(s, stage, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, true);
}
ResourceUse storageReadWrite(SlotId s, VkPipelineStageFlags2 stage) {
    return buffer(s, stage, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, true);
}
ResourceUse uniformRead(SlotId s, VkPipelineStageFlags2 stage) {
    return buffer(s, stage, VK_ACCESS_2_UNIFORM_READ_BIT, false);
}
ResourceUse indirectRead(SlotId s) {
    return buffer(s, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT, false);
}
ResourceUse transferWrite(SlotId s) {
    return buffer(s, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  true);
}
ResourceUse transferRead(SlotId s) {
    return buffer(s, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, false);
}
ResourceUse vertexRead(SlotId s) {
    return buffer(s, VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT,
                  VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_INDEX_READ_BIT, false);
}
ResourceUse sampledImage(SlotId s, VkPipelineStageFlags2 stage, VkImageAspectFlags aspect, uint32_t baseMip,
                         uint32_t mipCount) {
    return image(s, stage, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, aspect,
                 baseMip, mipCount, false);
}
ResourceUse storageImageWrite(SlotId s, uint32_t baseMip, uint32_t mipCount) {
    return image(s, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_ASPECT_COLOR_BIT, baseMip, mipCount, true);
}
ResourceUse storageImageReadWrite(SlotId s, uint32_t baseMip, uint32_t mipCount) {
    return image(s, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL,
                 VK_IMAGE_ASPECT_COLOR_BIT, baseMip, mipCount, true);
}
ResourceUse colorAttachmentWrite(SlotId s) {
    return image(s, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                 VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, true);
}
ResourceUse depthAttachmentWrite(SlotId s) {
    return image(s, VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                 VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, true);
}
ResourceUse depthSampled(SlotId s, VkPipelineStageFlags2 stage) {
    return image(s, stage, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                 VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, false);
}

}  // namespace sieve::use
