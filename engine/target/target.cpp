#include "engine/target/target.h"

#include <cstring>

#include "engine/vk/context.h"
#include "sieve/barriers.h"
#include "sieve/graphics_pipeline.h"

namespace engine {

namespace {

void imageBarrier(VkCommandBuffer cmd, VkImage image, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                  VkImageLayout oldLayout, VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess,
                  VkImageLayout newLayout) {
    sieve::imageBarrier(cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, srcStage, srcAccess, oldLayout, dstStage, dstAccess,
                        newLayout, 0, 1);
}

// Submits `cmd`, waiting for `wait` (if any) at `waitStage`, signalling `signal` (if any) and `fence`.
VkResult submit(VkQueue queue, VkCommandBuffer cmd, VkSemaphore wait, VkPipelineStageFlags2 waitStage,
                VkSemaphore signal, VkFence fence) {
    VkCommandBufferSubmitInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cmdInfo.commandBuffer = cmd;
    VkSemaphoreSubmitInfo waitInfo{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    waitInfo.semaphore = wait;
    waitInfo.stageMask = waitStage;
    VkSemaphoreSubmitInfo signalInfo{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signalInfo.semaphore = signal;
    signalInfo.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkSubmitInfo2 info{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    info.waitSemaphoreInfoCount = wait ? 1 : 0;
    info.pWaitSemaphoreInfos = &waitInfo;
    info.commandBufferInfoCount = 1;
    info.pCommandBufferInfos = &cmdInfo;
    info.signalSemaphoreInfoCount = signal ? 1 : 0;
    info.pSignalSemaphoreInfos = &signalInfo;
    return vkQueueSubmit2(queue, 1, &info, fence);
}

}  // namespace

Target::Target(Context& ctx, uint32_t framesInFlight, VkFormat depthFormat)
    : ctx_(&ctx), slots_(framesInFlight ? framesInFlight : 1), depthFormat_(depthFormat) {}

Target::~Target() {
    destroySlots();
}

sieve::Result<void> Target::createSlots() {
    VkDevice device = ctx_->device();
    for (uint32_t i = 0; i < slots_.size(); ++i) {
        Slot& s = slots_[i];
        VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
        pool.queueFamilyIndex = ctx_->queueFamily();
        SIEVE_VK_TRY(vkCreateCommandPool(device, &pool, nullptr, &s.pool));
        VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        alloc.commandPool = s.pool;
        alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        alloc.commandBufferCount = 1;
        SIEVE_VK_TRY(vkAllocateCommandBuffers(device, &alloc, &s.cmd));
        // Created signalled so that the first beginFrame of each slot does not block.
        VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;
        SIEVE_VK_TRY(vkCreateFence(device, &fence, nullptr, &s.fence));
        VkSemaphoreCreateInfo sem{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        SIEVE_VK_TRY(vkCreateSemaphore(device, &sem, nullptr, &s.acquireSemaphore));
        const std::string name = "frame slot " + std::to_string(i);
        sieve::setDebugName(ctx_->info(), VK_OBJECT_TYPE_COMMAND_BUFFER, s.cmd, name.c_str());
        sieve::setDebugName(ctx_->info(), VK_OBJECT_TYPE_FENCE, s.fence, name.c_str());
        sieve::setDebugName(ctx_->info(), VK_OBJECT_TYPE_SEMAPHORE, s.acquireSemaphore, (name + " acquire").c_str());
    }
    return {};
}

void Target::destroySlots() {
    if (slots_.empty() || !ctx_) return;
    VkDevice device = ctx_->device();
    (void)waitAllSlots();
    for (Slot& s : slots_) {
        if (!s.shot.path.empty()) (void)writePendingShot(s);
        s.depth = Image();
        s.shotBuffer = Buffer();
        if (s.acquireSemaphore) vkDestroySemaphore(device, s.acquireSemaphore, nullptr);
        if (s.fence) vkDestroyFence(device, s.fence, nullptr);
        if (s.pool) vkDestroyCommandPool(device, s.pool, nullptr);
        s = Slot();
    }
    slots_.clear();
}

sieve::Result<void> Target::createDepth(VkExtent2D extent) {
    for (uint32_t i = 0; i < slots_.size(); ++i) {
        const std::string name = "target depth " + std::to_string(i);
        ImageDesc desc;
        desc.format = depthFormat_;
        desc.extent = extent;
        // Sampled: the Hi-Z pass reads it; transfer src: tests and debugging copy it out.
        desc.usage =
            VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
        desc.name = name.c_str();
        auto img = Image::create(*ctx_, desc);
        if (!img) return img.error();
        slots_[i].depth = std::move(img).value();
    }
    return {};
}

sieve::Result<void> Target::waitAllSlots() {
    // Only fences of submitted frames: a fence is reset just before its submission (endFrame), so one
    // that was never submitted is signalled, and one left unsignalled always has work that will signal it.
    std::vector<VkFence> fences;
    for (const Slot& s : slots_)
        if (s.fence && s.submitted) fences.push_back(s.fence);
    if (fences.empty()) return {};
    SIEVE_VK_TRY(vkWaitForFences(ctx_->device(), uint32_t(fences.size()), fences.data(), VK_TRUE, UINT64_MAX));
    return {};
}

void Target::requestScreenshot(std::string path) {
    requestedShot_ = std::move(path);
}

sieve::Result<void> Target::abandonFrame() {
    if (!inFrame_) return {};
    Slot& slot = slots_[frame_.info.frameSlot];
    // Whatever was recorded is dropped (the pool reset takes a recording command buffer back to the
    // initial state); the frame then clears its colour image and ends as any other, so that the image
    // acquired for it is waited for, presented or kept, and the slot's fence is signalled.
    requestedShot_.clear();
    SIEVE_VK_TRY(vkResetCommandPool(ctx_->device(), slot.pool, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    SIEVE_VK_TRY(vkBeginCommandBuffer(slot.cmd, &begin));
    imageBarrier(slot.cmd, frame_.colorImage, frame_.firstUseStage, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                 VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    const VkRenderingAttachmentInfo colour = sieve::renderingAttachment(
        frame_.colorView, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_ATTACHMENT_LOAD_OP_CLEAR,
        VK_ATTACHMENT_STORE_OP_STORE, {.color = {{0.0f, 0.0f, 0.0f, 1.0f}}});
    sieve::beginRendering(slot.cmd, frame_.extent, &colour);
    vkCmdEndRendering(slot.cmd);
    return endFrame({});
}

sieve::Result<void> Target::finish() {
    if (auto r = abandonFrame(); !r) return r;
    if (auto r = waitAllSlots(); !r) return r;
    for (Slot& s : slots_)
        if (!s.shot.path.empty())
            if (auto r = writePendingShot(s); !r) return r;
    return {};
}

sieve::Result<void> Target::writePendingShot(Slot& s) {
    PendingShot shot = std::move(s.shot);
    s.shot = {};
    return writePng(shot.path, static_cast<const uint8_t*>(s.shotBuffer.mapped()), shot.extent, shot.format);
}

sieve::Result<Frame> Target::beginFrame() {
    if (inFrame_) return sieve::makeError(VK_ERROR_UNKNOWN, "beginFrame called twice without endFrame");
    const uint32_t slotIndex = uint32_t(frameIndex_ % slots_.size());
    Slot& slot = slots_[slotIndex];
    // The only wait in the frame loop: the GPU finished the frame that last used this slot.
    SIEVE_VK_TRY(vkWaitForFences(ctx_->device(), 1, &slot.fence, VK_TRUE, UINT64_MAX));
    if (!slot.shot.path.empty())
        if (auto r = writePendingShot(slot); !r) return r.error();

    auto acquired = acquire(slotIndex);
    if (!acquired) return acquired.error();
    Frame frame;
    if (acquired->skipped) {
        frame.skipped = true;
        return frame;
    }
    current_ = acquired.value();
    SIEVE_VK_TRY(vkResetCommandPool(ctx_->device(), slot.pool, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    SIEVE_VK_TRY(vkBeginCommandBuffer(slot.cmd, &begin));

    frame.cmd = slot.cmd;
    frame.colorImage = current_.image;
    frame.colorView = current_.view;
    frame.extent = extent();
    frame.colorFormat = colorFormat();
    frame.colorLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    frame.depthImage = slot.depth.handle();
    frame.depthView = slot.depth.view();
    frame.depthFormat = depthFormat_;
    frame.depthLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    frame.firstUseStage = current_.waitStage;
    frame.colorFinalLayout = finalColorLayout();
    frame.info.frameIndex = frameIndex_;
    frame.info.frameSlot = slotIndex;
    frame.info.framesInFlight = uint32_t(slots_.size());
    frame_ = frame;
    inFrame_ = true;
    return frame;
}

sieve::Result<void> Target::endFrame(const FrameEnd& end) {
    if (!inFrame_) return sieve::makeError(VK_ERROR_UNKNOWN, "endFrame called without beginFrame");
    inFrame_ = false;
    const uint32_t slotIndex = frame_.info.frameSlot;
    Slot& slot = slots_[slotIndex];
    VkCommandBuffer cmd = slot.cmd;
    VkImageLayout layout = end.colorLayout;
    VkPipelineStageFlags2 stage = end.lastStage;
    VkAccessFlags2 access = end.lastAccess;

    if (!requestedShot_.empty()) {
        const VkDeviceSize bytes = VkDeviceSize(frame_.extent.width) * frame_.extent.height * 4;
        if (!slot.shotBuffer || slot.shotBuffer.size() < bytes) {
            auto buf = Buffer::create(*ctx_, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback,
                                      "screenshot readback");
            if (!buf) return buf.error();
            slot.shotBuffer = std::move(buf).value();
        }
        imageBarrier(cmd, frame_.colorImage, stage, access, layout, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        VkBufferImageCopy copy{};
        copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        copy.imageExtent = {frame_.extent.width, frame_.extent.height, 1};
        vkCmdCopyImageToBuffer(cmd, frame_.colorImage, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, slot.shotBuffer.handle(),
                               1, &copy);
        // Host reads happen after the fence wait, which makes device writes available to the host.
        slot.shot = {std::move(requestedShot_), frame_.extent, frame_.colorFormat};
        requestedShot_.clear();
        layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        stage = VK_PIPELINE_STAGE_2_COPY_BIT;
        access = VK_ACCESS_2_NONE;  // reads need no availability operation
    }

    const VkImageLayout finalLayout = finalColorLayout();
    if (layout != finalLayout || finalLayout == VK_IMAGE_LAYOUT_PRESENT_SRC_KHR) {
        // Presentation is ordered by the semaphore; the transition only has to finish before the signal
        // operation (stage NONE / ALL_COMMANDS of the submission's signal scope). For readback, a later
        // submission's copy orders against COPY.
        const bool present = finalLayout == VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
        imageBarrier(cmd, frame_.colorImage, stage, access, layout,
                     present ? VK_PIPELINE_STAGE_2_NONE : VK_PIPELINE_STAGE_2_COPY_BIT,
                     present ? VK_ACCESS_2_NONE : VK_ACCESS_2_TRANSFER_READ_BIT, finalLayout);
    }
    SIEVE_VK_TRY(vkEndCommandBuffer(cmd));

    // Reset here, not in beginFrame: a frame that is never submitted leaves its fence signalled, so no
    // wait can hang on it.
    SIEVE_VK_TRY(vkResetFences(ctx_->device(), 1, &slot.fence));
    SIEVE_VK_TRY(
        submit(ctx_->queue(), cmd, current_.waitSemaphore, current_.waitStage, current_.signalSemaphore, slot.fence));
    slot.submitted = true;
    ++frameIndex_;
    return present(slotIndex);
}

}  // namespace engine
