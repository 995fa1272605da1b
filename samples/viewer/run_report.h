#pragma once
// What a viewer run measures about itself and reports at its end: the GPU time of each frame (timestamps
// around the frame's whole command buffer), the default number of headless frames (enough for the last
// counts to show occlusion culling at work), whether the triangles are checked against the draw
// records, and the closing lines on stdout and in the stats JSON.
#include <cstdint>
#include <optional>
#include <string>

#include "engine/ui/frame_stats.h"
#include "engine/ui/stats_json.h"
#include "engine/vk/timestamps.h"
#include "options.h"

namespace viewer {

// The first frame whose culling counts show occlusion culling removing draws: frame 0 has no depth of
// an earlier frame (everything in the frustum is drawn late, against an empty pyramid), frame 1 draws
// frame 0's visible set early, and from frame 2 on the early phase draws only what frame 1 saw.
inline constexpr uint64_t kFirstOccludedFrame = 2;

// --headless-outputs DIR of a headless run: the screenshot and stats files there, unless named.
void applyHeadlessOutputs(ViewerOptions& options);

// Headless frames when --frames is not given: the counts of frame N reach the CPU framesInFlight frames
// later, so frame kFirstOccludedFrame's counts are the last read when the run has this many frames.
int defaultHeadlessFrames(uint32_t framesInFlight);

// Whether a headless run reads back its draw lists to count triangles (both lists of `drawCapacity`
// records per frame slot, at most 64 MiB in all: about 500,000 records a list with two frames in flight).
// Larger scenes report the pipeline-statistics query's count (triangles_source says which).
bool checkTrianglesFits(uint64_t drawCapacity, uint32_t framesInFlight);

// Timestamps around a frame's command buffer, one scope per frame slot.
class FrameGpuTimer {
public:
    static sieve::Result<FrameGpuTimer> create(engine::Context& ctx, uint32_t framesInFlight);
    void begin(VkCommandBuffer cmd, uint32_t slot);  // first in the frame's command buffer
    void end(VkCommandBuffer cmd, uint32_t slot);    // last, before the target's endFrame
    // After the slot's fence: its last frame's GPU milliseconds into `series`.
    void collect(uint32_t slot, engine::ui::RollingSeries& series) const;

private:
    explicit FrameGpuTimer(engine::GpuTimestamps t) : timestamps_(std::move(t)) {}
    engine::GpuTimestamps timestamps_;
};

engine::ui::RunSummary runSummary(const std::string& device, const engine::ui::OverlayModel& model, uint64_t frames);

// "frames: R rendered, S skipped; mean frame X ms GPU (timestamps), Y ms CPU" and, for counts of a
// frame before occlusion culling had started, a note saying so.
std::string closingLines(const engine::ui::OverlayModel& model, uint64_t rendered, uint64_t skipped,
                         uint32_t framesInFlight);

}  // namespace viewer
