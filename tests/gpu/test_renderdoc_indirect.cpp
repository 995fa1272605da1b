// An indexed indirect-count draw of the shape the culling plugin's draw passes use: four quads in the
// argument buffer, a count buffer that the frame sets to 2 before the draw (from 4) and to 3 after it; only
// the first two quads may appear, and a replay must read 2 at the draw. Like the viewer's geometry passes,
// a pipeline-statistics query encloses the draw (where the device offers one): RenderDoc's partial
// replays inside it crash lavapipe, which renderdoc_inspect.py must avoid. With
// SIEVE_RENDERDOC_CAPTURE=<path template> the submission is also captured with RenderDoc, which must be
// loaded before the Vulkan instance exists: run this test alone in its process
// (tests/e2e/test_renderdoc_indirect.sh does, and replays the capture with python3-renderdoc).
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "engine/capture/renderdoc.h"
#include "gpu/gpu_fixture.h"
#include "shared/ui_push.h"
#include "sieve/barriers.h"
#include "sieve/graphics_pipeline.h"

namespace {

using testing_gpu::GpuTest;

struct Vertex {
    float x, y, u, v;
    uint32_t rgba;  // R8G8B8A8_UNORM, little-endian
};

constexpr uint32_t kQuads = 4, kDrawn = 2, kQuadSize = 8;
constexpr VkExtent2D kExtent{kQuads * kQuadSize, kQuadSize};
constexpr uint32_t kColours[kQuads] = {0xFF0000FFu, 0xFF00FF00u, 0xFFFF0000u, 0xFFFFFFFFu};
constexpr uint32_t kClear = 0xFF000000u;

using sieve::memoryBarrier;

void imageBarriers(VkCommandBuffer cmd, std::initializer_list<VkImageMemoryBarrier2> barriers) {
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.imageMemoryBarrierCount = uint32_t(barriers.size());
    dep.pImageMemoryBarriers = barriers.begin();
    vkCmdPipelineBarrier2(cmd, &dep);
}

class IndirectCountDraw : public GpuTest {
protected:
    // RenderDoc before GpuTest::SetUp, whose first use of the shared context creates the instance.
    void SetUp() override {
        const char* capture = std::getenv("SIEVE_RENDERDOC_CAPTURE");
        if (capture && *capture) {
            renderdoc = engine::RenderDoc::create(engine::RenderDoc::Load::InjectedOrLoad);
            ASSERT_TRUE(renderdoc->available()) << renderdoc->message();
            renderdoc->setCaptureFilePathTemplate(capture);
        }
        GpuTest::SetUp();
    }
    std::unique_ptr<engine::RenderDoc> renderdoc;
};

}  // namespace

TEST_F(IndirectCountDraw, OnlyTheCountedDrawsAppear) {
    std::vector<Vertex> vertices;
    std::vector<uint16_t> indices;
    std::vector<VkDrawIndexedIndirectCommand> args;
    for (uint32_t q = 0; q < kQuads; ++q) {
        const float x0 = float(q * kQuadSize), x1 = x0 + kQuadSize, y1 = float(kQuadSize);
        const uint16_t base = uint16_t(vertices.size());
        vertices.push_back({x0, 0, 0, 0, kColours[q]});
        vertices.push_back({x1, 0, 1, 0, kColours[q]});
        vertices.push_back({x1, y1, 1, 1, kColours[q]});
        vertices.push_back({x0, y1, 0, 1, kColours[q]});
        for (uint16_t i : {0, 1, 2, 0, 2, 3}) indices.push_back(uint16_t(base + i));
        args.push_back({6, 1, q * 6, 0, 0});
    }
    engine::Buffer vertexBuffer = makeBuffer(vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, "indirect test vertices");
    engine::Buffer indexBuffer = makeBuffer(indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, "indirect test indices");
    engine::Buffer argBuffer = makeBuffer(args, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "indirect test draw args");
    engine::Buffer countBuffer =
        makeBuffer(std::vector<uint32_t>{kQuads}, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "indirect test draw counts");
    engine::Buffer pixels = makeEmpty(kExtent.width * kExtent.height * 4, 0, "indirect test pixels");

    auto target = engine::Image::create(
        ctx(), {VK_FORMAT_R8G8B8A8_UNORM, kExtent, 1,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, "indirect test target"});
    ASSERT_TRUE(target) << target.error().message;
    auto white = engine::Image::create(ctx(), {VK_FORMAT_R8G8B8A8_UNORM,
                                               {1, 1},
                                               1,
                                               VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                               "indirect test white texture"});
    ASSERT_TRUE(white) << white.error().message;
    VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    si.magFilter = si.minFilter = VK_FILTER_NEAREST;
    si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    VkSampler sampler = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateSampler(ctx().device(), &si, nullptr, &sampler), VK_SUCCESS);

    // The ImGui shaders: pixel-space positions, vertex colour times a texture (white here).
    const VkVertexInputBindingDescription vertexBinding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
    const VkVertexInputAttributeDescription attributes[] = {
        {0, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(Vertex, x)},
        {1, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(Vertex, u)},
        {2, 0, VK_FORMAT_R8G8B8A8_UNORM, offsetof(Vertex, rgba)},
    };
    sieve::GraphicsPipelineDesc pd;
    pd.vertexShader = "ui/imgui.vert";
    pd.fragmentShader = "ui/imgui.frag";
    pd.pushConstantBytes = sizeof(sieve::gpu::ImGuiPush);
    pd.vertexBindings = {&vertexBinding, 1};
    pd.vertexAttributes = attributes;
    pd.colorFormat = VK_FORMAT_R8G8B8A8_UNORM;
    pd.debugName = "indirect test pipeline";
    auto pipeline = sieve::GraphicsPipeline::create(ctx().info(), pd);
    ASSERT_TRUE(pipeline) << pipeline.error().message;

    VkPhysicalDeviceFeatures features{};
    vkGetPhysicalDeviceFeatures(ctx().physical(), &features);
    VkQueryPool stats = VK_NULL_HANDLE;
    if (features.pipelineStatisticsQuery) {
        VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qi.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
        qi.queryCount = 1;
        qi.pipelineStatistics = VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT;
        ASSERT_EQ(vkCreateQueryPool(ctx().device(), &qi, nullptr, &stats), VK_SUCCESS);
    }

    if (renderdoc) renderdoc->startCapture(ctx().instance());
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        sieve::ScopedLabel frame(cmd, "frame");
        if (stats) vkCmdResetQueryPool(cmd, stats, 0, 1);  // in the frame, as the viewer's passes do
        {
            sieve::ScopedLabel label(cmd, "texture");
            imageBarriers(cmd, {testing_gpu::colorLayoutBarrier(
                                   white->handle(), VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                                   VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL)});
            const VkClearColorValue one{{1.0f, 1.0f, 1.0f, 1.0f}};
            const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
            vkCmdClearColorImage(cmd, white->handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &one, 1, &range);
            imageBarriers(
                cmd, {testing_gpu::colorLayoutBarrier(
                          white->handle(), VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                          VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL),
                      testing_gpu::colorLayoutBarrier(target->handle(), VK_PIPELINE_STAGE_2_NONE, 0,
                                                      VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                                      VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                                                      VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)});
        }
        {
            // As a culling pass would: the count is written on the device within the frame.
            sieve::ScopedLabel label(cmd, "count");
            vkCmdFillBuffer(cmd, countBuffer.handle(), 0, 4, kDrawn);
            // ALL_TRANSFER: the spec puts vkCmdFillBuffer in CLEAR, validation 1.3.239 in COPY.
            memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
        }
        {
            sieve::ScopedLabel label(cmd, "draw.indirect");
            if (stats) vkCmdBeginQuery(cmd, stats, 0, 0);
            const VkRenderingAttachmentInfo color = sieve::renderingAttachment(
                target->view(), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_ATTACHMENT_LOAD_OP_CLEAR,
                VK_ATTACHMENT_STORE_OP_STORE, {.color = {{0.0f, 0.0f, 0.0f, 1.0f}}});
            sieve::beginRendering(cmd, kExtent, &color);
            sieve::gpu::ImGuiPush push{};
            push.scale.x = 2.0f / kExtent.width, push.scale.y = 2.0f / kExtent.height;
            push.translate.x = -1.0f, push.translate.y = -1.0f;
            pipeline->bind(cmd,
                           {sieve::Binding::sampled(white->view(), sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)},
                           &push, sizeof(push));
            sieve::setFullViewport(cmd, kExtent);
            const VkDeviceSize zero = 0;
            const VkBuffer vb = vertexBuffer.handle();
            vkCmdBindVertexBuffers(cmd, 0, 1, &vb, &zero);
            vkCmdBindIndexBuffer(cmd, indexBuffer.handle(), 0, VK_INDEX_TYPE_UINT16);
            vkCmdDrawIndexedIndirectCount(cmd, argBuffer.handle(), 0, countBuffer.handle(), 0, kQuads,
                                          sizeof(VkDrawIndexedIndirectCommand));
            vkCmdEndRendering(cmd);
            if (stats) vkCmdEndQuery(cmd, stats, 0);
        }
        {
            // A later value, so that a replay that reads the count at the end of the frame is caught.
            sieve::ScopedLabel label(cmd, "count.after");
            memoryBarrier(cmd, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, 0, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, 0);
            vkCmdFillBuffer(cmd, countBuffer.handle(), 0, 4, kDrawn + 1);
        }
        imageBarriers(cmd, {testing_gpu::colorLayoutBarrier(
                               target->handle(), VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                               VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                               VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)});
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {kExtent.width, kExtent.height, 1};
        vkCmdCopyImageToBuffer(cmd, target->handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pixels.handle(), 1,
                               &region);
    });
    if (renderdoc) {
        const bool written = renderdoc->endCapture(ctx().instance());
        const uint32_t n = renderdoc->captureCount();
        EXPECT_TRUE(written && n > 0) << "RenderDoc wrote no capture (was the Vulkan instance created before "
                                         "RenderDoc was loaded? run this test alone)";
        if (n) std::printf("RenderDoc capture: %s\n", renderdoc->capturePath(n - 1).c_str());
    }
    vkDestroySampler(ctx().device(), sampler, nullptr);
    uint64_t primitives = 0;
    VkResult qr = VK_SUCCESS;
    if (stats) {
        qr = vkGetQueryPoolResults(ctx().device(), stats, 0, 1, sizeof(primitives), &primitives, sizeof(primitives),
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        vkDestroyQueryPool(ctx().device(), stats, nullptr);
    }
    ASSERT_TRUE(r) << r.error().message;
    if (stats) {
        ASSERT_EQ(qr, VK_SUCCESS);
        EXPECT_EQ(primitives, 2u * kDrawn);  // two triangles per counted quad
    }

    auto texels = read<uint32_t>(pixels, kExtent.width * kExtent.height);
    ASSERT_EQ(texels.size(), size_t(kExtent.width * kExtent.height));
    for (uint32_t y = 0; y < kExtent.height; ++y)
        for (uint32_t x = 0; x < kExtent.width; ++x) {
            const uint32_t quad = x / kQuadSize;
            const uint32_t want = quad < kDrawn ? kColours[quad] : kClear;
            ASSERT_EQ(texels[y * kExtent.width + x], want) << "pixel " << x << "," << y;
        }
}
