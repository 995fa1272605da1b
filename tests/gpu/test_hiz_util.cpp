#include "gpu/test_hiz_util.h"

#include <cmath>
#include <cstring>

#include "engine/vk/pyramid_readback.h"
#include "shared/test_push.h"
#include "sieve/depth_format.h"
#include "sieve/graphics_pipeline.h"

namespace testing_gpu {

namespace {

using sieve::transitionAspects;

// The bytes a copy into the depth aspect takes (D16: u16, D24: the low 24 bits of a u32, D32: float).
std::vector<uint8_t> encodeDepth(VkFormat format, const std::vector<float>& values) {
    const uint32_t codeMax = depthCodeMax(format);
    const size_t texel = format == VK_FORMAT_D16_UNORM ? 2 : 4;
    std::vector<uint8_t> bytes(values.size() * texel);
    for (size_t i = 0; i < values.size(); ++i) {
        if (codeMax == 0) {
            std::memcpy(&bytes[i * 4], &values[i], 4);
            continue;
        }
        const uint32_t code = uint32_t(std::lround(double(values[i]) * codeMax));
        std::memcpy(&bytes[i * texel], &code, texel);  // little-endian: the low bytes
    }
    return bytes;
}

void copyDepth(engine::Context& ctx, DepthPyramidImages& images, const std::vector<float>& values,
               VkImageLayout oldLayout, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess) {
    const VkFormat format = images.depth.format();
    const std::vector<uint8_t> bytes = encodeDepth(format, values);
    auto staging =
        engine::Buffer::create(ctx, bytes.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                               engine::MemoryUsage::DeviceLocal, "depth staging");
    ASSERT_TRUE(staging) << staging.error().message;
    auto up = engine::uploadBuffer(ctx, staging.value(), bytes.data(), bytes.size());
    ASSERT_TRUE(up) << up.error().message;
    const VkImageAspectFlags aspects = transitionAspects(format, VK_IMAGE_ASPECT_DEPTH_BIT);
    auto r = ctx.submitNow([&](VkCommandBuffer cmd) {
        imageBarrier(cmd, images.depth.handle(), aspects, srcStage, srcAccess, oldLayout, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
        region.imageExtent = {images.extent.width, images.extent.height, 1};
        vkCmdCopyBufferToImage(cmd, staging->handle(), images.depth.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                               &region);
        imageBarrier(cmd, images.depth.handle(), aspects, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                     VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    });
    ASSERT_TRUE(r) << r.error().message;
}

// Every sample its own value: one full-screen draw per sample, its sample mask that sample alone.
void drawDepthSamples(engine::Context& ctx, DepthPyramidImages& images, const std::vector<float>& values) {
    const VkFormat format = images.depth.format();
    ASSERT_EQ(depthCodeMax(format), 0u) << "multisampled depth is written by draws: float formats only";
    auto buffer = engine::Buffer::create(ctx, values.size() * 4,
                                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                         engine::MemoryUsage::DeviceLocal, "depth samples");
    ASSERT_TRUE(buffer) << buffer.error().message;
    auto up = engine::uploadBuffer(ctx, buffer.value(), values.data(), values.size() * 4);
    ASSERT_TRUE(up) << up.error().message;
    sieve::GraphicsPipelineDesc desc;
    desc.vertexShader = "test/depth_write.vert";
    desc.fragmentShader = "test/depth_write.frag";
    desc.pushConstantBytes = sizeof(sieve::gpu::DepthWritePush);
    desc.depthFormat = format;
    desc.samples = VkSampleCountFlagBits(images.samples);
    desc.depthTest = true;
    desc.depthWrite = true;
    desc.depthCompare = VK_COMPARE_OP_ALWAYS;
    desc.debugName = "test depth samples";
    auto pipeline = sieve::GraphicsPipeline::create(ctx.info(), desc);
    ASSERT_TRUE(pipeline) << pipeline.error().message;
    const VkImageAspectFlags aspects = transitionAspects(format, VK_IMAGE_ASPECT_DEPTH_BIT);
    const VkExtent2D e = images.extent;
    auto r = ctx.submitNow([&](VkCommandBuffer cmd) {
        imageBarrier(cmd, images.depth.handle(), aspects, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                     VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT,
                     VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL);
        const VkRenderingAttachmentInfo depth =
            sieve::renderingAttachment(images.depth.view(), VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                                       VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_STORE);
        sieve::beginRendering(cmd, e, nullptr, &depth);
        sieve::setFullViewport(cmd, e);
        for (uint32_t s = 0; s < images.samples; ++s) {
            const sieve::gpu::DepthWritePush push{e.width, images.samples, s, 0};
            pipeline->bind(cmd, {sieve::Binding::storage(buffer->range())}, &push, sizeof(push));
            vkCmdDraw(cmd, 3, 1, 0, 0);
        }
        vkCmdEndRendering(cmd);
        imageBarrier(cmd, images.depth.handle(), aspects, VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                     VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    });
    ASSERT_TRUE(r) << r.error().message;
}

}  // namespace

uint32_t depthCodeMax(VkFormat format) {
    switch (format) {
        case VK_FORMAT_D16_UNORM:
        case VK_FORMAT_D16_UNORM_S8_UINT: return 0xFFFFu;
        case VK_FORMAT_X8_D24_UNORM_PACK32:
        case VK_FORMAT_D24_UNORM_S8_UINT: return 0xFFFFFFu;
        default: return 0;
    }
}

float depthGrid(VkFormat format, uint32_t code) {
    const uint32_t codeMax = depthCodeMax(format);
    return codeMax ? float(double(code) / codeMax) : float(code);
}

DepthPyramidImages makeDepthAndPyramid(engine::Context& ctx, VkExtent2D extent, const std::vector<float>& values) {
    return makeDepthAndPyramid(ctx, extent, values, VK_FORMAT_D32_SFLOAT, 1);
}

DepthPyramidImages makeDepthAndPyramid(engine::Context& ctx, VkExtent2D extent, const std::vector<float>& values,
                                       VkFormat format, uint32_t samples) {
    DepthPyramidImages out;
    out.extent = extent;
    out.samples = samples;
    const VkImageUsageFlags usage =
        VK_IMAGE_USAGE_SAMPLED_BIT |
        VkImageUsageFlags(samples > 1 ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    engine::ImageDesc desc{format, extent, 1, usage, "test depth", VkSampleCountFlagBits(samples)};
    auto depth = engine::Image::create(ctx, desc);
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
    if (samples > 1)
        drawDepthSamples(ctx, out, values);
    else
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
    auto mips = engine::readPyramid(ctx, images.pyramid);
    EXPECT_TRUE(mips) << mips.error().message;
    return mips ? std::move(mips).value() : std::vector<std::vector<float>>{};
}

}  // namespace testing_gpu
