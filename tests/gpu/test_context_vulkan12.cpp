// The Vulkan 1.2 path of engine::Context (1.3 functionality from VK_KHR_synchronization2,
// VK_KHR_dynamic_rendering and VK_KHR_maintenance4), which RenderDoc 1.24's capture layer forces by
// reporting every device as 1.2. One test records what the code base uses from 1.3 (a compute dispatch,
// sync2 barriers, a dynamic-rendering clear, sync2 timestamps, vkQueueSubmit2) on the shared context; a
// second runs that test again in a child process with SIEVE_FORCE_VULKAN12=1, because the context's
// Vulkan entry points are process-wide (volk) and cannot be switched under the other tests.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "gpu/gpu_fixture.h"
#include "shared/test_push.h"
#include "sieve/graphics_pipeline.h"
#include "sieve/pipeline.h"

namespace {

using testing_gpu::GpuTest;

bool forcedVulkan12() {
    const char* v = std::getenv("SIEVE_FORCE_VULKAN12");
    return v && *v && std::string(v) != "0";
}

using sieve::gpu::FillPush;

void barrier(VkCommandBuffer cmd, const VkMemoryBarrier2* memory, const VkImageMemoryBarrier2* image) {
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.memoryBarrierCount = memory ? 1 : 0;
    dep.pMemoryBarriers = memory;
    dep.imageMemoryBarrierCount = image ? 1 : 0;
    dep.pImageMemoryBarriers = image;
    vkCmdPipelineBarrier2(cmd, &dep);
}

}  // namespace

TEST_F(GpuTest, Vulkan13FunctionalityComputeClearAndTimestamps) {
    const bool forced = forcedVulkan12();
    if (forced) {
        EXPECT_FALSE(ctx().core13());
    } else {
        EXPECT_EQ(ctx().core13(), ctx().properties().apiVersion >= VK_API_VERSION_1_3);
    }
    std::printf("context path: Vulkan %s\n", ctx().core13() ? "1.3 core" : "1.2 + KHR extensions");
    if (!ctx().core13()) {
        // What the code base calls goes to the extension functions the 1.2 path enabled.
        EXPECT_EQ(vkCmdPipelineBarrier2, vkCmdPipelineBarrier2KHR);
        EXPECT_EQ(vkQueueSubmit2, vkQueueSubmit2KHR);
        EXPECT_EQ(vkCmdWriteTimestamp2, vkCmdWriteTimestamp2KHR);
        EXPECT_EQ(vkCmdBeginRendering, vkCmdBeginRenderingKHR);
        EXPECT_EQ(vkCmdEndRendering, vkCmdEndRenderingKHR);
        EXPECT_NE(vkCmdPipelineBarrier2KHR, nullptr);
        EXPECT_NE(vkCmdBeginRenderingKHR, nullptr);
    }

    auto pipe = sieve::ComputePipeline::create(ctx().info(), {"test/fill.comp", sizeof(FillPush)});
    ASSERT_TRUE(pipe) << pipe.error().message;
    const uint32_t n = 333;
    engine::Buffer filled = makeEmpty(n * 4, 0, "vk12 fill");

    const VkExtent2D extent{13, 7};
    auto image = engine::Image::create(
        ctx(), {VK_FORMAT_R8G8B8A8_UNORM, extent, 1,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, "vk12 clear target"});
    ASSERT_TRUE(image) << image.error().message;
    engine::Buffer pixels = makeEmpty(extent.width * extent.height * 4, 0, "vk12 clear pixels");

    VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qi.queryCount = 2;
    VkQueryPool queries = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateQueryPool(ctx().device(), &qi, nullptr, &queries), VK_SUCCESS);
    vkResetQueryPool(ctx().device(), queries, 0, 2);

    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, queries, 0);
        pipe->dispatchLinear(cmd, {sieve::Binding::storage(filled.range())}, FillPush{n, 40}, pipe->groupsFor(n));

        VkImageMemoryBarrier2 toAttachment = testing_gpu::colorLayoutBarrier(
            image->handle(), VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
            VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        barrier(cmd, nullptr, &toAttachment);
        const VkRenderingAttachmentInfo color = sieve::renderingAttachment(
            image->view(), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_ATTACHMENT_LOAD_OP_CLEAR,
            VK_ATTACHMENT_STORE_OP_STORE, {.color = {{1.0f, 0.0f, 0.2f, 1.0f}}});
        sieve::beginRendering(cmd, extent, &color);
        vkCmdEndRendering(cmd);

        VkImageMemoryBarrier2 toCopy = testing_gpu::colorLayoutBarrier(
            image->handle(), VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
            VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        // The makeEmpty buffers were last written by nothing on the device; the fill's writes and the copy's
        // writes go to different buffers, so only the image needs ordering here.
        barrier(cmd, nullptr, &toCopy);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {extent.width, extent.height, 1};
        vkCmdCopyImageToBuffer(cmd, image->handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pixels.handle(), 1, &region);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 1);
    });
    ASSERT_TRUE(r) << r.error().message;

    std::array<uint64_t, 2> stamps{};
    VkResult qr = vkGetQueryPoolResults(ctx().device(), queries, 0, 2, sizeof(stamps), stamps.data(), sizeof(uint64_t),
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    vkDestroyQueryPool(ctx().device(), queries, nullptr);
    ASSERT_EQ(qr, VK_SUCCESS);
    EXPECT_LE(stamps[0], stamps[1]);

    auto got = read<uint32_t>(filled, n);
    ASSERT_EQ(got.size(), n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], 40 + i) << i;
    auto texels = read<uint32_t>(pixels, extent.width * extent.height);
    ASSERT_EQ(texels.size(), size_t(extent.width * extent.height));
    const uint32_t expected = 0xFF3300FFu;  // RGBA8 (255, 0, 51, 255), little-endian
    for (size_t i = 0; i < texels.size(); ++i) ASSERT_EQ(texels[i], expected) << "texel " << i;
}

// Runs the test above in a child process on the 1.2 path, with validation and synchronization validation;
// the child fails on any validation message (GpuTest::TearDown).
TEST(Vulkan12Path, ComputeClearAndTimestampsWithoutValidationMessages) {
    if (forcedVulkan12()) GTEST_SKIP() << "this process already runs on the forced 1.2 path";
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    ASSERT_EQ(self.find('\''), std::string::npos) << self;
    const std::string command = "SIEVE_FORCE_VULKAN12=1 SIEVE_SYNC_VALIDATION=1 '" + self +
                                "' --gtest_filter=GpuTest.Vulkan13FunctionalityComputeClearAndTimestamps 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    std::array<char, 4096> chunk;
    while (size_t got = std::fread(chunk.data(), 1, chunk.size(), pipe)) output.append(chunk.data(), got);
    const int status = pclose(pipe);
    ASSERT_TRUE(WIFEXITED(status)) << output;
    EXPECT_EQ(WEXITSTATUS(status), 0) << output;
    EXPECT_NE(output.find("context path: Vulkan 1.2 + KHR extensions"), std::string::npos) << output;
    EXPECT_NE(output.find("[  PASSED  ] 1 test."), std::string::npos) << output;
    EXPECT_EQ(output.find("[vulkan]"), std::string::npos) << output;
}
