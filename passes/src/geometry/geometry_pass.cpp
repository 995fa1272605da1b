#include "sieve/geometry_pass.h"

#include "core/vk.h"
#include "shared/draw.h"
#include "shared/geometry_push.h"
#include "shared/scene.h"
#include "sieve/graphics_pipeline.h"

namespace sieve {

struct GeometryPass::Impl {
    GraphicsPipeline pipeline;
    GeometryOptions options;
};

GeometryPass::GeometryPass(GeometryPass&&) noexcept = default;
GeometryPass& GeometryPass::operator=(GeometryPass&&) noexcept = default;
GeometryPass::~GeometryPass() = default;

Result<GeometryPass> GeometryPass::create(const DeviceInfo& dev, VkFormat colorFormat, VkFormat depthFormat,
                                          const GeometryOptions& options) {
    if (const std::string m = dev.missing(kGeometryNeeds); !m.empty())
        return makeError(VK_ERROR_FEATURE_NOT_PRESENT, "GeometryPass: the device was created without " + m +
                                                           " (sieve::requirements() lists what to enable)");
    const VkVertexInputBindingDescription binding{0, sizeof(gpu::Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
    const VkVertexInputAttributeDescription attributes[] = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(gpu::Vertex, px)},
        {1, 0, VK_FORMAT_R32_UINT, offsetof(gpu::Vertex, normal)}};
    GraphicsPipelineDesc desc;
    desc.vertexShader = "geometry/mesh.vert";
    desc.fragmentShader = "geometry/mesh.frag";
    desc.pushConstantBytes = sizeof(gpu::GeometryPush);
    desc.vertexBindings = {&binding, 1};
    desc.vertexAttributes = attributes;
    desc.colorFormat = colorFormat;
    desc.depthFormat = depthFormat;
    desc.depthTest = true;
    desc.depthWrite = true;
    desc.depthCompare = options.reverseZ ? VK_COMPARE_OP_GREATER_OR_EQUAL : VK_COMPARE_OP_LESS_OR_EQUAL;
    desc.cullMode = options.cullMode;
    // Meshes are counter-clockwise seen from outside; whether that stays so on screen depends on the
    // host's projection and viewport (a Y flip in either mirrors it), so the host says.
    desc.frontFace = options.frontFace;
    desc.debugName = "geometry";
    auto pipeline = GraphicsPipeline::create(dev, desc);
    if (!pipeline) return pipeline.error();
    GeometryPass pass;
    pass.impl_ = std::make_unique<Impl>(Impl{std::move(pipeline).value(), options});
    return pass;
}

void GeometryPass::record(VkCommandBuffer cmd, const GeometryInputs& in, VkExtent2D extent, const float viewProj[16],
                          const float lightDir[3]) const {
    if (!in.maxDraws) return;
    gpu::GeometryPush push{};
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) push.viewProj[c][r] = viewProj[c * 4 + r];
    push.lightDir = gpu::vec4(lightDir[0], lightDir[1], lightDir[2], float(in.shadowCascades));
    // Without shadows the shadow binding is never read: any valid buffer will do.
    const BufferRange shadow = in.shadowCascades ? in.shadow : in.instances;
    impl_->pipeline.bind(cmd, {Binding::storage(in.instances), Binding::storage(in.draws), Binding::storage(shadow)},
                         &push, sizeof(push));
    const VkViewport viewport =
        in.viewport ? *in.viewport : VkViewport{0.0f, 0.0f, float(extent.width), float(extent.height), 0.0f, 1.0f};
    VkRect2D scissor{{0, 0}, extent};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    vkCmdBindVertexBuffers(cmd, 0, 1, &in.vertices.buffer, &in.vertices.offset);
    vkCmdBindIndexBuffer(cmd, in.indices.buffer, in.indices.offset, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexedIndirectCount(cmd, in.draws.buffer, in.draws.offset, in.counts.buffer, in.counts.offset,
                                  in.maxDraws, gpu::SIEVE_DRAW_STRIDE);
}

void GeometryPass::recordWithRendering(VkCommandBuffer cmd, const GeometryInputs& in,
                                       const GeometryAttachments& attachments, VkExtent2D extent,
                                       const float viewProj[16]) const {
    const VkAttachmentLoadOp load = attachments.clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = attachments.color;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = load;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.clearValue.color = {{0.53f, 0.68f, 0.85f, 1.0f}};
    VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    depth.imageView = attachments.depth;
    depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    depth.loadOp = load;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    depth.clearValue.depthStencil = {impl_->options.reverseZ ? 0.0f : 1.0f, 0};  // the far depth
    VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
    info.renderArea = {{0, 0}, extent};
    info.layerCount = 1;
    info.colorAttachmentCount = 1;
    info.pColorAttachments = &color;
    info.pDepthAttachment = &depth;
    vkCmdBeginRendering(cmd, &info);
    record(cmd, in, extent, viewProj, kDefaultLightDir);
    vkCmdEndRendering(cmd);
}

}  // namespace sieve
