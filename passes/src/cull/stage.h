#pragma once
// A stage of the culling plugin: one pass of the frame, in one file with its shaders. A stage declares
// the slots it owns (SlotTable), then its pass (name, uses) beside its record(), so that adding a stage
// touches its own file and one line of the plugin's list (culling_plugin.cpp).
#include <memory>
#include <span>
#include <string>
#include <typeindex>
#include <unordered_map>
#include <vector>

#include "shared/cull.h"
#include "sieve/culling.h"
#include "sieve/culling_tuning.h"

namespace sieve::cull {

enum class Phase : uint32_t { Early, Late };
inline const char* phaseName(Phase p) {
    return p == Phase::Early ? "early" : "late";
}

// The plugin's slots, found by name. Stages declare the slots they own and look up those of others.
class SlotTable {
public:
    SlotId buffer(std::string name, Lifetime life, VkDeviceSize size, VkBufferUsageFlags usage,
                  Memory memory = Memory::Device);
    SlotId image(std::string name, Lifetime life, VkFormat format, VkExtent2D extent, uint32_t mips,
                 VkImageUsageFlags usage, VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT);
    // kNoSlot when absent.
    SlotId find(std::string_view name) const;
    // A slot another stage must have declared (a programming error of the plugin otherwise: reported by
    // the plugin's create()).
    SlotId require(std::string_view name);
    const SlotDesc& operator[](SlotId s) const { return descs_[s]; }
    std::span<const SlotDesc> descs() const { return descs_; }
    const std::string& missing() const { return missing_; }
    void clear() {
        descs_.clear();
        missing_.clear();
    }

private:
    std::vector<SlotDesc> descs_;
    std::string missing_;
};

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
    // Persistent slots were (re)created and hold whatever memory the host gave: the first stage that
    // uses each clears it this frame.
    bool initPersistent = false;
};

// Pipelines and helpers several stages share, created once per plugin on first request.
class StageKit {
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
    // One T per plugin, made by `make` (returning Result<T>) on the first request.
    template <typename T, typename Make>
    Result<T*> shared(Make make) {
        auto it = shared_.find(std::type_index(typeid(T)));
        if (it != shared_.end()) return static_cast<T*>(it->second.get());
        auto made = make();
        if (!made) return made.error();
        auto owned = std::shared_ptr<void>(new T(std::move(made).value()), [](void* p) { delete static_cast<T*>(p); });
        T* raw = static_cast<T*>(owned.get());
        shared_.emplace(std::type_index(typeid(T)), std::move(owned));
        return raw;
    }

private:
    DeviceInfo dev_;
    CullingConfig config_;
    CullingTuning tuning_;
    std::vector<gpu::DrawStream> streams_;
    CullingStats stats_;
    std::unordered_map<std::type_index, std::shared_ptr<void>> shared_;
};

class Stage {
public:
    virtual ~Stage() = default;
    // Compiles what the stage records (through kit.shared for what other stages use too).
    virtual Result<void> create(StageKit& kit) = 0;
    // Declares the slots this stage owns; called for every stage, in order, before describe().
    virtual void declare(SlotTable& slots, const StageKit& kit) = 0;
    // The stage's pass: its name and every use of every slot any of its recordings binds.
    virtual PassDesc describe(SlotTable& slots) = 0;
    virtual Result<void> record(VkCommandBuffer cmd, const Bindings& b, const FrameState& frame) = 0;
};

// The range bound to slot s: imported tables are as large as the host made them, the declared size is
// a minimum.
// The range a stage binds for slot s: the host's size, or where it gave 0 ("the declared size") the
// declared size; for an imported table (instances, meshes, primitives: declared as their smallest valid
// size) 0 means the rest of the buffer, which is what a host binding a whole table means.
inline BufferRange range(const Bindings& b, const SlotTable& slots, SlotId s) {
    if (b[s].size) return {b[s].buffer, b[s].offset, b[s].size};
    return {b[s].buffer, b[s].offset, slots[s].lifetime == Lifetime::Imported ? VK_WHOLE_SIZE : slots[s].size};
}

// Slot names shared between stages.
inline constexpr const char* kParams = "cull.params";
inline constexpr const char* kVisibility = "cull.visibility";
inline constexpr const char* kCounters = "cull.counters";
inline constexpr const char* kCheckCount = "cull.check.count";
inline std::string phaseSlot(const char* base, Phase p) {
    return std::string(base) + "." + phaseName(p);
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
