#pragma once
// Our own Dear ImGui renderer for Vulkan. (imgui_impl_vulkan from libimgui.a calls Vulkan through the
// global prototypes, which do not exist in a VK_NO_PROTOTYPES + volk build.)
//
// Dynamic rendering on the target's colour image (LOAD_OP_LOAD: the overlay draws over the frame),
// a font atlas uploaded once, host-visible vertex/index buffers per frame in flight (grown as needed),
// scissor rectangles from ImGui's clip rects, and one push descriptor per texture change.
//
// Texture ids: an ImTextureID is a VkImageView in SHADER_READ_ONLY_OPTIMAL, sampled with a linear clamp
// sampler (textureId(view)); the font atlas is one of them. Whoever shows an image in the overlay keeps it
// alive and in that layout until the frame's fence has been waited for.
#include <imgui.h>
#include <volk.h>

#include <memory>
#include <vector>

#include "engine/vk/resources.h"
#include "sieve/graphics_pipeline.h"
#include "sieve/result.h"

namespace engine {
class Context;
}

namespace engine::ui {

struct ImGuiRendererDesc {
    VkFormat colorFormat = VK_FORMAT_R8G8B8A8_UNORM;  // format of the views record() draws into
    uint32_t framesInFlight = 2;
};

class ImGuiRenderer {
public:
    // Needs a current ImGui context: builds its font atlas and sets the atlas's texture id.
    static sieve::Result<std::unique_ptr<ImGuiRenderer>> create(Context& ctx, const ImGuiRendererDesc& desc);
    ~ImGuiRenderer();
    ImGuiRenderer(const ImGuiRenderer&) = delete;
    ImGuiRenderer& operator=(const ImGuiRenderer&) = delete;

    // Records `data` (from ImGui::GetDrawData()) into colorView, which must be in
    // COLOR_ATTACHMENT_OPTIMAL with prior writes visible to COLOR_ATTACHMENT_OUTPUT. Uses the buffers of
    // frame slot `frameSlot`, whose previous frame must have completed (Target::beginFrame waited for it).
    // The image stays in COLOR_ATTACHMENT_OPTIMAL; its last use is a COLOR_ATTACHMENT_OUTPUT write.
    sieve::Result<void> record(VkCommandBuffer cmd, const ImDrawData* data, VkImageView colorView, VkExtent2D extent,
                               uint32_t frameSlot);

    static ImTextureID textureId(VkImageView view) { return reinterpret_cast<ImTextureID>(view); }
    ImTextureID fontTexture() const { return textureId(font_.view()); }
    VkFormat colorFormat() const { return desc_.colorFormat; }

    // Shader hot reload, in two steps so that a host can build every new pipeline before it replaces any.
    // Replace only when no frame that used the old pipeline is in flight.
    sieve::Result<sieve::GraphicsPipeline> createPipeline() const;
    void replacePipeline(sieve::GraphicsPipeline pipeline) { pipeline_ = std::move(pipeline); }

private:
    explicit ImGuiRenderer(Context& ctx, const ImGuiRendererDesc& desc) : ctx_(&ctx), desc_(desc) {}
    sieve::Result<void> uploadFont();
    sieve::Result<void> ensureCapacity(uint32_t slot, size_t vertexBytes, size_t indexBytes);

    struct SlotBuffers {
        Buffer vertices;
        Buffer indices;
    };
    // Every command of `data`, clipped to `extent`, from the vertices and indices copied into `s`.
    void drawLists(VkCommandBuffer cmd, const ImDrawData* data, const SlotBuffers& s, VkExtent2D extent) const;
    Context* ctx_;
    ImGuiRendererDesc desc_;
    sieve::GraphicsPipeline pipeline_;
    VkSampler sampler_ = VK_NULL_HANDLE;
    Image font_;
    std::vector<SlotBuffers> slots_;
};

}  // namespace engine::ui
