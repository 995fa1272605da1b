#pragma once
// The compute-shader copy peer of the prim benchmark (shaders/prim/copy.comp): 16-byte loads and stores,
// one tile per workgroup. vkCmdCopyBuffer is slow on some drivers (NVIDIA), so a primitive is also
// compared with this copy of the same bytes.
#include <volk.h>

#include <cstdint>

#include "sieve/gpu.h"
#include "sieve/pipeline.h"
#include "sieve/result.h"

namespace bench {

class ComputeCopy {
public:
    static sieve::Result<ComputeCopy> create(const sieve::DeviceInfo& dev);
    // Copies `bytes` (a multiple of 4) from the start of src to the start of dst, in chunks that fit
    // maxStorageBufferRange. No barriers: the caller orders it like any compute write.
    void record(VkCommandBuffer cmd, VkBuffer src, VkBuffer dst, uint64_t bytes) const;

private:
    static constexpr uint32_t kWorkgroup = 256, kVectors = 4, kTileWords = kWorkgroup * kVectors * 4;
    sieve::ComputePipeline pipe_;
    uint64_t chunkBytes_ = 0;
};

}  // namespace bench
