#include "gpu/gpu_fixture.h"
#include "shared/test_push.h"
#include "sieve/pipeline.h"

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
