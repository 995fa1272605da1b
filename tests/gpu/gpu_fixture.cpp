#include "gpu/gpu_fixture.h"

#include <cstdio>
#include <cstdlib>

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
    auto r = engine::readBuffer(ctx(), src, dst, bytes);
    ASSERT_TRUE(r) << r.error().message;
}

}  // namespace testing_gpu
