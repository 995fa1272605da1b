#include "geometry/rendering.h"

#include "core/vk.h"
#include "shared/geometry_push.h"

namespace sieve::geometry {

GraphicsPipelineDesc defaultPassDesc(VkFormat colorFormat, VkFormat depthFormat, const GeometryOptions& options) {
    GraphicsPipelineDesc desc;
    desc.fragmentShader = "geometry/mesh.frag";
    desc.pushConstantBytes = sizeof(gpu::GeometryPush);
    desc.colorFormat = colorFormat;
    desc.depthFormat = depthFormat;
    desc.depthTest = true;
    desc.depthWrite = true;
    desc.depthCompare = options.reverseZ ? VK_COMPARE_OP_GREATER_OR_EQUAL : VK_COMPARE_OP_LESS_OR_EQUAL;
    desc.cullMode = options.cullMode;
    // Meshes are counter-clockwise seen from outside; whether that stays so on screen depends on the
    // host's projection and viewport (a Y flip in either mirrors it), so the host says.
    desc.frontFace = options.frontFace;
    return desc;
}

void beginRendering(VkCommandBuffer cmd, const GeometryAttachments& attachments, VkExtent2D extent, bool reverseZ) {
    const VkAttachmentLoadOp load = attachments.clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
    const VkRenderingAttachmentInfo color =
        renderingAttachment(attachments.color, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, load,
                            VK_ATTACHMENT_STORE_OP_STORE, {.color = {{0.53f, 0.68f, 0.85f, 1.0f}}});
    const VkRenderingAttachmentInfo depth =
        renderingAttachment(attachments.depth, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, load,
                            VK_ATTACHMENT_STORE_OP_STORE, {.depthStencil = {reverseZ ? 0.0f : 1.0f, 0}});  // far
    sieve::beginRendering(cmd, extent, &color, &depth);
}

void endRendering(VkCommandBuffer cmd) {
    vkCmdEndRendering(cmd);
}

gpu::GeometryPush makePush(const float viewProj[16], const float lightDir[3]) {
    gpu::GeometryPush push{};
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) push.viewProj[c][r] = viewProj[c * 4 + r];
    push.lightDir = gpu::vec4(lightDir[0], lightDir[1], lightDir[2], 0.0f);
    push.tint = gpu::vec4(1.0f, 1.0f, 1.0f, 1.0f);  // no debug tint (0 would draw black)
    return push;
}

std::array<uint32_t, 2> materialSpecialization(uint32_t bin, uint32_t textureSlots) {
    std::array<uint32_t, 2> spec{};
    spec[gpu::SIEVE_MATERIAL_SPEC_TEXTURE_SLOTS] = textureSlots;
    spec[gpu::SIEVE_MATERIAL_SPEC_BIN] = bin;
    return spec;
}

void applyMaterialBin(GraphicsPipelineDesc& desc, uint32_t bin, const VkDescriptorSetLayout& textures,
                      std::span<const uint32_t> spec) {
    desc.fragmentShader = "geometry/material.frag";
    desc.pushConstantBytes = sizeof(gpu::MaterialPush);
    desc.extraSetLayouts = {&textures, 1};
    desc.specialization = spec;
    if (doubleSidedBin(bin)) desc.cullMode = VK_CULL_MODE_NONE;
    if (alphaModeOf(bin) == gpu::SIEVE_ALPHA_BLEND) {
        desc.depthWrite = false;  // blended surfaces neither occlude each other nor feed the Hi-Z
        desc.alphaBlend = true;
    }
}

gpu::MaterialPush makeMaterialPush(const float viewProj[16], const float lightDir[3], const float tint[4],
                                   uint32_t shadowCascades, uint32_t flags) {
    gpu::MaterialPush push{};
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) push.viewProj[c][r] = viewProj[c * 4 + r];
    push.lightDir = gpu::vec4(lightDir[0], lightDir[1], lightDir[2], float(shadowCascades));
    push.tint = gpu::vec4(tint[0], tint[1], tint[2], tint[3]);
    push.flags = flags;
    return push;
}

void setViewport(VkCommandBuffer cmd, const VkViewport* viewport, VkExtent2D extent) {
    if (!viewport) return setFullViewport(cmd, extent);
    const VkRect2D scissor{{0, 0}, extent};
    vkCmdSetViewport(cmd, 0, 1, viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
}

}  // namespace sieve::geometry
