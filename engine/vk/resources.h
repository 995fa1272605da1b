#pragma once
// RAII buffers and images on the engine's allocator.
#include <volk.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/vk/memory.h"
#include "sieve/depth_format.h"
#include "sieve/pipeline.h"
#include "sieve/result.h"

namespace engine {

class Context;

class Buffer {
public:
    Buffer() = default;
    static sieve::Result<Buffer> create(Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUsage memory,
                                        const char* name);
    ~Buffer() { destroy(); }
    Buffer(Buffer&& o) noexcept { *this = std::move(o); }
    Buffer& operator=(Buffer&& o) noexcept;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    VkBuffer handle() const { return buffer_; }
    VkDeviceSize size() const { return size_; }
    void* mapped() const { return alloc_.mapped; }  // host-visible buffers only
    sieve::BufferRange range(VkDeviceSize offset = 0, VkDeviceSize size = VK_WHOLE_SIZE) const {
        return {buffer_, offset, size};
    }
    explicit operator bool() const { return buffer_ != VK_NULL_HANDLE; }

private:
    void destroy();
    Context* ctx_ = nullptr;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceSize size_ = 0;
    Allocation alloc_;
};

struct ImageDesc {
    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    VkExtent2D extent{1, 1};
    uint32_t mipLevels = 1;
    VkImageUsageFlags usage = 0;
    const char* name = "image";
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
};

class Image {
public:
    Image() = default;
    static sieve::Result<Image> create(Context& ctx, const ImageDesc& desc);
    ~Image() { destroy(); }
    Image(Image&& o) noexcept { *this = std::move(o); }
    Image& operator=(Image&& o) noexcept;
    Image(const Image&) = delete;
    Image& operator=(const Image&) = delete;

    VkImage handle() const { return image_; }
    VkImageView view() const { return view_; }  // all mips
    VkImageView mipView(uint32_t mip) const { return mipViews_[mip] ? mipViews_[mip] : view_; }
    VkFormat format() const { return desc_.format; }
    VkExtent2D extent() const { return desc_.extent; }
    uint32_t mipLevels() const { return desc_.mipLevels; }
    VkImageAspectFlags aspect() const;
    VkImageSubresourceRange fullRange() const { return {aspect(), 0, desc_.mipLevels, 0, 1}; }
    // fullRange() for layout transitions: both aspects of a depth/stencil format (sieve::transitionAspects).
    VkImageSubresourceRange transitionRange() const {
        return {sieve::transitionAspects(desc_.format, aspect()), 0, desc_.mipLevels, 0, 1};
    }
    explicit operator bool() const { return image_ != VK_NULL_HANDLE; }

private:
    void destroy();
    Context* ctx_ = nullptr;
    VkImage image_ = VK_NULL_HANDLE;
    VkImageView view_ = VK_NULL_HANDLE;
    std::vector<VkImageView> mipViews_;
    ImageDesc desc_;
    Allocation alloc_;
};

bool isDepthFormat(VkFormat f);

// Upload through a staging buffer and wait (setup only).
sieve::Result<void> uploadBuffer(Context& ctx, const Buffer& dst, const void* data, VkDeviceSize bytes,
                                 VkDeviceSize dstOffset = 0);
// Copy a device buffer back to the host and wait (tests and setup only).
sieve::Result<void> readBuffer(Context& ctx, const Buffer& src, void* data, VkDeviceSize bytes,
                               VkDeviceSize srcOffset = 0);
// Same for any buffer handle (e.g. a render-graph slot), after all earlier work on the queue.
sieve::Result<void> readBuffer(Context& ctx, VkBuffer src, void* data, VkDeviceSize bytes, VkDeviceSize srcOffset = 0);

template <typename T>
sieve::Result<std::vector<T>> readVector(Context& ctx, const Buffer& src, size_t count, VkDeviceSize srcOffset = 0) {
    std::vector<T> out(count);
    if (count)
        if (auto r = readBuffer(ctx, src, out.data(), count * sizeof(T), srcOffset); !r) return r.error();
    return out;
}

}  // namespace engine
