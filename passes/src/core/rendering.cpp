// Dynamic rendering scopes: the attachment, begin and viewport helpers of sieve/graphics_pipeline.h.
#include "core/vk.h"
#include "sieve/graphics_pipeline.h"

namespace sieve {

VkRenderingAttachmentInfo renderingAttachment(VkImageView view, VkImageLayout layout, VkAttachmentLoadOp load,
                                              VkAttachmentStoreOp store, VkClearValue clear) {
    return {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
            .imageView = view,
            .imageLayout = layout,
            .loadOp = load,
            .storeOp = store,
            .clearValue = clear};
}

void beginRendering(VkCommandBuffer cmd, VkExtent2D extent, const VkRenderingAttachmentInfo* color,
                    const VkRenderingAttachmentInfo* depth) {
    const VkRenderingInfo info{.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
                               .renderArea = {{0, 0}, extent},
                               .layerCount = 1,
                               .colorAttachmentCount = color ? 1u : 0u,
                               .pColorAttachments = color,
                               .pDepthAttachment = depth};
    vkCmdBeginRendering(cmd, &info);
}

void setFullViewport(VkCommandBuffer cmd, VkExtent2D extent) {
    const VkViewport viewport{0.0f, 0.0f, float(extent.width), float(extent.height), 0.0f, 1.0f};
    const VkRect2D scissor{{0, 0}, extent};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
}

}  // namespace sieve
