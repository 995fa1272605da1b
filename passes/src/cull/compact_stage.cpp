// The draw streams of one phase: one exclusive scan of the per-(view, bin, instance) draw counts and
// stable compaction into every stream's DrawCommand records (or atomic append, for comparison), with
// each stream's count and overflow. Where the list folds the two into one dispatch, its look-back status
// is a persistent slot that both phases share (each use advances its epoch), zeroed once when created.
#include "core/vk.h"
#include "cull/stage.h"
#include "prim/common.h"
#include "sieve/barriers.h"
#include "sieve/draw_list.h"

namespace sieve::cull {

namespace {

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
constexpr const char* kScratch = "scan.scratch";
constexpr const char* kLookback = "drawlist.lookback";

class CompactStage final : public Stage {
public:
    explicit CompactStage(Phase phase) : phase_(phase) {}

    Result<void> create(StageKit& kit) override {
        auto list = kit.shared<DrawListBuilder>(
            [&] { return DrawListBuilder::create(kit.dev(), prim::detail::forTransientScratch(kit.tuning().scan)); });
        if (!list) return list.error();
        list_ = list.value();
        kit_ = &kit;
        return {};
    }

    void declare(SlotTable& slots, const StageKit& kit) override {
        const DrawListShape largest{std::max(kit.config().maxInstances, 1u), kit.phaseViews(phase_),
                                    kit.config().binCount, kit.config().maxDrawsPerInstance};
        const uint64_t keys = largest.keys();
        if (phase_ == Phase::Early) {
            slots.buffer(kScratch, Lifetime::Transient, std::max<VkDeviceSize>(list_->scratchBytes(largest), 16),
                         kStorage);
            slots.buffer(kLookback, Lifetime::Persistent, std::max<VkDeviceSize>(list_->lookbackBytes(largest), 16),
                         kStorage | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        }
        slots.buffer(phaseSlot("offsets", phase_), Lifetime::Transient, keys * 4, kStorage);
        declareStreamSlots(slots, kit, phase_);
    }

    PassDesc describe(SlotTable& slots) override {
        params_ = slots.require(kParams);
        instances_ = slots.require(CullingPlugin::kInstances);
        meshes_ = slots.require(CullingPlugin::kMeshes);
        primitives_ = slots.require(CullingPlugin::kPrimitives);
        drawCounts_ = slots.require(phaseSlot("drawcounts", phase_));
        const bool marks = kit_->drawMarks();
        if (marks) drawMarks_ = slots.require(phaseSlot("drawmarks", phase_));
        lods_ = slots.require(phaseSlot("lods", phase_));
        offsets_ = slots.require(phaseSlot("offsets", phase_));
        scratch_ = slots.require(kScratch);
        lookback_ = slots.require(kLookback);
        draws_ = slots.require(phase_ == Phase::Early ? CullingPlugin::kDrawsEarly : CullingPlugin::kDrawsLate);
        counts_ = slots.require(phase_ == Phase::Early ? CullingPlugin::kCountsEarly : CullingPlugin::kCountsLate);
        slots_ = &slots;
        using namespace use;
        PassDesc d;
        d.name = std::string("cull.") + phaseName(phase_) + ".compact";
        d.uses = {storageRead(params_),       storageRead(instances_),    storageRead(meshes_),
                  storageRead(primitives_),   storageRead(drawCounts_),   storageRead(lods_),
                  storageReadWrite(offsets_), storageReadWrite(scratch_), storageWrite(draws_),
                  transferWrite(counts_),     storageReadWrite(counts_),  storageReadWrite(lookback_)};
        if (marks) d.uses.push_back(storageRead(drawMarks_));
        if (phase_ == Phase::Early) d.uses.push_back(transferWrite(lookback_));              // zeroed when created
        if (!kit_->dev().drawIndirectCount()) d.uses.push_back(use::transferWrite(draws_));  // the padding
        return d;
    }

    Result<void> record(VkCommandBuffer cmd, const Bindings& b, const FrameState& f) override {
        // In single phase the late slot has no flags this frame: empty streams.
        const uint32_t n = (phase_ == Phase::Late && f.singlePhase) ? 0 : f.instanceCount;
        const CullingConfig& c = kit_->config();
        // The late slot's streams of the views it does not cull (the EARLY views; all of them in a
        // single-phase frame), and those of views past this frame's count, hold nothing.
        const uint32_t views = phase_ == Phase::Early ? uint32_t(f.views.size()) : f.lateViews;
        const uint32_t active = views * c.binCount;
        const SlotTable& s = *slots_;
        // Without drawIndirectCount the host draws every record up to the capacity: the ones past the
        // counts must be empty (instanceCount 0), so the lists start zeroed.
        if (!kit_->dev().drawIndirectCount()) {
            vkCmdFillBuffer(cmd, b[draws_].buffer, b[draws_].offset, s[draws_].size, 0);
            transferToComputeBarrier(cmd);
        }
        clearInactiveCounts(cmd, b[counts_], active, *kit_);
        if (phase_ == Phase::Early && f.initPersistent) {
            vkCmdFillBuffer(cmd, b[lookback_].buffer, b[lookback_].offset, s[lookback_].size, 0);
            transferToComputeBarrier(cmd);
        }
        const BufferRange streams = streamTableRange(b, f, *kit_, params_, active);
        DrawListBuffers buffers{range(b, s, instances_),  range(b, s, meshes_),
                                range(b, s, primitives_), range(b, s, drawCounts_),
                                range(b, s, lods_),       range(b, s, offsets_),
                                range(b, s, scratch_),    range(b, s, draws_),
                                range(b, s, counts_),     streams,
                                range(b, s, lookback_)};
        if (kit_->drawMarks()) {
            buffers.drawMarks = range(b, s, drawMarks_);
            buffers.markEpoch = drawMarkEpoch(f, phase_);
        }
        if (views == 0) return {};
        const DrawListShape shape{n, views, c.binCount, c.maxDrawsPerInstance};
        return list_->record(cmd, buffers, shape, f.stable ? DrawOrder::Stable : DrawOrder::AtomicAppend);
    }

private:
    Phase phase_;
    const DrawListBuilder* list_ = nullptr;
    const StageKit* kit_ = nullptr;
    const SlotTable* slots_ = nullptr;
    SlotId params_{}, instances_{}, meshes_{}, primitives_{}, drawCounts_{}, drawMarks_{}, lods_{}, offsets_{},
        scratch_{}, draws_{}, counts_{}, lookback_{};
};

}  // namespace

std::unique_ptr<Stage> makeCompactStage(Phase phase) {
    return std::make_unique<CompactStage>(phase);
}

}  // namespace sieve::cull
