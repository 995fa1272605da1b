#include <cstring>

#include "gpu/gpu_fixture.h"

using testing_gpu::GpuTest;

TEST_F(GpuTest, UploadAndReadBackRoundTrip) {
    std::vector<uint32_t> data(1000);
    for (uint32_t i = 0; i < data.size(); ++i) data[i] = i * 2654435761u;
    engine::Buffer b = makeBuffer(data);
    EXPECT_EQ(read<uint32_t>(b, data.size()), data);
}

TEST_F(GpuTest, AllocatorReusesFreedRanges) {
    auto before = ctx().allocator().blockBytes();
    for (int i = 0; i < 100; ++i) {
        engine::Buffer b = makeEmpty(1 << 20);
    }
    EXPECT_LE(ctx().allocator().blockBytes(), before + (64u << 20));
}

// Per-frame data the host writes and the GPU reads (the plugins' Upload slots): mapped, and what the host
// wrote is what the device copies out, whichever heap the allocator chose (device-local where offered).
TEST_F(GpuTest, StreamBuffersAreMappedAndReadByTheDevice) {
    std::vector<uint32_t> data(3000);
    for (uint32_t i = 0; i < data.size(); ++i) data[i] = i * 2246822519u + 7u;
    auto b = engine::Buffer::create(ctx(), data.size() * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                    engine::MemoryUsage::Stream, "test stream");
    ASSERT_TRUE(b) << b.error().message;
    ASSERT_NE(b->mapped(), nullptr);
    std::memcpy(b->mapped(), data.data(), data.size() * 4);
    EXPECT_EQ(read<uint32_t>(*b, data.size()), data);
}
