#include "engine/vk/pyramid_readback.h"

#include "engine/vk/context.h"
#include "sieve/barriers.h"
#include "sieve/hiz.h"

namespace engine {

namespace {

constexpr VkDeviceSize kTexelBytes = 8;  // RG32F

// Copies every mip into `buf` at `offsets`, and the pyramid back to GENERAL.
void recordCopy(VkCommandBuffer cmd, const Image& pyramid, VkBuffer buf, const std::vector<VkDeviceSize>& offsets) {
    const VkImage image = pyramid.handle();
    sieve::imageBarrier(cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                        VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    for (uint32_t m = 0; m < offsets.size(); ++m) {
        const VkExtent2D e = sieve::HiZBuilder::mipExtent(pyramid.extent(), m);
        VkBufferImageCopy region{};
        region.bufferOffset = offsets[m];
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, m, 0, 1};
        region.imageExtent = {e.width, e.height, 1};
        vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buf, 1, &region);
    }
    sieve::imageBarrier(cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                        VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                            VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                        VK_IMAGE_LAYOUT_GENERAL);
}

}  // namespace

sieve::Result<std::vector<std::vector<float>>> readPyramid(Context& ctx, const Image& pyramid) {
    std::vector<VkDeviceSize> offsets;
    VkDeviceSize bytes = 0;
    for (uint32_t m = 0; m < pyramid.mipLevels(); ++m) {
        offsets.push_back(bytes);
        const VkExtent2D e = sieve::HiZBuilder::mipExtent(pyramid.extent(), m);
        bytes += VkDeviceSize(e.width) * e.height * kTexelBytes;
    }
    auto buf = Buffer::create(ctx, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                              MemoryUsage::DeviceLocal, "pyramid readback");
    if (!buf) return buf.error();
    auto r = ctx.submitNow([&](VkCommandBuffer cmd) { recordCopy(cmd, pyramid, buf->handle(), offsets); });
    if (!r) return r.error();
    std::vector<std::vector<float>> mips;
    for (uint32_t m = 0; m < offsets.size(); ++m) {
        const VkExtent2D e = sieve::HiZBuilder::mipExtent(pyramid.extent(), m);
        auto v = readVector<float>(ctx, buf.value(), size_t(e.width) * e.height * 2, offsets[m]);
        if (!v) return v.error();
        mips.push_back(std::move(v).value());
    }
    return mips;
}

}  // namespace engine
