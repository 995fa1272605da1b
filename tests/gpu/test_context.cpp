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
