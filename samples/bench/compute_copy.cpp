#include "compute_copy.h"

#include <algorithm>

#include "shared/prim_bindings.h"
#include "shared/prim_push.h"

namespace bench {

sieve::Result<ComputeCopy> ComputeCopy::create(const sieve::DeviceInfo& dev) {
    ComputeCopy c;
    const uint32_t spec[] = {kWorkgroup, kVectors, 0};  // shaders/prim/config.glsl: WG, ROUNDS, SUBGROUPS
    auto p = sieve::ComputePipeline::create(dev, {"prim/copy.comp", sizeof(sieve::gpu::CopyPush), spec});
    if (!p) return p.error();
    c.pipe_ = std::move(p).value();
    const uint64_t tileBytes = uint64_t(kTileWords) * 4;
    // Whole tiles per chunk, and at most 2^31 words so the word count fits the shader's uint.
    c.chunkBytes_ = std::max<uint64_t>(
        std::min<uint64_t>(dev.limits.maxStorageBufferRange, uint64_t(1) << 33) / tileBytes * tileBytes, tileBytes);
    return c;
}

void ComputeCopy::record(VkCommandBuffer cmd, VkBuffer src, VkBuffer dst, uint64_t bytes) const {
    for (uint64_t at = 0; at < bytes; at += chunkBytes_) {
        const uint64_t size = std::min(chunkBytes_, bytes - at);
        const uint32_t words = uint32_t(size / 4);
        const auto set = sieve::bindingsAt<sieve::gpu::SIEVE_COPY_BINDINGS>(
            {sieve::bindAt(sieve::gpu::SIEVE_COPY_SRC, sieve::Binding::storage({src, at, size})),
             sieve::bindAt(sieve::gpu::SIEVE_COPY_DST, sieve::Binding::storage({dst, at, size}))});
        pipe_.dispatchLinear(cmd, set, sieve::gpu::CopyPush{words}, uint32_t((words + kTileWords - 1) / kTileWords));
    }
}

}  // namespace bench
