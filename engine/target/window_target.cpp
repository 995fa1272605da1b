#include "engine/target/window_target.h"

#include <volk.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>

#include "engine/vk/context.h"

namespace engine {

namespace {

// The swapchain of `extent` with images of `usage` on a surface of capabilities `caps`: FIFO, opaque where
// the surface allows it, at least three images, replacing `old`.
VkSwapchainCreateInfoKHR swapchainInfo(VkSurfaceKHR surface, const VkSurfaceCapabilitiesKHR& caps, VkFormat format,
                                       VkColorSpaceKHR colorSpace, VkExtent2D extent, VkImageUsageFlags usage,
                                       VkSwapchainKHR old) {
    uint32_t imageCount = std::max(caps.minImageCount + 1, 3u);
    if (caps.maxImageCount) imageCount = std::min(imageCount, caps.maxImageCount);
    VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    info.surface = surface;
    info.minImageCount = imageCount;
    info.imageFormat = format;
    info.imageColorSpace = colorSpace;
    info.imageExtent = extent;
    info.imageArrayLayers = 1;
    info.imageUsage = usage;
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = caps.currentTransform;
    info.compositeAlpha =
        (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR)
            ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
            : VkCompositeAlphaFlagBitsKHR(caps.supportedCompositeAlpha & -int32_t(caps.supportedCompositeAlpha));
    info.presentMode = VK_PRESENT_MODE_FIFO_KHR;  // always supported; paces the loop to the display
    info.clipped = VK_TRUE;
    info.oldSwapchain = old;
    return info;
}

}  // namespace

sieve::Result<std::unique_ptr<WindowTarget>> WindowTarget::create(Context& ctx, GlfwWindow& window,
                                                                  const WindowTargetDesc& desc) {
    std::unique_ptr<WindowTarget> t(new WindowTarget(ctx, window, desc));
    SIEVE_VK_TRY(glfwCreateWindowSurface(ctx.instance(), window.handle(), nullptr, &t->surface_));
    VkBool32 supported = VK_FALSE;
    SIEVE_VK_TRY(vkGetPhysicalDeviceSurfaceSupportKHR(ctx.physical(), ctx.queueFamily(), t->surface_, &supported));
    if (!supported)
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "the graphics queue cannot present to this window");

    uint32_t count = 0;
    SIEVE_VK_TRY(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physical(), t->surface_, &count, nullptr));
    std::vector<VkSurfaceFormatKHR> formats(count);
    SIEVE_VK_TRY(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physical(), t->surface_, &count, formats.data()));
    // UNORM, like the headless target, so that screenshots and ImGui colours match between the two.
    for (VkFormat want : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM})
        for (const auto& f : formats)
            if (t->format_ == VK_FORMAT_UNDEFINED && f.format == want &&
                f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) {
                t->format_ = f.format;
                t->colorSpace_ = f.colorSpace;
            }
    if (t->format_ == VK_FORMAT_UNDEFINED)
        return sieve::makeError(VK_ERROR_FORMAT_NOT_SUPPORTED, "the surface offers no 8-bit UNORM BGRA/RGBA format");

    if (auto r = t->createSlots(); !r) return r.error();
    if (auto r = t->recreate(); !r) return r.error();
    glfwSetWindowUserPointer(window.handle(), t.get());
    glfwSetFramebufferSizeCallback(window.handle(), [](GLFWwindow* w, int, int) {
        if (auto* self = static_cast<WindowTarget*>(glfwGetWindowUserPointer(w))) self->needRecreate_ = true;
    });
    return t;
}

WindowTarget::~WindowTarget() {
    if (window_) {
        glfwSetFramebufferSizeCallback(window_->handle(), nullptr);
        glfwSetWindowUserPointer(window_->handle(), nullptr);
    }
    (void)finish();
    // Presentation may still hold the render-finished semaphores; without VK_EXT_swapchain_maintenance1 a
    // queue drain is the only way to know it is done. Teardown only.
    vkQueueWaitIdle(ctx_->queue());
    destroySwapchainObjects();
    if (swapchain_) vkDestroySwapchainKHR(ctx_->device(), swapchain_, nullptr);
    if (surface_) vkDestroySurfaceKHR(ctx_->instance(), surface_, nullptr);
}

VkExtent2D WindowTarget::framebufferSize() const {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_->handle(), &w, &h);
    return {uint32_t(std::max(w, 0)), uint32_t(std::max(h, 0))};
}

void WindowTarget::destroySwapchainObjects() {
    VkDevice device = ctx_->device();
    for (VkImageView v : views_) vkDestroyImageView(device, v, nullptr);
    for (VkSemaphore s : renderFinished_) vkDestroySemaphore(device, s, nullptr);
    views_.clear();
    renderFinished_.clear();
    images_.clear();
}

sieve::Result<void> WindowTarget::recreate() {
    VkDevice device = ctx_->device();
    SIEVE_VK_TRY(vkQueueWaitIdle(ctx_->queue()));
    needRecreate_ = false;
    VkSurfaceCapabilitiesKHR caps;
    SIEVE_VK_TRY(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx_->physical(), surface_, &caps));
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == UINT32_MAX) {  // the surface size follows the swapchain: use the framebuffer's
        const VkExtent2D fb = framebufferSize();
        extent.width = std::clamp(fb.width, caps.minImageExtent.width, caps.maxImageExtent.width);
        extent.height = std::clamp(fb.height, caps.minImageExtent.height, caps.maxImageExtent.height);
    }
    if (extent.width == 0 || extent.height == 0) {
        extent_ = {0, 0};  // minimized: keep the old swapchain until the window has an area again
        return {};
    }

    const VkImageUsageFlags wanted = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    if ((caps.supportedUsageFlags & wanted) != wanted)
        return sieve::makeError(VK_ERROR_FEATURE_NOT_PRESENT,
                                "swapchain images cannot be colour attachments and copy sources");
    const VkSwapchainCreateInfoKHR info =
        swapchainInfo(surface_, caps, format_, colorSpace_, extent, wanted, swapchain_);
    VkSwapchainKHR next = VK_NULL_HANDLE;
    SIEVE_VK_TRY(vkCreateSwapchainKHR(device, &info, nullptr, &next));
    destroySwapchainObjects();
    if (swapchain_) vkDestroySwapchainKHR(device, swapchain_, nullptr);
    swapchain_ = next;
    extent_ = extent;
    ++recreateCount_;

    uint32_t count = 0;
    SIEVE_VK_TRY(vkGetSwapchainImagesKHR(device, swapchain_, &count, nullptr));
    images_.resize(count);
    SIEVE_VK_TRY(vkGetSwapchainImagesKHR(device, swapchain_, &count, images_.data()));
    for (uint32_t i = 0; i < count; ++i) {
        VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        view.image = images_[i];
        view.viewType = VK_IMAGE_VIEW_TYPE_2D;
        view.format = format_;
        view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VkImageView v = VK_NULL_HANDLE;
        SIEVE_VK_TRY(vkCreateImageView(device, &view, nullptr, &v));
        views_.push_back(v);
        VkSemaphoreCreateInfo sem{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VkSemaphore s = VK_NULL_HANDLE;
        SIEVE_VK_TRY(vkCreateSemaphore(device, &sem, nullptr, &s));
        renderFinished_.push_back(s);
        const std::string name = "swapchain " + std::to_string(i);
        sieve::setDebugName(ctx_->info(), VK_OBJECT_TYPE_IMAGE, images_[i], name.c_str());
        sieve::setDebugName(ctx_->info(), VK_OBJECT_TYPE_SEMAPHORE, s, (name + " render finished").c_str());
    }
    return createDepth(extent_);
}

sieve::Result<Target::Acquired> WindowTarget::acquire(uint32_t slot) {
    Acquired skipped;
    skipped.skipped = true;
    const VkExtent2D fb = framebufferSize();
    // Iconified (a window manager keeps the framebuffer size) or 0x0: no frame, and the thread sleeps in
    // glfwWaitEvents until an event comes (a restore, a close); bounded, so that the caller can still
    // run its own timed work (test sequences) at a slow pace.
    iconified_ = glfwGetWindowAttrib(window_->handle(), GLFW_ICONIFIED) == GLFW_TRUE;
    if (iconified_ || fb.width == 0 || fb.height == 0) {
        glfwWaitEventsTimeout(0.5);
        needRecreate_ = true;
        return skipped;
    }
    if (needRecreate_ || extent_.width == 0 || fb.width != extent_.width || fb.height != extent_.height) {
        if (auto r = recreate(); !r) return r.error();
        if (extent_.width == 0) return skipped;
    }
    VkResult r = vkAcquireNextImageKHR(ctx_->device(), swapchain_, UINT64_MAX, slotSemaphore(slot), VK_NULL_HANDLE,
                                       &imageIndex_);
    if (r == VK_ERROR_OUT_OF_DATE_KHR) {  // nothing was acquired, the semaphore stays unsignalled
        needRecreate_ = true;
        return skipped;
    }
    if (r == VK_SUBOPTIMAL_KHR)
        needRecreate_ = true;  // the image is acquired and the semaphore will signal: render and present it
    else if (r != VK_SUCCESS)
        return sieve::makeError(r, std::string("vkAcquireNextImageKHR failed: ") + sieve::vkResultName(r));
    Acquired a;
    a.image = images_[imageIndex_];
    a.view = views_[imageIndex_];
    a.waitSemaphore = slotSemaphore(slot);
    a.waitStage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    a.signalSemaphore = renderFinished_[imageIndex_];
    return a;
}

sieve::Result<void> WindowTarget::present(uint32_t) {
    VkPresentInfoKHR info{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    info.waitSemaphoreCount = 1;
    info.pWaitSemaphores = &renderFinished_[imageIndex_];
    info.swapchainCount = 1;
    info.pSwapchains = &swapchain_;
    info.pImageIndices = &imageIndex_;
    VkResult r = vkQueuePresentKHR(ctx_->queue(), &info);
    if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) {
        needRecreate_ = true;  // rebuilt at the next acquire
        return {};
    }
    if (r != VK_SUCCESS) return sieve::makeError(r, std::string("vkQueuePresentKHR failed: ") + sieve::vkResultName(r));
    return {};
}

}  // namespace engine
