// Counts of the frame into a readback ring, read framesInFlight frames later without waiting. A record is
// trusted only if this plugin wrote it (the frame it wrote is remembered on the CPU and tagged in the
// record), never because the host's memory happened to look valid.
#include <cstddef>
#include <vector>

#include "core/vk.h"
#include "cull/stage.h"
#include "sieve/barriers.h"

namespace sieve::cull {

namespace {

// One frame's record in the readback ring: tag, then the counters and both draw-list counts.
struct StatsRecord {
    uint32_t frameLo, frameHi, instances, valid;
    gpu::CullCounters counters;
    gpu::DrawCounts early;
    gpu::DrawCounts late;
};
static_assert(sizeof(StatsRecord) == 64);

constexpr const char* kStats = "cull.stats";
constexpr uint64_t kNever = UINT64_MAX;

class StatsStage final : public Stage {
public:
    Result<void> create(StageKit& kit) override {
        stats_ = &kit.stats();
        return {};
    }

    void declare(SlotTable& slots, const StageKit& kit) override {
        slots.buffer(kStats, Lifetime::Persistent, sizeof(StatsRecord) * kit.config().framesInFlight,
                     VK_BUFFER_USAGE_TRANSFER_DST_BIT, Memory::Readback);
        written_.assign(kit.config().framesInFlight, kNever);
    }

    PassDesc describe(SlotTable& slots) override {
        counters_ = slots.require(kCounters);
        early_ = slots.require(CullingPlugin::kCountsEarly);
        late_ = slots.require(CullingPlugin::kCountsLate);
        stats_slot_ = slots.require(kStats);
        using namespace use;
        PassDesc d;
        d.name = "cull.stats";
        d.sideEffect = true;
        d.uses = {transferRead(counters_), transferRead(early_), transferRead(late_), transferWrite(stats_slot_)};
        return d;
    }

    Result<void> record(VkCommandBuffer cmd, const Bindings& b, const FrameState& f) override {
        const uint32_t slot = f.info.frameSlot;
        if (f.initPersistent) written_.assign(written_.size(), kNever);
        auto* ring = static_cast<StatsRecord*>(b[stats_slot_].mapped);
        if (!ring) return makeError(VK_ERROR_MEMORY_MAP_FAILED, "cull.stats: the readback slot is not mapped");
        // Written framesInFlight frames ago; the host waited for that frame's fence before recording this one.
        const StatsRecord& r = ring[slot];
        const uint64_t tag = uint64_t(r.frameHi) << 32 | r.frameLo;
        if (written_[slot] != kNever && r.valid == 1 && tag == written_[slot]) {
            stats_->valid = true;
            stats_->frame = tag;
            stats_->instances = r.instances;
            stats_->frustumVisible = r.counters.frustumVisible;
            stats_->earlyDrawn = r.counters.earlyDrawn;
            stats_->lateVisible = r.counters.lateVisible;
            stats_->lateDrawn = r.counters.lateDrawn;
            stats_->early = r.early;
            stats_->late = r.late;
        }
        const VkDeviceSize base = b[stats_slot_].offset + sizeof(StatsRecord) * slot;
        const uint32_t header[4] = {uint32_t(f.info.frameIndex), uint32_t(f.info.frameIndex >> 32), f.instanceCount,
                                    1u};
        vkCmdUpdateBuffer(cmd, b[stats_slot_].buffer, base, sizeof(header), header);
        const VkBufferCopy counters{b[counters_].offset, base + offsetof(StatsRecord, counters),
                                    sizeof(gpu::CullCounters)};
        const VkBufferCopy early{b[early_].offset, base + offsetof(StatsRecord, early), sizeof(gpu::DrawCounts)};
        const VkBufferCopy late{b[late_].offset, base + offsetof(StatsRecord, late), sizeof(gpu::DrawCounts)};
        vkCmdCopyBuffer(cmd, b[counters_].buffer, b[stats_slot_].buffer, 1, &counters);
        vkCmdCopyBuffer(cmd, b[early_].buffer, b[stats_slot_].buffer, 1, &early);
        vkCmdCopyBuffer(cmd, b[late_].buffer, b[stats_slot_].buffer, 1, &late);
        // Make the copies visible to the host once the frame's fence is signalled.
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        written_[slot] = f.info.frameIndex;
        return {};
    }

private:
    CullingStats* stats_ = nullptr;
    std::vector<uint64_t> written_;  // frame recorded into each ring slot (kNever: none yet)
    SlotId counters_{}, early_{}, late_{}, stats_slot_{};
};

}  // namespace

std::unique_ptr<Stage> makeStatsStage() {
    return std::make_unique<StatsStage>();
}

}  // namespace sieve::cull
