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
        const sieve::DeviceInfo& info = c.value()->info();
        std::printf("GPU tests on %s (subgroup size %u, minimum %u)\n", c.value()->properties().deviceName,
                    info.subgroupSize, info.minSubgroupSize);
        // The subgroup matrix (ctest -L subgroups) says which size each run is for: a driver that ignored
        // LP_NATIVE_VECTOR_WIDTH would otherwise pass at the wrong size.
        if (const char* want = std::getenv("SIEVE_EXPECT_SUBGROUP_SIZE");
            want && std::strtoul(want, nullptr, 10) != info.subgroupSize) {
            std::fprintf(stderr, "GPU tests: subgroup size %u, but this run is for %s\n", info.subgroupSize, want);
            std::exit(1);
        }
        return std::move(c).value();
    }();
    return *ctx;
}

void GpuTest::copyOut(VkBuffer src, void* dst, VkDeviceSize bytes) {
    auto r = engine::readBuffer(ctx(), src, dst, bytes);
    ASSERT_TRUE(r) << r.error().message;
}

}  // namespace testing_gpu
