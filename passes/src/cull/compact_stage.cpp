// The draw list of one phase: exclusive scan of the per-instance draw counts and stable compaction into
// DrawCommand records (or atomic append, for comparison), with the count and overflow.
#include "cull/stage.h"
#include "sieve/draw_list.h"

namespace sieve::cull {

namespace {

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
constexpr const char* kScratch = "scan.scratch";

class CompactStage final : public Stage {
public:
    explicit CompactStage(Phase phase) : phase_(phase) {}

    Result<void> create(StageKit& kit) override {
        auto list = kit.shared<DrawListBuilder>([&] { return DrawListBuilder::create(kit.dev(), kit.config().scan); });
        if (!list) return list.error();
        list_ = list.value();
        capacity_ = uint32_t(kit.drawCapacity());  // checked against the device by CullingPlugin::create
        maxDrawsPerInstance_ = kit.config().maxDrawsPerInstance;
        return {};
    }

    void declare(SlotTable& slots, const StageKit& kit) override {
        const uint64_t n = kit.config().maxInstances;
        if (phase_ == Phase::Early)
            slots.buffer(kScratch, Lifetime::Transient, std::max<VkDeviceSize>(list_->scratchBytes(n), 16), kStorage);
        slots.buffer(phaseSlot("offsets", phase_), Lifetime::Transient, std::max<uint64_t>(n, 1) * 4, kStorage);
        const VkBufferUsageFlags drawUsage =
            kStorage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
        slots.buffer(phase_ == Phase::Early ? CullingPlugin::kDrawsEarly : CullingPlugin::kDrawsLate,
                     Lifetime::Transient, VkDeviceSize(capacity_) * sizeof(gpu::DrawCommand), drawUsage);
        slots.buffer(phase_ == Phase::Early ? CullingPlugin::kCountsEarly : CullingPlugin::kCountsLate,
                     Lifetime::Transient, sizeof(gpu::DrawCounts), drawUsage | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    }

    PassDesc describe(SlotTable& slots) override {
        instances_ = slots.require(CullingPlugin::kInstances);
        meshes_ = slots.require(CullingPlugin::kMeshes);
        primitives_ = slots.require(CullingPlugin::kPrimitives);
        drawCounts_ = slots.require(phaseSlot("drawcounts", phase_));
        lods_ = slots.require(phaseSlot("lods", phase_));
        offsets_ = slots.require(phaseSlot("offsets", phase_));
        scratch_ = slots.require(kScratch);
        draws_ = slots.require(phase_ == Phase::Early ? CullingPlugin::kDrawsEarly : CullingPlugin::kDrawsLate);
        counts_ = slots.require(phase_ == Phase::Early ? CullingPlugin::kCountsEarly : CullingPlugin::kCountsLate);
        slots_ = &slots;
        using namespace use;
        PassDesc d;
        d.name = std::string("cull.") + phaseName(phase_) + ".compact";
        d.uses = {storageRead(instances_),    storageRead(meshes_), storageRead(primitives_),
                  storageRead(drawCounts_),   storageRead(lods_),   storageReadWrite(offsets_),
                  storageReadWrite(scratch_), storageWrite(draws_), transferWrite(counts_),
                  storageReadWrite(counts_)};
        return d;
    }

    Result<void> record(VkCommandBuffer cmd, const Bindings& b, const FrameState& f) override {
        // In single phase the late slot has no flags this frame: an empty list.
        const uint32_t n = (phase_ == Phase::Late && f.singlePhase) ? 0 : f.instanceCount;
        const SlotTable& s = *slots_;
        DrawListBuffers buffers{range(b, s, instances_),  range(b, s, meshes_), range(b, s, primitives_),
                                range(b, s, drawCounts_), range(b, s, lods_),   range(b, s, offsets_),
                                range(b, s, scratch_),    range(b, s, draws_),  range(b, s, counts_)};
        return list_->record(cmd, buffers, n, capacity_, maxDrawsPerInstance_,
                             f.stable ? DrawOrder::Stable : DrawOrder::AtomicAppend);
    }

private:
    Phase phase_;
    const DrawListBuilder* list_ = nullptr;
    const SlotTable* slots_ = nullptr;
    uint32_t capacity_ = 0, maxDrawsPerInstance_ = 1;
    SlotId instances_{}, meshes_{}, primitives_{}, drawCounts_{}, lods_{}, offsets_{}, scratch_{}, draws_{}, counts_{};
};

}  // namespace

std::unique_ptr<Stage> makeCompactStage(Phase phase) {
    return std::make_unique<CompactStage>(phase);
}

}  // namespace sieve::cull
