#include "engine/ui/cull_debug_pass.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "engine/vk/context.h"
#include "shared/ui_push.h"
#include "sieve/cull_tests.h"

namespace engine::ui {

sieve::Result<std::unique_ptr<CullDebugPass>> CullDebugPass::create(Context& ctx, VkFormat colorFormat) {
    std::unique_ptr<CullDebugPass> p(new CullDebugPass(ctx, colorFormat));
    if (auto ok = sieve::take(p->createPipelines(), p->pipelines_); !ok) return ok.error();
    return p;
}

sieve::Result<CullDebugPass::Pipelines> CullDebugPass::createPipelines() const {
    sieve::GraphicsPipelineDesc d;
    d.fragmentShader = "ui/debug_line.frag";
    d.colorFormat = format_;
    d.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    d.vertexShader = "ui/cull_bounds.vert";
    d.pushConstantBytes = sizeof(sieve::gpu::CullBoundsPush);
    d.debugName = "debug culled bounds";
    auto bounds = sieve::GraphicsPipeline::create(ctx_.info(), d);
    if (!bounds) return bounds.error();
    d.vertexShader = "ui/frustum_lines.vert";
    d.pushConstantBytes = sizeof(sieve::gpu::FrustumLinesPush);
    d.debugName = "debug frozen frustum";
    auto frustum = sieve::GraphicsPipeline::create(ctx_.info(), d);
    if (!frustum) return frustum.error();
    return Pipelines{std::move(bounds).value(), std::move(frustum).value()};
}

void CullDebugPass::addTo(graph::GraphBuilder& g, graph::SlotId color, graph::SlotId bounds, graph::SlotId state,
                          VkExtent2D extent) {
    color_ = color;
    bounds_ = bounds;
    state_ = state;
    extent_ = extent;
    sieve::PassDesc pass;
    pass.name = "debug.culling";
    pass.graphics = true;
    using namespace sieve::use;
    pass.uses = {colorAttachmentWrite(color), storageRead(bounds, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT),
                 storageRead(state, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT)};
    g.addPass(std::move(pass),
              [this](VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo&) { record(cmd, b); });
}

std::array<glm::vec4, 8> CullDebugPass::frustumCorners(const FrozenCamera& camera, float nearDepth, float farDepth) {
    const glm::mat4 inv = glm::inverse(camera.projection * camera.view);
    // NDC depth of a point d in front of the eye (right-handed view space: the camera looks down -Z),
    // which serves any depth convention, finite or infinite far plane.
    const auto ndcDepth = [&](float d) {
        const glm::vec4 p = camera.projection * glm::vec4(0.0f, 0.0f, -d, 1.0f);
        return p.z / p.w;
    };
    const float zs[2] = {ndcDepth(nearDepth), ndcDepth(farDepth)};
    const float xs[4] = {-1, 1, 1, -1}, ys[4] = {-1, -1, 1, 1};
    std::array<glm::vec4, 8> out;
    for (int face = 0; face < 2; ++face)
        for (int i = 0; i < 4; ++i) {
            const glm::vec4 p = inv * glm::vec4(xs[i], ys[i], zs[face], 1.0f);
            out[face * 4 + i] = p / p.w;
        }
    return out;
}

// The picked instance's sphere: the bounds pipeline over that one instance, every state drawn in one colour.
void CullDebugPass::recordPicked(VkCommandBuffer cmd, const sieve::Bindings& b) {
    sieve::gpu::CullBoundsPush push{};
    push.viewProj = sieve::gpu::mat4(frame_.viewProj);
    push.instanceCount = frame_.instanceCount;
    for (uint32_t& c : push.stateColour) c = kPickedColour;
    pipelines_.bounds.bind(cmd,
                           {sieve::Binding::storage({b[bounds_].buffer, b[bounds_].offset, VK_WHOLE_SIZE}),
                            sieve::Binding::storage({b[state_].buffer, b[state_].offset, VK_WHOLE_SIZE})},
                           &push, sizeof(push));
    vkCmdDraw(cmd, sieve::gpu::SIEVE_BOUNDS_VERTICES, 1, 0, *frame_.picked);
}

void CullDebugPass::record(VkCommandBuffer cmd, const sieve::Bindings& b) {
    const bool picked = frame_.picked && *frame_.picked < frame_.instanceCount;
    if (!frame_.bounds && !frame_.frustum && !picked) return;
    const VkRenderingAttachmentInfo color =
        sieve::renderingAttachment(b[color_].view, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_ATTACHMENT_LOAD_OP_LOAD,
                                   VK_ATTACHMENT_STORE_OP_STORE);
    sieve::beginRendering(cmd, extent_, &color);
    sieve::setFullViewport(cmd, extent_);
    if (frame_.bounds && frame_.instanceCount) {
        sieve::gpu::CullBoundsPush push{};
        push.viewProj = sieve::gpu::mat4(frame_.viewProj);
        push.instanceCount = frame_.instanceCount;
        for (const sieve::CullTest& test : sieve::kCullTests) {
            uint32_t rgba = 0xFF000000u;
            for (int c = 0; c < 3; ++c)
                rgba |= uint32_t(std::lround(std::clamp(test.colour[c], 0.0f, 1.0f) * 255.0f)) << (8 * c);
            push.stateColour[test.state] = rgba;
        }
        pipelines_.bounds.bind(cmd,
                               {sieve::Binding::storage({b[bounds_].buffer, b[bounds_].offset, VK_WHOLE_SIZE}),
                                sieve::Binding::storage({b[state_].buffer, b[state_].offset, VK_WHOLE_SIZE})},
                               &push, sizeof(push));
        vkCmdDraw(cmd, sieve::gpu::SIEVE_BOUNDS_VERTICES, frame_.instanceCount, 0, 0);
    }
    if (picked) recordPicked(cmd, b);
    if (frame_.frustum) {
        sieve::gpu::FrustumLinesPush push{};
        const std::array<glm::vec4, 8> corners = frustumCorners(*frame_.frustum, frame_.frustumNear, frame_.frustumFar);
        for (int i = 0; i < 8; ++i) push.corners[i] = sieve::gpu::vec4(frame_.viewProj * corners[i]);
        pipelines_.frustum.bind(cmd, {}, &push, sizeof(push));
        vkCmdDraw(cmd, 24, 1, 0, 0);
    }
    vkCmdEndRendering(cmd);
}

}  // namespace engine::ui
