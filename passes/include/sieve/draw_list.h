#pragma once
// Builds draw streams from per-(view, bin, instance) draw counts: one exclusive scan over all keys
// k = (view * binCount + bin) * N + i gives each visible (instance, bin) of each view its first slot in
// its stream, then every such key writes the instance's primitives of that bin (at the view's LOD
// chosen by the flag pass) there: every stream is in instance order, then primitive order (shared/
// draw.h DrawCommand records). Stream s = view * binCount + bin lives at records [base, base + capacity)
// of `draws` (shared/draw.h DrawStream) and has DrawCounts entry s of `counts`. Capacity-bounded:
// nothing is written past a stream's capacity; its count is clamped and the overflow recorded. The
// atomic-append mode is the unordered peer kept for comparison only.
// Where the device runs the single-pass scan (subgroup ballot and arithmetic; PrimOptions::tier Auto or
// SinglePass) the stable streams take one dispatch, the scan with the expansion folded in (`offsets` is not
// touched), whose look-back status is either `lookback`, kept zeroed between uses, or cleared in `scratch`
// first; elsewhere, or for shapes past one binding or 2^31 tile-aligned keys, the scan (prim::Scan) writes
// `offsets` and a second dispatch expands them.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>

#include "shared/draw_push.h"
#include "sieve/gpu.h"
#include "sieve/pipeline.h"
#include "sieve/prim/scan.h"
#include "sieve/result.h"

namespace sieve {

struct DrawListBuffers {
    BufferRange instances;   // gpu::Instance[n]
    BufferRange meshes;      // gpu::Mesh[]
    BufferRange primitives;  // gpu::MeshPrimitive[]
    BufferRange drawCounts;  // u32[keys]: draws wanted per key (0 = not visible)
    BufferRange lods;        // u32[views * n]: LOD per (view, instance)
    BufferRange offsets;     // u32[keys]: the exclusive scan of drawCounts where the scan is not folded in
    BufferRange scratch;     // scratchBytes(largest) for a shape at least this one's; unused by the atomic mode
    BufferRange draws;       // DrawCommand records, every stream's range inside
    BufferRange counts;      // gpu::DrawCounts[streams] (16 bytes each)
    BufferRange streams;     // gpu::DrawStream[streams]: base and capacity of each stream
    // Optional (null: the status lives in `scratch`, cleared by a dispatch before each use): the one-pass
    // list's look-back status, lookbackBytes(largest) zero-filled ONCE when allocated and then used by
    // nothing else (as PrimOptions::persistentLookback: each use advances an epoch that tags the statuses).
    BufferRange lookback{};
    // Optional (the one-pass stable list only; the other paths read every count): the draw marks the flag pass
    // set (CullPhaseBuffers::drawMarks, the same range) and the epoch it set them to (CullLayout::markEpoch). The
    // counts of a group of SIEVE_DRAW_MARK_KEYS keys whose mark is not `markEpoch` are taken as zeros, unread.
    // markEpoch 0: no marks. Marks must cover every key (else record() refuses).
    BufferRange drawMarks{};
    uint32_t markEpoch = 0;
};

// Bytes of the draw marks of `keys` keys (DrawListBuffers::drawMarks, CullPhaseBuffers::drawMarks).
inline VkDeviceSize drawMarkBytes(uint64_t keys) {
    return (keys + gpu::SIEVE_DRAW_MARK_KEYS - 1) / gpu::SIEVE_DRAW_MARK_KEYS * 4;
}

// keys = viewCount * binCount * instanceCount (at most 2^31); maxDrawsPerInstance bounds the draws of
// one instance in one view (over all bins).
struct DrawListShape {
    uint32_t instanceCount = 0;
    uint32_t viewCount = 1;
    uint32_t binCount = 1;
    uint32_t maxDrawsPerInstance = 1;
    uint64_t keys() const { return uint64_t(instanceCount) * viewCount * binCount; }
};

enum class DrawOrder : uint32_t { Stable = 0, AtomicAppend = 1 };

namespace detail {
class OnePassDrawList;
}

class DrawListBuilder {
public:
    static Result<DrawListBuilder> create(const DeviceInfo& dev, const prim::PrimOptions& scan = {});
    // Enough for every shape with at most `largest`'s instances, views and bins: size it once for the largest.
    VkDeviceSize scratchBytes(const DrawListShape& largest) const;
    const prim::Scan& scan() const { return scan_; }
    // The persistent look-back status (DrawListBuffers::lookback) of every shape up to `largest`; 0 where
    // the list never folds.
    VkDeviceSize lookbackBytes(const DrawListShape& largest) const;
    // Whether record() builds the stable streams of `shape` in one dispatch with these buffers' scratch
    // and look-back status (else scan, then expand).
    bool onePass(const DrawListShape& shape, const DrawListBuffers& b) const;

    // Records the streams, with the barriers between its own dispatches. Inputs are read by compute
    // shaders; `draws` and `counts` are written by compute shaders (and, in the atomic mode, `counts` is
    // first cleared by a transfer). Refuses an empty shape (no views or bins) and more keys than a scan
    // takes.
    Result<void> record(VkCommandBuffer cmd, const DrawListBuffers& b, const DrawListShape& shape,
                        DrawOrder order) const;

    DrawListBuilder();  // empty until create()
    DrawListBuilder(DrawListBuilder&&) noexcept;
    DrawListBuilder& operator=(DrawListBuilder&&) noexcept;
    ~DrawListBuilder();

private:
    DeviceInfo dev_;
    prim::Scan scan_;
    std::unique_ptr<detail::OnePassDrawList> onePass_;  // where the device runs the single-pass scan
    ComputePipeline stable_;
    ComputePipeline atomic_;
    ComputePipeline finishAtomic_;
};

}  // namespace sieve
