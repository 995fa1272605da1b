#pragma once
// Reduction of a u32 array (sum) or an f32 array (min, max) to one value on the GPU. Levels of one
// workgroup per tile, repeated until one value is left; lanes past the end hold the identity (0, +inf,
// -inf). Inputs are assumed finite and free of NaN.
#include <vulkan/vulkan.h>

#include <cstdint>

#include "sieve/gpu.h"
#include "sieve/pipeline.h"
#include "sieve/prim/bound.h"
#include "sieve/prim/config.h"
#include "sieve/result.h"

namespace sieve::prim {

enum class ReduceOp : uint32_t { SumU32 = 0, MinF32 = 1, MaxF32 = 2 };

class Reduce {
public:
    static Result<Reduce> create(const DeviceInfo& dev, ReduceOp op, const PrimOptions& options = {});

    ReduceOp op() const { return op_; }
    // The answer for an empty input (0, +inf, -inf) as raw bits.
    uint32_t identityBits() const;
    // Scratch the caller allocates for `n` values (0 when n fits one tile); its offset must satisfy
    // minStorageBufferOffsetAlignment.
    VkDeviceSize scratchBytes(uint64_t n) const;

    // Records the reduction of input[0..n) into the 4 bytes at `output`, with compute -> compute
    // barriers between its own levels. Barriers before (input written elsewhere) and after (output read
    // elsewhere) are the caller's. For n == 0 nothing is recorded and the result is identityBits()
    // (answered on the host): the returned value says whether anything was recorded. SumU32 needs a
    // `bound` that fits u32.
    Result<bool> record(VkCommandBuffer cmd, BufferRange input, BufferRange output, BufferRange scratch, uint32_t n,
                        SumBound bound = {}) const;

private:
    DeviceInfo dev_;
    ReduceOp op_ = ReduceOp::SumU32;
    uint32_t tile_ = 0;
    ComputePipeline pipe_;
};

}  // namespace sieve::prim
