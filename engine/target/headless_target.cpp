#include "engine/target/headless_target.h"

#include <cstring>

#include "engine/vk/context.h"

namespace engine {

sieve::Result<std::unique_ptr<HeadlessTarget>> HeadlessTarget::create(Context& ctx, const HeadlessTargetDesc& desc) {
    if (desc.extent.width == 0 || desc.extent.height == 0)
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "headless target: extent must be at least 1x1");
    if (desc.colorFormat != VK_FORMAT_R8G8B8A8_UNORM && desc.colorFormat != VK_FORMAT_B8G8R8A8_UNORM)
        return sieve::makeError(VK_ERROR_FORMAT_NOT_SUPPORTED,
                                "headless target: colour format must be R8G8B8A8_UNORM or B8G8R8A8_UNORM");
    std::unique_ptr<HeadlessTarget> t(new HeadlessTarget(ctx, desc));
    if (auto r = t->createSlots(); !r) return r.error();
    if (auto r = t->createDepth(desc.extent); !r) return r.error();
    for (uint32_t i = 0; i < t->framesInFlight(); ++i) {
        const std::string name = "headless colour " + std::to_string(i);
        ImageDesc img;
        img.format = desc.colorFormat;
        img.extent = desc.extent;
        img.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                    VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
        img.name = name.c_str();
        auto image = Image::create(ctx, img);
        if (!image) return image.error();
        t->colors_.push_back(std::move(image).value());
    }
    return t;
}

HeadlessTarget::~HeadlessTarget() {
    // The base destructor waits too, but the colour images die first: wait before they do.
    (void)waitAllSlots();
}

sieve::Result<Target::Acquired> HeadlessTarget::acquire(uint32_t slot) {
    Acquired a;
    a.image = colors_[slot].handle();
    a.view = colors_[slot].view();
    return a;
}

sieve::Result<void> HeadlessTarget::present(uint32_t slot) {
    lastEnded_ = int(slot);
    return {};
}

sieve::Result<std::vector<uint8_t>> HeadlessTarget::readbackPixels() {
    if (lastEnded_ < 0) return std::vector<uint8_t>{};
    if (auto r = finish(); !r) return r.error();
    const Image& img = colors_[size_t(lastEnded_)];
    const VkDeviceSize bytes = VkDeviceSize(desc_.extent.width) * desc_.extent.height * 4;
    auto buf = Buffer::create(*ctx_, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback, "readback");
    if (!buf) return buf.error();
    // endFrame left the image in TRANSFER_SRC_OPTIMAL after a barrier to COPY/TRANSFER_READ, and the fence
    // wait in finish() completed that submission.
    auto r = ctx_->submitNow([&](VkCommandBuffer cmd) {
        VkBufferImageCopy copy{};
        copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        copy.imageExtent = {desc_.extent.width, desc_.extent.height, 1};
        vkCmdCopyImageToBuffer(cmd, img.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buf->handle(), 1, &copy);
    });
    if (!r) return r.error();
    std::vector<uint8_t> pixels(bytes);
    std::memcpy(pixels.data(), buf->mapped(), bytes);
    if (desc_.colorFormat == VK_FORMAT_B8G8R8A8_UNORM)
        for (size_t i = 0; i < pixels.size(); i += 4) std::swap(pixels[i], pixels[i + 2]);
    return pixels;
}

sieve::Result<void> HeadlessTarget::readback(const std::string& path) {
    if (lastEnded_ < 0) return sieve::makeError(VK_ERROR_UNKNOWN, "readback: no frame has ended yet");
    auto pixels = readbackPixels();
    if (!pixels) return pixels.error();
    return writePng(path, pixels->data(), desc_.extent, VK_FORMAT_R8G8B8A8_UNORM);
}

}  // namespace engine
