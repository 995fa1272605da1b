#include "gpu/gpu_fixture.h"
#include "shared/prim_push.h"
#include "shared/test_push.h"
#include "shared/ui_push.h"
#include "sieve/graphics_pipeline.h"
#include "sieve/pipeline.h"
#include "sieve/spirv.h"

using testing_gpu::GpuTest;

using sieve::gpu::FillPush;

TEST_F(GpuTest, EmbeddedComputePipelineFillsBuffer) {
    auto pipe = sieve::ComputePipeline::create(ctx().info(), {"test/fill.comp", sizeof(FillPush)});
    ASSERT_TRUE(pipe) << pipe.error().message;
    const uint32_t n = 1000;
    engine::Buffer out = makeEmpty(n * 4);
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        pipe->dispatchLinear(cmd, {sieve::Binding::storage(out.range())}, FillPush{n, 7}, pipe->groupsFor(n));
    });
    ASSERT_TRUE(r) << r.error().message;
    auto got = read<uint32_t>(out, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], 7 + i) << i;
}

TEST_F(GpuTest, LinearDispatchFoldsIntoTwoDimensionsBeyondTheGroupLimit) {
    auto pipe = sieve::ComputePipeline::create(ctx().info(), {"test/fill.comp", sizeof(FillPush)});
    ASSERT_TRUE(pipe) << pipe.error().message;
    const uint32_t n = 64 * 37 + 5;  // 38 groups, folded with a limit of 5 into 5 x 8 (2 spare groups)
    engine::Buffer out = makeEmpty(n * 4);
    sieve::overrideMaxGroupsX(5);
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        pipe->dispatchLinear(cmd, {sieve::Binding::storage(out.range())}, FillPush{n, 1}, pipe->groupsFor(n));
    });
    sieve::overrideMaxGroupsX(0);
    ASSERT_TRUE(r) << r.error().message;
    auto got = read<uint32_t>(out, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], 1 + i) << i;
}

TEST_F(GpuTest, UnknownShaderIsAnError) {
    auto pipe = sieve::ComputePipeline::create(ctx().info(), {"no/such.comp", sizeof(FillPush)});
    ASSERT_FALSE(pipe);
    EXPECT_NE(pipe.error().message.find("no/such.comp"), std::string::npos);
}

TEST_F(GpuTest, PipelineTakesLayoutAndGroupSizeFromTheShader) {
    auto pipe = sieve::ComputePipeline::create(ctx().info(), {"test/fill.comp", sizeof(FillPush)});
    ASSERT_TRUE(pipe) << pipe.error().message;
    EXPECT_EQ(pipe->localSize(), (std::array<uint32_t, 3>{64, 1, 1}));  // local_size_x = 64 in fill.comp
    EXPECT_EQ(pipe->groupsFor(0), 0u);
    EXPECT_EQ(pipe->groupsFor(64), 1u);
    EXPECT_EQ(pipe->groupsFor(65), 2u);
    // Specialized local size (prim shaders: local_size_x_id = 0).
    const uint32_t spec[] = {128, 4, 0};
    auto copy = sieve::ComputePipeline::create(ctx().info(), {"prim/copy.comp", sizeof(sieve::gpu::CopyPush), spec});
    ASSERT_TRUE(copy) << copy.error().message;
    EXPECT_EQ(copy->localSize(), (std::array<uint32_t, 3>{128, 1, 1}));
}

TEST_F(GpuTest, PushSizeMismatchIsAnErrorNamingBothSizes) {
    auto pipe = sieve::ComputePipeline::create(ctx().info(), {"test/fill.comp", 12});
    ASSERT_FALSE(pipe);
    const std::string& m = pipe.error().message;
    EXPECT_NE(m.find("test/fill.comp"), std::string::npos) << m;
    EXPECT_NE(m.find("8 bytes"), std::string::npos) << m;
    EXPECT_NE(m.find("12"), std::string::npos) << m;
    auto none = sieve::ComputePipeline::create(ctx().info(), {"test/fill.comp", 0});
    EXPECT_FALSE(none);
}

TEST_F(GpuTest, MalformedSpirvIsAnErrorBeforeAnyVulkanCall) {
    auto words = sieve::embeddedSpirv("test/fill.comp");
    std::vector<uint32_t> cut(words.begin(), words.begin() + words.size() / 2);
    cut.back() = 0xffff0000u | (cut.back() & 0xffffu);  // an instruction running past the end
    auto pipe = sieve::ComputePipeline::createFromSpirv(ctx().info(), {"cut.comp", sizeof(FillPush)}, cut);
    ASSERT_FALSE(pipe);
    EXPECT_NE(pipe.error().message.find("cut.comp: SPIR-V"), std::string::npos) << pipe.error().message;
}

TEST_F(GpuTest, GraphicsPipelineReflectsBothStages) {
    // The push range is the vertex stage's only (imgui.frag declares none), sized by ImGuiPush; both
    // checks fail before any Vulkan object is made (a valid creation: ImGuiRenderer, IndirectCountDraw).
    sieve::GraphicsPipelineDesc d;
    d.vertexShader = "ui/imgui.vert";
    d.fragmentShader = "ui/imgui.frag";
    d.pushConstantBytes = sizeof(sieve::gpu::ImGuiPush) + 4;
    d.colorFormat = VK_FORMAT_R8G8B8A8_UNORM;
    auto bad = sieve::GraphicsPipeline::create(ctx().info(), d);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("ui/imgui.vert + ui/imgui.frag"), std::string::npos) << bad.error().message;
    d.fragmentShader = "ui/imgui.vert";
    auto wrongStage = sieve::GraphicsPipeline::create(ctx().info(), d);
    ASSERT_FALSE(wrongStage);
    EXPECT_NE(wrongStage.error().message.find("wrong shader stage"), std::string::npos);
}
