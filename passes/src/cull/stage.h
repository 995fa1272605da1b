#pragma once
// The culling plugin's stages (core/stage.h: the model both plugins share): what each is created with
// (StageKit), what prepare() decided for the frame (FrameState), the slot names and helpers several
// culling stages share, and the stage factories, in pass order (culling_plugin.cpp lists them).
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/stage.h"
#include "shared/cull.h"
#include "sieve/culling.h"
#include "sieve/culling_tuning.h"

namespace sieve::cull {

// The shared machinery (core/stage.h), under the names the culling stages and their tests use.
using sieve::range;
using sieve::SlotTable;

enum class Phase : uint32_t { Early, Late };
inline const char* phaseName(Phase p) {
    return p == Phase::Early ? "early" : "late";
}

// What the plugin decided for this frame in prepare(); every stage reads the same.
struct FrameState {
    FrameInfo info;
    std::vector<gpu::CullParams> views;      // this frame's views, view 0 first (viewCount = views.size())
    std::vector<CullingViewStats> viewInfo;  // their names and kinds (counts empty)
    // The camera whose depth the pyramid the late test reads holds: views[0] when the pyramid is built this
    // frame, the camera of the frame that built it otherwise (single phase, freeze).
    gpu::CullParams occlusion{};
    uint32_t instanceCount = 0;
    bool check = false;        // the false-culling check runs this frame
    bool singlePhase = false;  // two-phase off: the early slot runs the full test, the late one nothing
    // Views the late slot culls (a prefix of `views`): none in a single-phase frame (the early slot runs
    // the full test of every view), else the main view alone: the others are SIEVE_CULL_EARLY views.
    uint32_t lateViews = 0;
    bool frozen = false;  // culling camera and pyramid kept
    bool stable = true;   // draw order by instance (false: atomic append)
    bool singleDispatchHiZ = true;
    CullLayout::LateSplit lateSplit = CullLayout::LateSplit::Off;  // CullingTuning::lateSplit, where declared
    // Persistent slots were (re)created and hold whatever memory the host gave: the first stage that
    // uses each clears it this frame.
    bool initPersistent = false;
};

// What every culling stage is created with: the device, the configuration, the streams, the stats, and
// (StageCache) the pipelines and helpers several stages share, created once per plugin on first request.
class StageKit : public StageCache {
public:
    // `streams`: every stream's records in the draw lists (checked by the plugin's create()).
    StageKit(const DeviceInfo& dev, const CullingConfig& config, const CullingTuning& tuning,
             std::vector<gpu::DrawStream> streams)
        : dev_(dev), config_(config), tuning_(tuning), streams_(std::move(streams)) {}
    const DeviceInfo& dev() const { return dev_; }
    const CullingConfig& config() const { return config_; }
    const CullingTuning& tuning() const { return tuning_; }
    CullingStats& stats() { return stats_; }
    uint32_t streamCount() const { return uint32_t(streams_.size()); }  // maxViews * binCount
    // Views a phase's per-(view, instance) and per-key arrays hold: every view early, the main view alone
    // late (the others are SIEVE_CULL_EARLY views; FrameState::lateViews <= 1).
    uint32_t phaseViews(Phase p) const { return p == Phase::Early ? config_.maxViews : 1u; }
    std::span<const gpu::DrawStream> streams() const { return streams_; }
    // Whether the draw counts are marked (CullingTuning::drawMarks): each flag stage declares its phase's marks
    // slot and the phase's compaction reads it.
    bool drawMarks() const {
        using M = CullingTuning::DrawMarks;
        return tuning_.drawMarks == M::On || (tuning_.drawMarks == M::Auto && config_.maxInstances >= kDrawMarksFrom);
    }
    // Records of one draw-list buffer (every stream).
    uint64_t drawRecords() const {
        return streams_.empty() ? 0 : uint64_t(streams_.back().base) + streams_.back().capacity;
    }
    // Bytes of one frame's parameters in cull.params: CullParams[maxViews], the occlusion camera (one
    // CullParams, FrameState::occlusion) at occlusionOffset(), then the stream table at streamTableOffset(),
    // the whole aligned to the device's storage and uniform offset alignments.
    VkDeviceSize occlusionOffset() const;
    VkDeviceSize streamTableOffset() const;
    VkDeviceSize paramsStride() const;

private:
    DeviceInfo dev_;
    CullingConfig config_;
    CullingTuning tuning_;
    std::vector<gpu::DrawStream> streams_;
    CullingStats stats_;
};

using Stage = sieve::Stage<StageKit, FrameState>;

// Slot names shared between stages.
inline constexpr const char* kParams = "cull.params";
inline constexpr const char* kVisibility = "cull.visibility";
inline constexpr const char* kCounters = "cull.counters";
inline constexpr const char* kCheckCount = "cull.check.count";
inline std::string phaseSlot(const char* base, Phase p) {
    return std::string(base) + "." + phaseName(p);
}
// The epoch a phase's flag pass marks its draw counts with and its compaction reads them by (shared/draw_push.h
// SIEVE_DRAW_MARK_KEYS): new every frame and phase, so the slot's earlier contents (transient memory) read as
// unmarked, or at worst cost a read. 0 only where the 32-bit count wraps: no marks that frame.
inline uint32_t drawMarkEpoch(const FrameState& f, Phase p) {
    return uint32_t(f.info.frameIndex) * 2u + uint32_t(p) + 1u;
}

// ---- What the first stage of a frame and the stream-writing stages share (frame_slots.cpp) ----

// The per-frame parameters, persistent visibility, counters and cull.state: declared by the first
// stage (the early flag stage), which starts every frame with recordFrameStart.
struct FrameSlots {
    SlotId params{}, visibility{}, counters{}, state{};
};
void declareFrameSlots(SlotTable& slots, const StageKit& kit);
FrameSlots requireFrameSlots(SlotTable& slots);
// Bytes of the cull.visibility slot (one u32 per view and instance).
VkDeviceSize visibilityBytes(const CullingConfig& config);
// Uploads the frame's views and stream table, clears the counters (and the visibility on first use),
// then a transfer -> compute barrier. `pass` names the pass in errors.
Result<void> recordFrameStart(VkCommandBuffer cmd, const Bindings& b, const FrameState& f, const StageKit& kit,
                              const FrameSlots& s, const char* pass);
// The frame's views (uniform) and its stream table (storage), from cull.params.
BufferRange viewsRange(const Bindings& b, const FrameState& f, const StageKit& kit, SlotId params);
BufferRange occlusionRange(const Bindings& b, const FrameState& f, const StageKit& kit, SlotId params);
BufferRange streamTableRange(const Bindings& b, const FrameState& f, const StageKit& kit, SlotId params,
                             uint32_t streams);
// draws.<phase> and counts.<phase>: every stream's records and counts.
void declareStreamSlots(SlotTable& slots, const StageKit& kit, Phase phase);
// The streams a phase does not write this frame ([active, streamCount)) read count 0: a fill and a
// transfer -> compute barrier (nothing when every stream is active).
void clearInactiveCounts(VkCommandBuffer cmd, const SlotBinding& counts, uint32_t active, const StageKit& kit);

// The stages, in pass order (culling_plugin.cpp lists them).
std::unique_ptr<Stage> makeFlagStage(Phase phase);
std::unique_ptr<Stage> makeCompactStage(Phase phase);
std::unique_ptr<Stage> makeHiZStage();
std::unique_ptr<Stage> makeCheckStage();
std::unique_ptr<Stage> makeStatsStage();

}  // namespace sieve::cull
