#pragma once
// Window target: a VkSurfaceKHR on a GLFW window and a FIFO swapchain. The swapchain is recreated when the
// window is resized or presentation reports OUT_OF_DATE / SUBOPTIMAL; while the window is iconified or
// its framebuffer is 0x0 (minimized) beginFrame waits for window events and returns a skipped frame.
//
// Semaphores: one "image acquired" semaphore per frame slot (the slot's fence proves the submission that
// waited on it has completed), one "render finished" semaphore per swapchain image (presentation of that
// image has consumed it by the time the image is acquired again).
#include <memory>
#include <vector>

#include "engine/target/glfw_window.h"
#include "engine/target/target.h"

namespace engine {

struct WindowTargetDesc {
    uint32_t framesInFlight = 2;
};

class WindowTarget final : public Target {
public:
    // The context must have been created with the window's instance extensions and swapchain = true.
    static sieve::Result<std::unique_ptr<WindowTarget>> create(Context& ctx, GlfwWindow& window,
                                                               const WindowTargetDesc& desc = {});
    ~WindowTarget() override;

    VkExtent2D extent() const override { return extent_; }
    VkFormat colorFormat() const override { return format_; }
    uint32_t swapchainImageCount() const { return uint32_t(images_.size()); }
    uint32_t recreateCount() const { return recreateCount_; }  // how often the swapchain was rebuilt
    bool iconified() const { return iconified_; }              // at the last beginFrame

protected:
    sieve::Result<Acquired> acquire(uint32_t slot) override;
    VkImageLayout finalColorLayout() const override { return VK_IMAGE_LAYOUT_PRESENT_SRC_KHR; }
    sieve::Result<void> present(uint32_t slot) override;

private:
    WindowTarget(Context& ctx, GlfwWindow& window, const WindowTargetDesc& desc)
        : Target(ctx, desc.framesInFlight), window_(&window) {}
    VkExtent2D framebufferSize() const;
    // Waits for the queue to drain (resize only, never in a steady frame loop) and rebuilds the swapchain,
    // its views and semaphores, and the depth images. Sets extent_ to 0x0 when the surface has no area.
    sieve::Result<void> recreate();
    void destroySwapchainObjects();

    GlfwWindow* window_;
    VkSurfaceKHR surface_ = VK_NULL_HANDLE;
    VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
    VkFormat format_ = VK_FORMAT_UNDEFINED;
    VkColorSpaceKHR colorSpace_ = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    VkExtent2D extent_{0, 0};
    std::vector<VkImage> images_;
    std::vector<VkImageView> views_;
    std::vector<VkSemaphore> renderFinished_;  // per swapchain image
    uint32_t imageIndex_ = 0;
    bool needRecreate_ = false;
    bool iconified_ = false;
    uint32_t recreateCount_ = 0;
};

}  // namespace engine
