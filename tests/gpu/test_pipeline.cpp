#include "gpu/gpu_fixture.h"
#include "sieve/pipeline.h"

using testing_gpu::GpuTest;

namespace {
struct FillPush {
    uint32_t count, value;
};
const VkDescriptorType kOneStorage[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
}  // namespace

TEST_F(GpuTest, EmbeddedComputePipelineFillsBuffer) {
    auto pipe = sieve::ComputePipeline::create(ctx().info(), {"test/fill.comp", kOneStorage, sizeof(FillPush)});
    ASSERT_TRUE(pipe) << pipe.error().message;
    const uint32_t n = 1000;
    engine::Buffer out = makeEmpty(n * 4);
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        pipe->dispatchLinear(cmd, {sieve::Binding::storage(out.range())}, FillPush{n, 7}, (n + 63) / 64);
    });
    ASSERT_TRUE(r) << r.error().message;
    auto got = read<uint32_t>(out, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], 7 + i) << i;
}

TEST_F(GpuTest, LinearDispatchFoldsIntoTwoDimensionsBeyondTheGroupLimit) {
    auto pipe = sieve::ComputePipeline::create(ctx().info(), {"test/fill.comp", kOneStorage, sizeof(FillPush)});
    ASSERT_TRUE(pipe) << pipe.error().message;
    const uint32_t n = 64 * 37 + 5;  // 38 groups, folded with a limit of 5 into 5 x 8 (2 spare groups)
    engine::Buffer out = makeEmpty(n * 4);
    sieve::overrideMaxGroupsX(5);
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        pipe->dispatchLinear(cmd, {sieve::Binding::storage(out.range())}, FillPush{n, 1}, (n + 63) / 64);
    });
    sieve::overrideMaxGroupsX(0);
    ASSERT_TRUE(r) << r.error().message;
    auto got = read<uint32_t>(out, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], 1 + i) << i;
}

TEST_F(GpuTest, UnknownShaderIsAnError) {
    auto pipe = sieve::ComputePipeline::create(ctx().info(), {"no/such.comp", kOneStorage, 8});
    ASSERT_FALSE(pipe);
    EXPECT_NE(pipe.error().message.find("no/such.comp"), std::string::npos);
}
