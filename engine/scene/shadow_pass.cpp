#include "engine/scene/shadow_pass.h"

#include <algorithm>
#include <cmath>

#include "engine/target/target.h"
#include "shared/geometry_push.h"
#include "shared/scene.h"
#include "sieve/geometry_pass.h"

namespace engine {

sieve::Result<std::unique_ptr<ShadowPass>> ShadowPass::create(Context& ctx, uint32_t cascades, uint32_t mapSize) {
    if (cascades == 0 || cascades > sieve::gpu::SIEVE_MAX_CASCADES || mapSize == 0)
        return sieve::makeError(
            VK_ERROR_INITIALIZATION_FAILED,
            "shadows: " + std::to_string(cascades) + " cascades (1..4) of " + std::to_string(mapSize) + " texels");
    auto pipeline = createPipeline(ctx);
    if (!pipeline) return pipeline.error();
    std::unique_ptr<ShadowPass> p(new ShadowPass());
    p->pipeline_ = std::move(pipeline).value();
    p->dev_ = &ctx.info();
    p->count_ = cascades;
    p->mapSize_ = mapSize;
    return p;
}

sieve::Result<sieve::GraphicsPipeline> ShadowPass::createPipeline(Context& ctx) {
    const VkVertexInputBindingDescription binding{0, sizeof(sieve::gpu::Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
    const VkVertexInputAttributeDescription attributes[] = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(sieve::gpu::Vertex, px)},
        {1, 0, VK_FORMAT_R32_UINT, offsetof(sieve::gpu::Vertex, normal)}};
    sieve::GraphicsPipelineDesc desc;
    desc.vertexShader = "geometry/mesh.vert";  // the same positions as the camera's pass
    desc.fragmentShader = "geometry/shadow_depth.frag";
    desc.pushConstantBytes = sizeof(sieve::gpu::GeometryPush);
    desc.vertexBindings = {&binding, 1};
    desc.vertexAttributes = attributes;
    desc.depthFormat = kDepthFormat;
    desc.depthTest = true;
    desc.depthWrite = true;
    desc.depthCompare = VK_COMPARE_OP_GREATER_OR_EQUAL;  // reverse Z: larger = nearer the light
    desc.cullMode = VK_CULL_MODE_NONE;                   // both faces cast
    desc.debugName = "shadow depth";
    return sieve::GraphicsPipeline::create(ctx.info(), desc);
}

void ShadowPass::update(const glm::mat4& view, const glm::mat4& proj, glm::vec3 sceneMin, glm::vec3 sceneMax) {
    // perspectiveReverseZ: P[0][0] = f / aspect, P[1][1] = -f, P[3][2] = znear, f = 1 / tan(fovY / 2).
    CascadeSetup s;
    s.fovY = 2.0f * std::atan(1.0f / std::abs(proj[1][1]));
    s.aspect = std::abs(proj[1][1]) / proj[0][0];
    s.znear = proj[3][2];
    s.maxDistance = 200.0f;
    s.count = count_;
    s.mapExtent = {mapSize_, mapSize_};
    s.sceneMin = sceneMin;
    s.sceneMax = sceneMax;
    fitted_ = fitCascades(view, s);
    views_.clear();
    header_ = {};
    for (uint32_t k = 0; k < fitted_.size(); ++k) {
        const Cascade& c = fitted_[k];
        views_.push_back(cascadeView(c, k, s.mapExtent));
        const glm::mat4 vp = c.proj * c.view;
        for (int col = 0; col < 4; ++col)
            for (int r = 0; r < 4; ++r) header_.lightViewProj[k][col][r] = vp[col][r];
        header_.splitFar[k] = c.splitFar;
        // Two texels of the cascade plus a little, in depth units (depth = (far - d) / (far - near)).
        const float texel = 2.0f / (c.proj[0][0] * float(mapSize_));
        header_.bias[k] = (2.0f * texel + 0.05f) * c.proj[2][2];
    }
    // The camera looks down -Z: distance d = -z_view.
    header_.cameraForward = sieve::gpu::vec4(-view[0][2], -view[1][2], -view[2][2], -view[3][2]);
    header_.count = count_;
    header_.mapSize = mapSize_;
}

graph::SlotId ShadowPass::addTo(graph::GraphBuilder& g, const Slots& s, const sieve::CullingPlugin& plugin,
                                uint32_t firstView) {
    slots_ = s;
    streams_.clear();
    bins_ = plugin.config().binCount;
    for (uint32_t k = 0; k < count_; ++k)
        for (uint32_t bin = 0; bin < bins_; ++bin) streams_.push_back(plugin.stream(firstView + k, bin));
    sieve::SlotDesc atlas;
    atlas.name = "shadow.atlas";
    atlas.kind = sieve::SlotKind::Image;
    atlas.lifetime = sieve::Lifetime::Transient;
    atlas.format = kDepthFormat;
    atlas.extent = {mapSize_ * count_, mapSize_};
    atlas.imageUsage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    atlas_ = g.addSlot(atlas);
    sieve::SlotDesc buffer;
    buffer.name = "shadow.buffer";
    buffer.lifetime = sieve::Lifetime::Transient;
    buffer.size = sizeof(sieve::gpu::ShadowCascades) + VkDeviceSize(mapSize_) * mapSize_ * count_ * 4;
    buffer.bufferUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    buffer_ = g.addSlot(buffer);
    using namespace sieve::use;
    sieve::PassDesc draw;
    draw.name = "shadow.draw";
    draw.graphics = true;
    draw.uses = {depthAttachmentWrite(atlas_),
                 indirectRead(s.drawsEarly),
                 indirectRead(s.countsEarly),
                 storageRead(s.drawsEarly, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT),
                 storageRead(s.instances, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT),
                 vertexRead(s.vertices),
                 vertexRead(s.indices)};
    g.addPass(std::move(draw),
              [this](VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo&) { recordDraw(cmd, b); });
    sieve::PassDesc copy;
    copy.name = "shadow.copy";
    sieve::ResourceUse atlasRead;
    atlasRead.slot = atlas_;
    atlasRead.stage = VK_PIPELINE_STAGE_2_COPY_BIT;
    atlasRead.access = VK_ACCESS_2_TRANSFER_READ_BIT;
    atlasRead.layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    atlasRead.range = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
    copy.uses = {atlasRead, transferWrite(buffer_)};
    g.addPass(std::move(copy),
              [this](VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo&) { recordCopy(cmd, b); });
    return buffer_;
}

void ShadowPass::recordDraw(VkCommandBuffer cmd, const sieve::Bindings& b) const {
    // Cleared to 0: farthest (reverse Z).
    const VkRenderingAttachmentInfo depth =
        sieve::renderingAttachment(b[atlas_].view, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                                   VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
    sieve::beginRendering(cmd, {mapSize_ * count_, mapSize_}, nullptr, &depth);
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &b[slots_.vertices].buffer, &offset);
    vkCmdBindIndexBuffer(cmd, b[slots_.indices].buffer, 0, VK_INDEX_TYPE_UINT32);
    for (uint32_t i = 0; i < streams_.size(); ++i) {
        const uint32_t k = i / bins_;  // every bin of cascade k casts
        const sieve::StreamRange& s = streams_[i];
        if (k >= fitted_.size() || !s.maxDraws) continue;
        const VkViewport vp{float(k * mapSize_), 0.0f, float(mapSize_), float(mapSize_), 0.0f, 1.0f};
        const VkRect2D scissor{{int32_t(k * mapSize_), 0}, {mapSize_, mapSize_}};
        vkCmdSetViewport(cmd, 0, 1, &vp);
        vkCmdSetScissor(cmd, 0, 1, &scissor);
        sieve::gpu::GeometryPush push{};
        push.viewProj = header_.lightViewProj[k];
        const sieve::BufferRange draws{b[slots_.drawsEarly].buffer, b[slots_.drawsEarly].offset + s.drawOffset,
                                       VkDeviceSize(s.maxDraws) * sieve::gpu::SIEVE_DRAW_STRIDE};
        const sieve::BufferRange instances{b[slots_.instances].buffer, 0, VK_WHOLE_SIZE};
        pipeline_.bind(cmd, {sieve::Binding::storage(instances), sieve::Binding::storage(draws)}, &push, sizeof(push));
        sieve::drawStream(cmd, *dev_, draws,
                          {b[slots_.countsEarly].buffer, b[slots_.countsEarly].offset + s.countOffset,
                           sizeof(sieve::gpu::DrawCounts)},
                          s.maxDraws);
    }
    vkCmdEndRendering(cmd);
}

void ShadowPass::recordCopy(VkCommandBuffer cmd, const sieve::Bindings& b) const {
    vkCmdUpdateBuffer(cmd, b[buffer_].buffer, b[buffer_].offset, sizeof(header_), &header_);
    VkBufferImageCopy region{};
    region.bufferOffset = b[buffer_].offset + sizeof(header_);
    region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
    region.imageExtent = {mapSize_ * count_, mapSize_, 1};
    vkCmdCopyImageToBuffer(cmd, b[atlas_].image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b[buffer_].buffer, 1, &region);
}

}  // namespace engine
