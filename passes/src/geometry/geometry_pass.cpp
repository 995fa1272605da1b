#include "sieve/geometry_pass.h"

#include "core/vk.h"
#include "geometry/rendering.h"
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
    GraphicsPipelineDesc desc = geometry::defaultPassDesc(colorFormat, depthFormat, options);
    desc.vertexShader = "geometry/mesh.vert";
    desc.vertexBindings = {&binding, 1};
    desc.vertexAttributes = attributes;
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
    gpu::GeometryPush push = geometry::makePush(viewProj, lightDir);
    push.tint = gpu::vec4(in.tint[0], in.tint[1], in.tint[2], in.tint[3]);
    push.options = gpu::uvec4(in.tintByLod ? 1u : 0u, 0u, 0u, 0u);
    impl_->pipeline.bind(cmd, {Binding::storage(in.instances), Binding::storage(in.draws)}, &push, sizeof(push));
    geometry::setViewport(cmd, in.viewport, extent);
    vkCmdBindVertexBuffers(cmd, 0, 1, &in.vertices.buffer, &in.vertices.offset);
    vkCmdBindIndexBuffer(cmd, in.indices.buffer, in.indices.offset, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexedIndirectCount(cmd, in.draws.buffer, in.draws.offset, in.counts.buffer, in.counts.offset,
                                  in.maxDraws, gpu::SIEVE_DRAW_STRIDE);
}

void GeometryPass::recordWithRendering(VkCommandBuffer cmd, const GeometryInputs& in,
                                       const GeometryAttachments& attachments, VkExtent2D extent,
                                       const float viewProj[16]) const {
    geometry::beginRendering(cmd, attachments, extent, impl_->options.reverseZ);
    record(cmd, in, extent, viewProj, kDefaultLightDir);
    vkCmdEndRendering(cmd);
}

}  // namespace sieve
