#include "gpu/gpu_fixture.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace testing_gpu {

engine::Context& context() {
    static std::unique_ptr<engine::Context> ctx = [] {
        engine::ContextDesc desc;
        desc.appName = "sieve-gpu-tests";
        desc.validation = true;
        desc.syncValidation = true;
        auto c = engine::Context::create(desc);
        if (!c) {
            std::fprintf(stderr, "GPU tests need a Vulkan 1.3 device with validation layers: %s\n",
                         c.error().message.c_str());
            std::exit(1);
        }
        std::printf("GPU tests on %s (subgroup size %u)\n", c.value()->properties().deviceName,
                    c.value()->info().subgroupSize);
        return std::move(c).value();
    }();
    return *ctx;
}

void GpuTest::copyOut(VkBuffer src, void* dst, VkDeviceSize bytes) {
    if (!bytes) return;
    auto staging = engine::Buffer::create(ctx(), bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback,
                                          "test readback");
    ASSERT_TRUE(staging) << staging.error().message;
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        VkMemoryBarrier2 m{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
        m.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        m.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
        m.dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
        m.dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT;
        VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        dep.memoryBarrierCount = 1;
        dep.pMemoryBarriers = &m;
        vkCmdPipelineBarrier2(cmd, &dep);
        VkBufferCopy copy{0, 0, bytes};
        vkCmdCopyBuffer(cmd, src, staging->handle(), 1, &copy);
        m.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
        m.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
        m.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
        m.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
        vkCmdPipelineBarrier2(cmd, &dep);
    });
    ASSERT_TRUE(r) << r.error().message;
    std::memcpy(dst, staging->mapped(), bytes);
}

}  // namespace testing_gpu
