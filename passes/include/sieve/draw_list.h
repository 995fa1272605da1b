#pragma once
// Builds a draw list from per-instance draw counts: the exclusive scan of the counts gives each visible
// instance its first slot, then every visible instance writes its mesh's primitives (at the LOD chosen
// by the flag pass) there, in instance order (shared/draw.h DrawCommand records). Capacity-bounded:
// nothing is written past `capacity` records; the count is clamped and the overflow recorded in
// DrawCounts. The atomic-append mode is the unordered peer kept for comparison only.
#include <vulkan/vulkan.h>

#include <cstdint>

#include "sieve/gpu.h"
#include "sieve/pipeline.h"
#include "sieve/prim/scan.h"
#include "sieve/result.h"

namespace sieve {

struct DrawListBuffers {
    BufferRange instances;   // gpu::Instance[n]
    BufferRange meshes;      // gpu::Mesh[]
    BufferRange primitives;  // gpu::MeshPrimitive[]
    BufferRange drawCounts;  // u32[n]: draws wanted per instance (0 = not visible)
    BufferRange lods;        // u32[n]: LOD per instance
    BufferRange offsets;     // u32[n]: written (exclusive scan of drawCounts); unused by the atomic mode
    BufferRange scratch;     // scratchBytes(m) for some m >= n; unused by the atomic mode
    BufferRange draws;       // DrawCommand[capacity]
    BufferRange counts;      // gpu::DrawCounts (16 bytes)
};

enum class DrawOrder : uint32_t { Stable = 0, AtomicAppend = 1 };

class DrawListBuilder {
public:
    static Result<DrawListBuilder> create(const DeviceInfo& dev, const prim::PrimOptions& scan = {});
    // Enough for every instance count up to n: size it once for the largest count.
    VkDeviceSize scratchBytes(uint64_t n) const { return scan_.scratchBytes(n); }
    const prim::Scan& scan() const { return scan_; }

    // Records the draw list of n instances, with the barriers between its own dispatches. Inputs are
    // read by compute shaders; `draws` and `counts` are written by compute shaders (and, in the atomic
    // mode, `counts` is first cleared by a transfer). maxDrawsPerInstance bounds the scanned sum.
    Result<void> record(VkCommandBuffer cmd, const DrawListBuffers& b, uint32_t n, uint32_t capacity,
                        uint32_t maxDrawsPerInstance, DrawOrder order) const;

    DrawListBuilder() = default;  // empty until create()

private:
    DeviceInfo dev_;
    prim::Scan scan_;
    ComputePipeline stable_;
    ComputePipeline atomic_;
    ComputePipeline finishAtomic_;
};

}  // namespace sieve
