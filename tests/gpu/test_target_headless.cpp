// HeadlessTarget: frames in flight, the fence-only frame loop, readback and screenshots, under validation
// and synchronization validation.
#include <stb_image.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <future>

#include "engine/target/headless_target.h"
#include "gpu/gpu_fixture.h"
#include "scratch_dir.h"
#include "sieve/graphics_pipeline.h"

namespace {

using testing_gpu::GpuTest;

std::array<uint8_t, 4> colourOf(uint32_t frame) {
    return {uint8_t(40 + 50 * (frame % 4)), uint8_t(200 - 30 * (frame % 5)), uint8_t(17 * frame % 256), 255};
}

// Clears colour (by transfer) and depth (by a depth-only rendering scope) the way a frame graph would.
void recordClear(const engine::Frame& f, std::array<uint8_t, 4> c) {
    VkImageMemoryBarrier2 b[2]{};
    for (auto& x : b) {
        x = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
        x.srcQueueFamilyIndex = x.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    }
    b[0].srcStageMask = f.firstUseStage;
    b[0].dstStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT;
    b[0].dstAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    b[0].oldLayout = f.colorLayout;
    b[0].newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    b[0].image = f.colorImage;
    b[0].subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    b[1].dstStageMask = VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
    b[1].dstAccessMask = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    b[1].oldLayout = f.depthLayout;
    b[1].newLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    b[1].image = f.depthImage;
    b[1].subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.imageMemoryBarrierCount = 2;
    dep.pImageMemoryBarriers = b;
    vkCmdPipelineBarrier2(f.cmd, &dep);

    VkClearColorValue value{};
    for (int i = 0; i < 4; ++i) value.float32[i] = c[i] / 255.0f;
    VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(f.cmd, f.colorImage, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &value, 1, &range);

    const VkRenderingAttachmentInfo depth =
        sieve::renderingAttachment(f.depthView, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_ATTACHMENT_LOAD_OP_CLEAR,
                                   VK_ATTACHMENT_STORE_OP_STORE, {.depthStencil = {0.0f, 0}});
    sieve::beginRendering(f.cmd, f.extent, nullptr, &depth);
    vkCmdEndRendering(f.cmd);
}

engine::FrameEnd clearEnd() {
    return {VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT};
}

void expectUniform(const std::vector<uint8_t>& px, std::array<uint8_t, 4> c, const char* what) {
    ASSERT_FALSE(px.empty()) << what;
    size_t bad = 0;
    for (size_t i = 0; i < px.size(); i += 4)
        for (int k = 0; k < 3; ++k) bad += std::abs(int(px[i + k]) - int(c[k])) > 1;
    EXPECT_EQ(bad, 0u) << what << ": first pixel " << int(px[0]) << "," << int(px[1]) << "," << int(px[2]) << " want "
                       << int(c[0]) << "," << int(c[1]) << "," << int(c[2]);
}

class HeadlessTargetTest : public GpuTest, public ::testing::WithParamInterface<VkFormat> {};

TEST_P(HeadlessTargetTest, FramesInFlightReadBackTheLastClear) {
    engine::HeadlessTargetDesc desc;
    desc.extent = {67, 33};  // odd sizes: row pitch and copy extents must not assume powers of two
    desc.colorFormat = GetParam();
    desc.framesInFlight = 2;
    auto target = engine::HeadlessTarget::create(ctx(), desc);
    ASSERT_TRUE(target) << target.error().message;
    auto& t = *target.value();
    EXPECT_EQ(t.framesInFlight(), 2u);

    const uint32_t frames = 7;
    for (uint32_t i = 0; i < frames; ++i) {
        auto f = t.beginFrame();
        ASSERT_TRUE(f) << f.error().message;
        EXPECT_FALSE(f->skipped);
        EXPECT_EQ(f->info.frameIndex, i);
        EXPECT_EQ(f->info.frameSlot, i % 2);
        EXPECT_EQ(f->extent.width, 67u);
        EXPECT_EQ(f->extent.height, 33u);
        EXPECT_EQ(f->colorFormat, GetParam());
        EXPECT_EQ(f->depthFormat, VK_FORMAT_D32_SFLOAT);
        EXPECT_EQ(f->colorFinalLayout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        recordClear(*f, colourOf(i));
        auto e = t.endFrame(clearEnd());
        ASSERT_TRUE(e) << e.error().message;
    }
    auto px = t.readbackPixels();
    ASSERT_TRUE(px) << px.error().message;
    ASSERT_EQ(px->size(), 67u * 33u * 4u);
    expectUniform(*px, colourOf(frames - 1), "last frame");

    const sieve::test::ScratchDir scratch("sieve_target");
    const std::string path = (scratch / "readback.png").string();
    auto r = t.readback(path);
    ASSERT_TRUE(r) << r.error().message;
    int w = 0, h = 0, n = 0;
    unsigned char* data = stbi_load(path.c_str(), &w, &h, &n, 4);
    ASSERT_NE(data, nullptr) << "PNG did not decode: " << path;
    EXPECT_EQ(w, 67);
    EXPECT_EQ(h, 33);
    std::vector<uint8_t> png(data, data + size_t(w) * h * 4);
    stbi_image_free(data);
    expectUniform(png, colourOf(frames - 1), "PNG");

    // The frame loop continues after a readback.
    auto f = t.beginFrame();
    ASSERT_TRUE(f) << f.error().message;
    recordClear(*f, colourOf(100));
    ASSERT_TRUE(t.endFrame(clearEnd()));
    auto px2 = t.readbackPixels();
    ASSERT_TRUE(px2);
    expectUniform(*px2, colourOf(100), "after readback");
}

TEST_P(HeadlessTargetTest, RequestedScreenshotIsWrittenWithoutStalling) {
    engine::HeadlessTargetDesc desc;
    desc.extent = {16, 9};
    desc.colorFormat = GetParam();
    auto target = engine::HeadlessTarget::create(ctx(), desc);
    ASSERT_TRUE(target) << target.error().message;
    auto& t = *target.value();
    const sieve::test::ScratchDir scratch("sieve_target");
    const std::string path = (scratch / "shot.png").string();
    for (uint32_t i = 0; i < 5; ++i) {
        auto f = t.beginFrame();
        ASSERT_TRUE(f) << f.error().message;
        recordClear(*f, colourOf(i));
        if (i == 2) t.requestScreenshot(path);
        ASSERT_TRUE(t.endFrame(clearEnd()));
    }
    // Frame 2's slot was waited for by frame 4's beginFrame: the PNG exists already.
    ASSERT_TRUE(std::filesystem::exists(path));
    int w = 0, h = 0, n = 0;
    unsigned char* data = stbi_load(path.c_str(), &w, &h, &n, 4);
    ASSERT_NE(data, nullptr);
    std::vector<uint8_t> png(data, data + size_t(w) * h * 4);
    stbi_image_free(data);
    EXPECT_EQ(w, 16);
    expectUniform(png, colourOf(2), "screenshot of frame 2");
    ASSERT_TRUE(t.finish());
}

TEST_F(GpuTest, HeadlessTargetRejectsBadDescriptions) {
    engine::HeadlessTargetDesc desc;
    desc.extent = {0, 10};
    EXPECT_FALSE(engine::HeadlessTarget::create(ctx(), desc));
    desc.extent = {10, 10};
    desc.colorFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
    EXPECT_FALSE(engine::HeadlessTarget::create(ctx(), desc));
}

TEST_F(GpuTest, HeadlessTargetFrameCallsOutOfOrderAreErrors) {
    auto target = engine::HeadlessTarget::create(ctx(), {});
    ASSERT_TRUE(target);
    auto& t = *target.value();
    EXPECT_FALSE(t.endFrame());
    std::vector<uint8_t> none;
    auto px = t.readbackPixels();
    ASSERT_TRUE(px);
    EXPECT_TRUE(px->empty());
    EXPECT_FALSE(t.readback("/nonexistent/never.png"));
}

// A frame whose recording failed (beginFrame, then an error, then the host's finish()) must not hang the
// host: the slot's fence was reset for a submission that never came. A 5 s watchdog turns a hang into a
// failure; after the abandoned frame the target renders on, and its first pixels are the abandoned
// frame's clear (black), not stale contents.
TEST_F(GpuTest, HeadlessTargetFinishAfterAFailedFrameReturns) {
    engine::HeadlessTargetDesc desc;
    desc.extent = {16, 8};
    desc.framesInFlight = 2;
    auto target = engine::HeadlessTarget::create(ctx(), desc);
    ASSERT_TRUE(target) << target.error().message;
    auto& t = *target.value();
    for (int round = 0; round < 3; ++round) {
        auto f = t.beginFrame();
        ASSERT_TRUE(f) << f.error().message;
        recordClear(*f, colourOf(5));  // half a frame, then the host gives up
        auto done = std::async(std::launch::async, [&] { return t.finish(); });
        ASSERT_EQ(done.wait_for(std::chrono::seconds(5)), std::future_status::ready)
            << "finish() hangs, round " << round;
        auto r = done.get();
        ASSERT_TRUE(r) << r.error().message;
        auto px = t.readbackPixels();
        ASSERT_TRUE(px) << px.error().message;
        ASSERT_FALSE(px->empty());
        EXPECT_EQ((*px)[0], 0);
        EXPECT_EQ((*px)[1], 0);
        EXPECT_EQ((*px)[2], 0);
        // A whole frame after it.
        auto g = t.beginFrame();
        ASSERT_TRUE(g) << g.error().message;
        recordClear(*g, colourOf(1));
        ASSERT_TRUE(t.endFrame(clearEnd()));
    }
    ASSERT_TRUE(t.finish());
}

INSTANTIATE_TEST_SUITE_P(Formats, HeadlessTargetTest,
                         ::testing::Values(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM));

}  // namespace
