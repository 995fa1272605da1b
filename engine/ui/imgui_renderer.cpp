#include "engine/ui/imgui_renderer.h"

#include <algorithm>
#include <cstring>

#include "engine/vk/context.h"
#include "shared/ui_push.h"
#include "sieve/barriers.h"

namespace engine::ui {

namespace {
static_assert(sizeof(ImDrawIdx) == 2, "the index type below assumes 16-bit ImGui indices");
}  // namespace

sieve::Result<std::unique_ptr<ImGuiRenderer>> ImGuiRenderer::create(Context& ctx, const ImGuiRendererDesc& desc) {
    if (!ImGui::GetCurrentContext())
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "ImGuiRenderer needs a current ImGui context");
    std::unique_ptr<ImGuiRenderer> r(new ImGuiRenderer(ctx, desc));
    r->slots_.resize(std::max(desc.framesInFlight, 1u));

    auto pipeline = r->createPipeline();
    if (!pipeline) return pipeline.error();
    r->pipeline_ = std::move(pipeline).value();

    VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sampler.magFilter = VK_FILTER_LINEAR;
    sampler.minFilter = VK_FILTER_LINEAR;
    sampler.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    sampler.addressModeU = sampler.addressModeV = sampler.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sampler.maxLod = VK_LOD_CLAMP_NONE;
    SIEVE_VK_TRY(vkCreateSampler(ctx.device(), &sampler, nullptr, &r->sampler_));
    sieve::setDebugName(ctx.info(), VK_OBJECT_TYPE_SAMPLER, r->sampler_, "imgui sampler");
    if (auto u = r->uploadFont(); !u) return u.error();
    return r;
}

sieve::Result<sieve::GraphicsPipeline> ImGuiRenderer::createPipeline() const {
    static const VkVertexInputBindingDescription kVertexBinding = {0, sizeof(ImDrawVert), VK_VERTEX_INPUT_RATE_VERTEX};
    static const VkVertexInputAttributeDescription kAttributes[] = {
        {0, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(ImDrawVert, pos)},
        {1, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(ImDrawVert, uv)},
        {2, 0, VK_FORMAT_R8G8B8A8_UNORM, offsetof(ImDrawVert, col)},
    };
    sieve::GraphicsPipelineDesc p;
    p.vertexShader = "ui/imgui.vert";
    p.fragmentShader = "ui/imgui.frag";
    p.pushConstantBytes = sizeof(sieve::gpu::ImGuiPush);
    p.vertexBindings = {&kVertexBinding, 1};
    p.vertexAttributes = kAttributes;
    p.colorFormat = desc_.colorFormat;
    p.alphaBlend = true;
    p.debugName = "imgui";
    return sieve::GraphicsPipeline::create(ctx_->info(), p);
}

ImGuiRenderer::~ImGuiRenderer() {
    if (sampler_) vkDestroySampler(ctx_->device(), sampler_, nullptr);
}

sieve::Result<void> ImGuiRenderer::uploadFont() {
    ImGuiIO& io = ImGui::GetIO();
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    if (!pixels || width <= 0 || height <= 0)
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "ImGui built no font atlas");
    ImageDesc desc;
    desc.format = VK_FORMAT_R8G8B8A8_UNORM;
    desc.extent = {uint32_t(width), uint32_t(height)};
    desc.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    desc.name = "imgui font atlas";
    auto font = Image::create(*ctx_, desc);
    if (!font) return font.error();
    font_ = std::move(font).value();

    const VkDeviceSize bytes = VkDeviceSize(width) * height * 4;
    auto staging = Buffer::create(*ctx_, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUsage::Upload, "font staging");
    if (!staging) return staging.error();
    std::memcpy(staging->mapped(), pixels, bytes);
    auto r = ctx_->submitNow([&](VkCommandBuffer cmd) {
        sieve::imageBarrier(cmd, font_.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                            VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        VkBufferImageCopy copy{};
        copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        copy.imageExtent = {uint32_t(width), uint32_t(height), 1};
        vkCmdCopyBufferToImage(cmd, staging->handle(), font_.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
        sieve::imageBarrier(cmd, font_.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                            VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                            VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                            VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    });
    if (!r) return r;
    io.Fonts->SetTexID(fontTexture());
    return {};
}

sieve::Result<void> ImGuiRenderer::ensureCapacity(uint32_t slot, size_t vertexBytes, size_t indexBytes) {
    SlotBuffers& s = slots_[slot];
    // Grow by half again so that a slowly growing overlay does not reallocate every frame.
    auto grow = [&](Buffer& b, size_t need, VkBufferUsageFlags usage, const char* name) -> sieve::Result<void> {
        if (b && b.size() >= need) return {};
        auto nb =
            Buffer::create(*ctx_, std::max<VkDeviceSize>(need + need / 2, 4096), usage, MemoryUsage::Upload, name);
        if (!nb) return nb.error();
        b = std::move(nb).value();  // the slot's previous frame has completed: the old buffer is idle
        return {};
    };
    if (auto r = grow(s.vertices, vertexBytes, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, "imgui vertices"); !r) return r;
    return grow(s.indices, indexBytes, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, "imgui indices");
}

void ImGuiRenderer::drawLists(VkCommandBuffer cmd, const ImDrawData* data, const SlotBuffers& s,
                              VkExtent2D extent) const {
    const ImVec2 pos = data->DisplayPos;
    const ImVec2 fbScale = data->FramebufferScale;
    sieve::gpu::ImGuiPush push{};
    push.scale.x = 2.0f / data->DisplaySize.x;
    push.scale.y = 2.0f / data->DisplaySize.y;
    push.translate.x = -1.0f - pos.x * push.scale.x;
    push.translate.y = -1.0f - pos.y * push.scale.y;

    ImTextureID bound = nullptr;
    VkBuffer vb = s.vertices.handle();
    VkDeviceSize zero = 0;
    auto bind = [&](ImTextureID tex) {
        pipeline_.bind(cmd,
                       {sieve::Binding::sampled(reinterpret_cast<VkImageView>(tex), sampler_,
                                                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)},
                       &push, sizeof(push));
        vkCmdBindVertexBuffers(cmd, 0, 1, &vb, &zero);
        vkCmdBindIndexBuffer(cmd, s.indices.handle(), 0, VK_INDEX_TYPE_UINT16);
        bound = tex;
    };

    uint32_t vertexBase = 0, indexBase = 0;
    for (int n = 0; n < data->CmdListsCount; ++n) {
        const ImDrawList* list = data->CmdLists[n];
        for (int c = 0; c < list->CmdBuffer.Size; ++c) {
            const ImDrawCmd& dc = list->CmdBuffer[c];
            if (dc.UserCallback) {
                if (dc.UserCallback == ImDrawCallback_ResetRenderState)
                    bound = nullptr;  // rebound before the next draw
                else
                    dc.UserCallback(list, &dc);
                continue;
            }
            // Clip rectangle in framebuffer pixels, clamped to the attachment.
            float x0 = std::max((dc.ClipRect.x - pos.x) * fbScale.x, 0.0f);
            float y0 = std::max((dc.ClipRect.y - pos.y) * fbScale.y, 0.0f);
            float x1 = std::min((dc.ClipRect.z - pos.x) * fbScale.x, float(extent.width));
            float y1 = std::min((dc.ClipRect.w - pos.y) * fbScale.y, float(extent.height));
            if (x1 <= x0 || y1 <= y0 || dc.ElemCount == 0) continue;
            ImTextureID tex = dc.GetTexID() ? dc.GetTexID() : fontTexture();
            if (tex != bound) bind(tex);
            VkRect2D scissor{{int32_t(x0), int32_t(y0)}, {uint32_t(x1 - int32_t(x0)), uint32_t(y1 - int32_t(y0))}};
            vkCmdSetScissor(cmd, 0, 1, &scissor);
            vkCmdDrawIndexed(cmd, dc.ElemCount, 1, indexBase + dc.IdxOffset, int32_t(vertexBase + dc.VtxOffset), 0);
        }
        vertexBase += uint32_t(list->VtxBuffer.Size);
        indexBase += uint32_t(list->IdxBuffer.Size);
    }
}

sieve::Result<void> ImGuiRenderer::record(VkCommandBuffer cmd, const ImDrawData* data, VkImageView colorView,
                                          VkExtent2D extent, uint32_t frameSlot) {
    if (frameSlot >= slots_.size())
        return sieve::makeError(VK_ERROR_UNKNOWN, "ImGuiRenderer::record: frame slot out of range");
    if (!data || data->TotalVtxCount == 0 || extent.width == 0 || extent.height == 0) return {};
    const size_t vertexBytes = size_t(data->TotalVtxCount) * sizeof(ImDrawVert);
    const size_t indexBytes = size_t(data->TotalIdxCount) * sizeof(ImDrawIdx);
    if (auto r = ensureCapacity(frameSlot, vertexBytes, indexBytes); !r) return r;
    SlotBuffers& s = slots_[frameSlot];
    auto* vdst = static_cast<ImDrawVert*>(s.vertices.mapped());
    auto* idst = static_cast<ImDrawIdx*>(s.indices.mapped());
    for (int n = 0; n < data->CmdListsCount; ++n) {
        const ImDrawList* list = data->CmdLists[n];
        std::memcpy(vdst, list->VtxBuffer.Data, size_t(list->VtxBuffer.Size) * sizeof(ImDrawVert));
        std::memcpy(idst, list->IdxBuffer.Data, size_t(list->IdxBuffer.Size) * sizeof(ImDrawIdx));
        vdst += list->VtxBuffer.Size;
        idst += list->IdxBuffer.Size;
    }
    // Host-coherent memory written before vkQueueSubmit is visible to the device without a barrier.

    sieve::ScopedLabel label(cmd, "imgui");
    const VkRenderingAttachmentInfo color = sieve::renderingAttachment(
        colorView, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE);
    sieve::beginRendering(cmd, extent, &color);
    sieve::setFullViewport(cmd, extent);  // each draw sets its own clip scissor
    drawLists(cmd, data, s, extent);
    vkCmdEndRendering(cmd);
    return {};
}

}  // namespace engine::ui
