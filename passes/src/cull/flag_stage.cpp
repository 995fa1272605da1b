// The visibility test of one phase for every view (shaders/cull/flag_*.comp): frustum, instance mask,
// occlusion against the Hi-Z pyramid (view 0), LOD; writes per-(view, instance) flags and LODs and
// per-(view, bin, instance) draw counts. The early stage also owns the per-frame parameters (views and
// the stream table), the persistent visibility and the counters, and starts the frame with them.
#include "core/vk.h"
#include "cull/stage.h"
#include "sieve/barriers.h"
#include "sieve/cull_flags.h"
#include "sieve/draw_list.h"
#include "sieve/hiz.h"

namespace sieve::cull {

namespace {

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

// The plugin was created with the split late pass's candidate list (CullingTuning::lateSplit).
bool splits(const StageKit& kit) {
    return kit.tuning().lateSplit != CullLayout::LateSplit::Off;
}

class FlagStage final : public Stage {
public:
    explicit FlagStage(Phase phase) : phase_(phase) {}

    Result<void> create(StageKit& kit) override {
        auto flags = kit.shared<CullFlagPass>([&] { return CullFlagPass::create(kit.dev()); });
        if (!flags) return flags.error();
        flags_ = flags.value();
        kit_ = &kit;
        return {};
    }

    void declare(SlotTable& slots, const StageKit& kit) override {
        const CullingConfig& c = kit.config();
        const VkDeviceSize n = std::max(c.maxInstances, 1u);
        const VkDeviceSize perView = n * kit.phaseViews(phase_) * 4;
        if (phase_ == Phase::Early) declareFrameSlots(slots, kit);
        // Each phase's flags are bound, not written (CullLayout::earlyFlags, lateFlags): nothing of the plugin
        // reads them. The late LODs are bound (not read) by the single-phase early pass before the late pass
        // writes them: a graph may not read a transient before it is written, so they persist. The late pass
        // reads the early LODs for the state of instances drawn early.
        slots.buffer(phaseSlot("flags", phase_), Lifetime::Transient, perView, kStorage);
        slots.buffer(phaseSlot("lods", phase_), phase_ == Phase::Late ? Lifetime::Persistent : Lifetime::Transient,
                     perView, kStorage);
        slots.buffer(phaseSlot("drawcounts", phase_), Lifetime::Transient, perView * c.binCount, kStorage);
        // One mark per SIEVE_DRAW_MARK_KEYS draw counts: the compaction reads only the marked groups' counts.
        if (kit.drawMarks())
            slots.buffer(phaseSlot("drawmarks", phase_), Lifetime::Transient,
                         std::max<VkDeviceSize>(drawMarkBytes(perView / 4 * c.binCount), 16), kStorage);
        // The split late pass's candidate list (CullLateBuffers::candidates), where the plugin was created with it
        // (CullingTuning::lateSplit): either phase's slot may run the late shader (single phase runs it early).
        if (splits(kit))
            slots.buffer(phaseSlot("candidates", phase_), Lifetime::Transient, cullCandidateBytes(uint32_t(n)),
                         kStorage | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    }

    PassDesc describe(SlotTable& slots) override {
        frame_ = requireFrameSlots(slots);
        params_ = frame_.params;
        visibility_ = frame_.visibility;
        counters_ = frame_.counters;
        state_ = frame_.state;
        instances_ = slots.require(CullingPlugin::kInstances);
        bounds_ = slots.require(CullingPlugin::kBounds);
        meshes_ = slots.require(CullingPlugin::kMeshes);
        primitives_ = slots.require(CullingPlugin::kPrimitives);
        pyramid_ = slots.require(CullingPlugin::kPyramid);
        flags_out_ = slots.require(phaseSlot("flags", phase_));
        drawCounts_ = slots.require(phaseSlot("drawcounts", phase_));
        if (kit_->drawMarks()) drawMarks_ = slots.require(phaseSlot("drawmarks", phase_));
        lods_ = slots.require(phaseSlot("lods", phase_));
        if (splits(*kit_)) candidates_ = slots.require(phaseSlot("candidates", phase_));
        // The late test reads the early LODs; the single-phase early pass binds the late ones.
        slots_ = &slots;
        const Phase other = phase_ == Phase::Early ? Phase::Late : Phase::Early;
        otherLods_ = slots.require(phaseSlot("lods", other));

        using namespace use;
        PassDesc d;
        d.name = std::string("cull.") + phaseName(phase_) + ".flag";
        d.uses = {uniformRead(params_),      storageRead(instances_),  storageRead(bounds_),
                  storageRead(meshes_),      storageRead(primitives_), storageReadWrite(visibility_),
                  sampledImage(pyramid_),    storageRead(otherLods_),  storageWrite(flags_out_),
                  storageWrite(drawCounts_), storageWrite(lods_),      storageReadWrite(counters_),
                  storageWrite(state_)};
        if (kit_->drawMarks()) d.uses.push_back(storageReadWrite(drawMarks_));
        if (splits(*kit_))
            for (const ResourceUse& u :
                 {storageReadWrite(candidates_), transferWrite(candidates_), indirectRead(candidates_)})
                d.uses.push_back(u);
        // Both slots may run either shader (single phase runs the full test early): the union above.
        if (phase_ == Phase::Early) {
            d.uses.push_back(transferWrite(counters_));
            d.uses.push_back(transferWrite(visibility_));  // cleared on first use
        }
        return d;
    }

    Result<void> record(VkCommandBuffer cmd, const Bindings& b, const FrameState& f) override {
        if (phase_ == Phase::Early)
            if (auto r = recordFrameStart(cmd, b, f, *kit_, frame_, "cull.early.flag"); !r) return r;
        const BufferRange params = viewsRange(b, f, *kit_, params_);
        auto r = [&](SlotId s) { return range(b, *slots_, s); };
        CullPhaseBuffers buffers{params,
                                 r(instances_),
                                 r(bounds_),
                                 r(meshes_),
                                 r(primitives_),
                                 r(visibility_),
                                 r(flags_out_),
                                 r(drawCounts_),
                                 r(lods_),
                                 r(counters_),
                                 kit_->drawMarks() ? r(drawMarks_) : BufferRange{}};
        const CullLateBuffers late{r(otherLods_),
                                   r(state_),
                                   b[pyramid_].view,
                                   VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                   occlusionRange(b, f, *kit_, params_),
                                   splits(*kit_) ? r(candidates_) : BufferRange{}};
        const uint32_t views = phase_ == Phase::Early ? uint32_t(f.views.size()) : f.lateViews;
        // No pass of the plugin reads the flags (the compactions read the draw counts, the late shader derives
        // the early flags). The state is written where the host asked for it or the false-culling check reads it
        // this frame.
        CullLayout layout{f.instanceCount, views, kit_->config().binCount};
        layout.lateFlags = false;
        layout.earlyFlags = false;
        layout.state = kit_->config().instanceState || f.check;
        layout.lateSplit = f.lateSplit;
        layout.markEpoch = kit_->drawMarks() ? drawMarkEpoch(f, phase_) : 0u;
        if (phase_ == Phase::Early) {
            if (f.singlePhase)
                flags_->recordLate(cmd, buffers, late, layout);
            else
                flags_->recordEarly(cmd, buffers, layout);
        } else if (!f.singlePhase) {
            flags_->recordLate(cmd, buffers, late, layout);
        }
        return {};
    }

private:
    Phase phase_;
    const CullFlagPass* flags_ = nullptr;
    const StageKit* kit_ = nullptr;
    const SlotTable* slots_ = nullptr;
    FrameSlots frame_;
    SlotId params_{}, instances_{}, bounds_{}, meshes_{}, primitives_{}, visibility_{}, pyramid_{}, counters_{},
        state_{}, flags_out_{}, drawCounts_{}, drawMarks_{}, lods_{}, otherLods_{}, candidates_{};
};

}  // namespace

std::unique_ptr<Stage> makeFlagStage(Phase phase) {
    return std::make_unique<FlagStage>(phase);
}

}  // namespace sieve::cull
