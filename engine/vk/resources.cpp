#include "engine/vk/resources.h"

#include <cstring>

#include "engine/vk/context.h"
#include "sieve/barriers.h"

namespace engine {

sieve::Result<Buffer> Buffer::create(Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUsage memory,
                                     const char* name) {
    Buffer b;
    b.ctx_ = &ctx;
    b.size_ = size;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size ? size : 4;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    SIEVE_VK_TRY(vkCreateBuffer(ctx.device(), &info, nullptr, &b.buffer_));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(ctx.device(), b.buffer_, &req);
    auto alloc = ctx.allocator().allocate(req, memory);
    if (!alloc) return sieve::makeError(alloc.error().code, std::string(name) + ": " + alloc.error().message);
    b.alloc_ = alloc.value();
    SIEVE_VK_TRY(vkBindBufferMemory(ctx.device(), b.buffer_, b.alloc_.memory, b.alloc_.offset));
    sieve::setDebugName(ctx.info(), VK_OBJECT_TYPE_BUFFER, b.buffer_, name);
    return b;
}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
    if (this != &o) {
        destroy();
        ctx_ = o.ctx_;
        buffer_ = o.buffer_;
        size_ = o.size_;
        alloc_ = o.alloc_;
        o.buffer_ = VK_NULL_HANDLE;
        o.alloc_ = {};
    }
    return *this;
}

void Buffer::destroy() {
    if (!ctx_) return;
    if (buffer_) vkDestroyBuffer(ctx_->device(), buffer_, nullptr);
    ctx_->allocator().free(alloc_);
    buffer_ = VK_NULL_HANDLE;
    alloc_ = {};
}

bool isDepthFormat(VkFormat f) {
    return sieve::isDepthFormat(f);
}

VkImageAspectFlags Image::aspect() const {
    return isDepthFormat(desc_.format) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
}

sieve::Result<Image> Image::create(Context& ctx, const ImageDesc& desc) {
    Image img;
    img.ctx_ = &ctx;
    img.desc_ = desc;
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = desc.format;
    info.extent = {desc.extent.width, desc.extent.height, 1};
    info.mipLevels = desc.mipLevels;
    info.arrayLayers = 1;
    info.samples = desc.samples;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = desc.usage;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    SIEVE_VK_TRY(vkCreateImage(ctx.device(), &info, nullptr, &img.image_));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(ctx.device(), img.image_, &req);
    auto alloc = ctx.allocator().allocate(req, MemoryUsage::DeviceLocal);
    if (!alloc) return sieve::makeError(alloc.error().code, std::string(desc.name) + ": " + alloc.error().message);
    img.alloc_ = alloc.value();
    SIEVE_VK_TRY(vkBindImageMemory(ctx.device(), img.image_, img.alloc_.memory, img.alloc_.offset));
    sieve::setDebugName(ctx.info(), VK_OBJECT_TYPE_IMAGE, img.image_, desc.name);

    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = img.image_;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = desc.format;
    view.subresourceRange = img.fullRange();
    SIEVE_VK_TRY(vkCreateImageView(ctx.device(), &view, nullptr, &img.view_));
    sieve::setDebugName(ctx.info(), VK_OBJECT_TYPE_IMAGE_VIEW, img.view_, desc.name);
    if (desc.mipLevels > 1) {
        for (uint32_t m = 0; m < desc.mipLevels; ++m) {
            view.subresourceRange = {img.aspect(), m, 1, 0, 1};
            VkImageView v = VK_NULL_HANDLE;
            SIEVE_VK_TRY(vkCreateImageView(ctx.device(), &view, nullptr, &v));
            img.mipViews_.push_back(v);
        }
    } else {
        img.mipViews_.push_back(VK_NULL_HANDLE);  // mipView(0) falls back to view_ below
    }
    return img;
}

Image& Image::operator=(Image&& o) noexcept {
    if (this != &o) {
        destroy();
        ctx_ = o.ctx_;
        image_ = o.image_;
        view_ = o.view_;
        mipViews_ = std::move(o.mipViews_);
        desc_ = o.desc_;
        alloc_ = o.alloc_;
        o.image_ = VK_NULL_HANDLE;
        o.view_ = VK_NULL_HANDLE;
        o.mipViews_.clear();
        o.alloc_ = {};
    }
    return *this;
}

void Image::destroy() {
    if (!ctx_) return;
    for (VkImageView v : mipViews_)
        if (v) vkDestroyImageView(ctx_->device(), v, nullptr);
    mipViews_.clear();
    if (view_) vkDestroyImageView(ctx_->device(), view_, nullptr);
    if (image_) vkDestroyImage(ctx_->device(), image_, nullptr);
    ctx_->allocator().free(alloc_);
    image_ = VK_NULL_HANDLE;
    view_ = VK_NULL_HANDLE;
    alloc_ = {};
}

sieve::Result<void> uploadBuffer(Context& ctx, const Buffer& dst, const void* data, VkDeviceSize bytes,
                                 VkDeviceSize dstOffset) {
    if (!bytes) return {};
    auto staging = Buffer::create(ctx, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUsage::Upload, "staging upload");
    if (!staging) return staging.error();
    std::memcpy(staging->mapped(), data, bytes);
    return ctx.submitNow([&](VkCommandBuffer cmd) {
        VkBufferCopy copy{0, dstOffset, bytes};
        vkCmdCopyBuffer(cmd, staging->handle(), dst.handle(), 1, &copy);
        // Make the copy visible to everything that runs after this submission.
        sieve::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                             VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                             VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    });
}

sieve::Result<void> readBuffer(Context& ctx, VkBuffer src, void* data, VkDeviceSize bytes, VkDeviceSize srcOffset) {
    if (!bytes) return {};
    auto staging =
        Buffer::create(ctx, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback, "staging readback");
    if (!staging) return staging.error();
    auto r = ctx.submitNow([&](VkCommandBuffer cmd) {
        sieve::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                             VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        VkBufferCopy copy{srcOffset, 0, bytes};
        vkCmdCopyBuffer(cmd, src, staging->handle(), 1, &copy);
        sieve::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                             VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    });
    if (!r) return r;
    std::memcpy(data, staging->mapped(), bytes);
    return {};
}

sieve::Result<void> readBuffer(Context& ctx, const Buffer& src, void* data, VkDeviceSize bytes,
                               VkDeviceSize srcOffset) {
    return readBuffer(ctx, src.handle(), data, bytes, srcOffset);
}

}  // namespace engine
