#include "engine/ui/imgui_layer.h"

#include <backends/imgui_impl_glfw.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>

namespace engine::ui {

sieve::Result<std::unique_ptr<ImGuiLayer>> ImGuiLayer::create(Context& ctx, const ImGuiLayerDesc& desc) {
    IMGUI_CHECKVERSION();
    std::unique_ptr<ImGuiLayer> layer(new ImGuiLayer());
    layer->context_ = ImGui::CreateContext();
    ImGui::SetCurrentContext(layer->context_);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini next to wherever the program was started
    io.BackendRendererName = "sieve_vulkan";
    io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
    ImGui::StyleColorsDark();
    ImGui::GetStyle().WindowRounding = 3.0f;
    layer->baseStyle_ = ImGui::GetStyle();
    layer->window_ = desc.window;
    if (desc.window) {
        if (!ImGui_ImplGlfw_InitForVulkan(desc.window, true))
            return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "ImGui_ImplGlfw_InitForVulkan failed");
        layer->glfw_ = true;
    }
    auto renderer = ImGuiRenderer::create(ctx, {desc.colorFormat, desc.framesInFlight});
    if (!renderer) return renderer.error();
    layer->renderer_ = std::move(renderer).value();
    return layer;
}

ImGuiLayer::~ImGuiLayer() {
    renderer_.reset();
    if (glfw_) ImGui_ImplGlfw_Shutdown();
    if (context_) ImGui::DestroyContext(context_);
}

float ImGuiLayer::contentScale() const {
    if (!window_) return 1.0f;
    float x = 1.0f, y = 1.0f;
    glfwGetWindowContentScale(window_, &x, &y);
    return std::clamp(std::max(x, y), 0.5f, 4.0f);
}

void ImGuiLayer::newFrame(VkExtent2D extent, float dtSeconds, float fit) {
    ImGuiIO& io = ImGui::GetIO();
    const float scale = contentScale() * std::clamp(fit, 0.25f, 1.0f);
    if (scale != scale_) {  // ScaleAllSizes compounds: start from the unscaled style each time
        ImGui::GetStyle() = baseStyle_;
        ImGui::GetStyle().ScaleAllSizes(scale);
        scale_ = scale;
    }
    io.FontGlobalScale = scale;
    if (glfw_) {
        ImGui_ImplGlfw_NewFrame();  // display size, framebuffer scale, time and input from the window
    } else {
        io.DisplaySize = ImVec2(float(extent.width), float(extent.height));
        io.DisplayFramebufferScale = ImVec2(1, 1);
        io.DeltaTime = dtSeconds > 0 ? dtSeconds : 1.0f / 60.0f;
    }
    ImGui::NewFrame();
}

sieve::Result<void> ImGuiLayer::render(VkCommandBuffer cmd, VkImageView colorView, VkExtent2D extent,
                                       uint32_t frameSlot) {
    ImGui::Render();
    return renderer_->record(cmd, ImGui::GetDrawData(), colorView, extent, frameSlot);
}

}  // namespace engine::ui
