#pragma once
// The ImGui context of a host: creates it, hooks GLFW input when there is a window (imgui_impl_glfw from
// libimgui.a; it touches no Vulkan), owns our Vulkan renderer, and turns a frame's widgets into commands.
//
//   layer.newFrame(extent, dt);  ... ImGui widgets ...;  layer.render(cmd, view, extent, slot);
#include <imgui.h>
#include <volk.h>

#include <memory>

#include "engine/ui/imgui_renderer.h"
#include "sieve/result.h"

struct GLFWwindow;

namespace engine::ui {

struct ImGuiLayerDesc {
    VkFormat colorFormat = VK_FORMAT_R8G8B8A8_UNORM;
    uint32_t framesInFlight = 2;
    GLFWwindow* window = nullptr;  // nullptr: headless (no input; display size set by newFrame)
};

class ImGuiLayer {
public:
    static sieve::Result<std::unique_ptr<ImGuiLayer>> create(Context& ctx, const ImGuiLayerDesc& desc);
    ~ImGuiLayer();
    ImGuiLayer(const ImGuiLayer&) = delete;
    ImGuiLayer& operator=(const ImGuiLayer&) = delete;

    // Starts an ImGui frame for a framebuffer of `extent` pixels; dtSeconds <= 0 uses 1/60. Text and
    // style sizes are scaled by the window's content scale (1 headless) times `fit` (the overlay's own
    // shrink factor, OverlayModel::fitScale).
    void newFrame(VkExtent2D extent, float dtSeconds, float fit = 1.0f);
    float contentScale() const;
    // Ends the ImGui frame begun by newFrame without drawing it (a layout pass whose result is dropped).
    void discardFrame() { ImGui::EndFrame(); }
    // Ends the ImGui frame and records it over colorView (see ImGuiRenderer::record for the layout contract).
    sieve::Result<void> render(VkCommandBuffer cmd, VkImageView colorView, VkExtent2D extent, uint32_t frameSlot);

    bool wantsMouse() const { return ImGui::GetIO().WantCaptureMouse; }
    bool wantsKeyboard() const { return ImGui::GetIO().WantCaptureKeyboard; }
    ImGuiRenderer& renderer() { return *renderer_; }

private:
    ImGuiLayer() = default;
    ImGuiContext* context_ = nullptr;
    bool glfw_ = false;
    GLFWwindow* window_ = nullptr;
    ImGuiStyle baseStyle_;  // unscaled
    float scale_ = 1.0f;    // applied to the style
    std::unique_ptr<ImGuiRenderer> renderer_;
};

}  // namespace engine::ui
