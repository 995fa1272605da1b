#include "gpu/test_hiz_util.h"

namespace testing_gpu {


namespace {
void copyDepth(engine::Context& ctx, DepthPyramidImages& images, const std::vector<float>& values,
               VkImageLayout oldLayout, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess) {
    auto staging = engine::Buffer::create(ctx, values.size() * 4,
                                          VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                          engine::MemoryUsage::DeviceLocal, "depth staging");
    ASSERT_TRUE(staging) << staging.error().message;
    auto up = engine::uploadBuffer(ctx, staging.value(), values.data(), values.size() * 4);
    ASSERT_TRUE(up) << up.error().message;
    auto r = ctx.submitNow([&](VkCommandBuffer cmd) {
        imageBarrier(cmd, images.depth.handle(), VK_IMAGE_ASPECT_DEPTH_BIT, srcStage, srcAccess, oldLayout,
                     VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
        region.imageExtent = {images.extent.width, images.extent.height, 1};
        vkCmdCopyBufferToImage(cmd, staging->handle(), images.depth.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                               &region);
        imageBarrier(cmd, images.depth.handle(), VK_IMAGE_ASPECT_DEPTH_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    });
    ASSERT_TRUE(r) << r.error().message;
}
}  // namespace

DepthPyramidImages makeDepthAndPyramid(engine::Context& ctx, VkExtent2D extent, const std::vector<float>& values) {
    DepthPyramidImages out;
    out.extent = extent;
    auto depth = engine::Image::create(
        ctx,
        {VK_FORMAT_D32_SFLOAT, extent, 1, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, "test depth"});
    EXPECT_TRUE(depth) << depth.error().message;
    if (!depth) return out;
    out.depth = std::move(depth).value();
    const VkExtent2D base = sieve::HiZBuilder::pyramidExtent(extent);
    const uint32_t mips = sieve::HiZBuilder::mipCount(base);
    auto pyramid = engine::Image::create(
        ctx, {sieve::kHiZFormat, base, mips, sieve::kHiZUsage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, "test hiz"});
    EXPECT_TRUE(pyramid) << pyramid.error().message;
    if (!pyramid) return out;
    out.pyramid = std::move(pyramid).value();
    for (uint32_t m = 0; m < mips; ++m) out.mipViews.push_back(out.pyramid.mipView(m));
    copyDepth(ctx, out, values, VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE);
    auto r = ctx.submitNow([&](VkCommandBuffer cmd) {
        imageBarrier(cmd, out.pyramid.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                     VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                     VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                     VK_IMAGE_LAYOUT_GENERAL);
    });
    EXPECT_TRUE(r) << r.error().message;
    return out;
}

void uploadDepth(engine::Context& ctx, DepthPyramidImages& images, const std::vector<float>& values) {
    copyDepth(ctx, images, values, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
              VK_ACCESS_2_NONE);
}

std::vector<std::vector<float>> readPyramid(engine::Context& ctx, const DepthPyramidImages& images) {
    const VkExtent2D base = images.pyramid.extent();
    const uint32_t mips = images.pyramid.mipLevels();
    std::vector<VkDeviceSize> offsets;
    VkDeviceSize bytes = 0;
    for (uint32_t m = 0; m < mips; ++m) {
        offsets.push_back(bytes);
        const VkExtent2D e = sieve::HiZBuilder::mipExtent(base, m);
        bytes += VkDeviceSize(e.width) * e.height * 8;
    }
    auto buf = engine::Buffer::create(ctx, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                      engine::MemoryUsage::DeviceLocal, "pyramid readback");
    EXPECT_TRUE(buf) << buf.error().message;
    if (!buf) return {};
    auto r = ctx.submitNow([&](VkCommandBuffer cmd) {
        imageBarrier(cmd, images.pyramid.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                     VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        for (uint32_t m = 0; m < mips; ++m) {
            const VkExtent2D e = sieve::HiZBuilder::mipExtent(base, m);
            VkBufferImageCopy region{};
            region.bufferOffset = offsets[m];
            region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, m, 0, 1};
            region.imageExtent = {e.width, e.height, 1};
            vkCmdCopyImageToBuffer(cmd, images.pyramid.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buf->handle(), 1,
                                   &region);
        }
        imageBarrier(cmd, images.pyramid.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                     VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                         VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                     VK_IMAGE_LAYOUT_GENERAL);
    });
    EXPECT_TRUE(r) << r.error().message;
    std::vector<std::vector<float>> out;
    for (uint32_t m = 0; m < mips; ++m) {
        const VkExtent2D e = sieve::HiZBuilder::mipExtent(base, m);
        auto v = engine::readVector<float>(ctx, buf.value(), size_t(e.width) * e.height * 2, offsets[m]);
        EXPECT_TRUE(v) << v.error().message;
        out.push_back(v ? std::move(v).value() : std::vector<float>{});
    }
    return out;
}

}  // namespace testing_gpu
