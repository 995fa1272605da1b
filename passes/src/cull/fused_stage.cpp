// One phase of the fused culling pipeline (shaders/cull/fused.glsl): every view's test, the scan over
// (view, bin, instance) keys and the draw records of every stream in one dispatch. The early stage
// also starts the frame (frame_slots.cpp). Chosen by CullingConfig::fused on devices with 64-bit buffer
// atomics; the separate flag and compact stages remain for the others and for comparison.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/vk.h"
#include "cull/stage.h"
#include "shared/cull_fused.h"
#include "sieve/barriers.h"
#include "sieve/hiz.h"

namespace sieve::cull {

namespace {

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
constexpr VkBufferUsageFlags kTransferDst = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
constexpr const char* kEarlyBits = "cull.early.bits";
constexpr uint32_t kSpin = 2048;  // polls of a window before the fallback

// The four fused pipelines (phase x order) and the pyramid's sampler, shared by both stages.
struct FusedPipelines {
    ComputePipeline early[2], late[2];  // [0] stable, [1] atomic append
    NearestSampler sampler;

    static Result<FusedPipelines> create(const DeviceInfo& dev) {
        FusedPipelines p;
        auto sampler = NearestSampler::create(dev, "cull pyramid nearest (fused)");
        if (!sampler) return sampler.error();
        p.sampler = std::move(sampler).value();
        // Measurement only: SIEVE_FUSED_EXPERIMENT="STAGES,COUNTERS" (fused.glsl) leaves parts out.
        struct {
            uint32_t stages = 3, counters = 1;
        } experiment;
        if (const char* e = std::getenv("SIEVE_FUSED_EXPERIMENT"))
            std::sscanf(e, "%u,%u", &experiment.stages, &experiment.counters);
        // The look-back's bounded wait only where workgroups may not all make progress (fused.glsl).
        const uint32_t fallback = dev.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? 1 : 0;
        for (uint32_t atomic = 0; atomic < 2; ++atomic) {
            const uint32_t spec[] = {atomic, kSpin, fallback, experiment.stages, experiment.counters};
            auto e = ComputePipeline::create(dev, {"cull/fused_early.comp", sizeof(gpu::CullFusedPush), spec});
            if (!e) return e.error();
            auto l = ComputePipeline::create(dev, {"cull/fused_late.comp", sizeof(gpu::CullFusedPush), spec});
            if (!l) return l.error();
            p.early[atomic] = std::move(e).value();
            p.late[atomic] = std::move(l).value();
        }
        return p;
    }
};

uint32_t maxTiles(uint32_t maxInstances) {
    return (std::max(maxInstances, 1u) + gpu::SIEVE_FUSED_TILE - 1) / gpu::SIEVE_FUSED_TILE;
}
uint32_t maxTiles(const CullingConfig& c) {
    return maxTiles(c.maxInstances);
}

class FusedStage final : public Stage {
public:
    explicit FusedStage(Phase phase) : phase_(phase) {}

    Result<void> create(StageKit& kit) override {
        auto p = kit.shared<FusedPipelines>([&] { return FusedPipelines::create(kit.dev()); });
        if (!p) return p.error();
        pipelines_ = p.value();
        kit_ = &kit;
        return {};
    }

    // Streams this slot's dispatch may write: every view's in the early slot (which runs the full
    // single-phase test too), the main view's in the late one.
    uint32_t slotStreams(const StageKit& kit) const { return kit.phaseViews(phase_) * kit.config().binCount; }

    void declare(SlotTable& slots, const StageKit& kit) override {
        const CullingConfig& c = kit.config();
        if (phase_ == Phase::Early) {
            declareFrameSlots(slots, kit);
            // View 0's early flags, a bit per instance, for the late phase. Persistent: the single-phase
            // early pass binds it (the late shader) before anything wrote it this frame.
            slots.buffer(kEarlyBits, Lifetime::Persistent, VkDeviceSize(maxTiles(c)) * gpu::SIEVE_FUSED_TILE / 8,
                         kStorage);
        }
        slots.buffer(phaseSlot("cull.fused.status", phase_), Lifetime::Persistent,
                     fusedStatusBytes(c.maxInstances, slotStreams(kit)), kStorage | kTransferDst);
        declareStreamSlots(slots, kit, phase_);
    }

    PassDesc describe(SlotTable& slots) override {
        frame_ = requireFrameSlots(slots);
        instances_ = slots.require(CullingPlugin::kInstances);
        meshes_ = slots.require(CullingPlugin::kMeshes);
        primitives_ = slots.require(CullingPlugin::kPrimitives);
        pyramid_ = slots.require(CullingPlugin::kPyramid);
        bits_ = slots.require(kEarlyBits);
        status_ = slots.require(phaseSlot("cull.fused.status", phase_));
        draws_ = slots.require(phase_ == Phase::Early ? CullingPlugin::kDrawsEarly : CullingPlugin::kDrawsLate);
        counts_ = slots.require(phase_ == Phase::Early ? CullingPlugin::kCountsEarly : CullingPlugin::kCountsLate);
        slots_ = &slots;
        using namespace use;
        PassDesc d;
        d.name = std::string("cull.") + phaseName(phase_);
        // Both slots may run either shader (single phase runs the full test early): the union.
        d.uses = {uniformRead(frame_.params), storageRead(frame_.params), storageRead(instances_),
                  storageRead(meshes_),       storageRead(primitives_),   storageReadWrite(frame_.visibility),
                  sampledImage(pyramid_),     storageReadWrite(bits_),    storageReadWrite(frame_.counters),
                  storageWrite(frame_.state), storageReadWrite(status_),  transferWrite(status_),
                  storageWrite(draws_),       transferWrite(counts_),     storageWrite(counts_)};
        if (phase_ == Phase::Early) {
            d.uses.push_back(transferWrite(frame_.counters));
            d.uses.push_back(transferWrite(frame_.visibility));  // cleared on first use
        }
        return d;
    }

    Result<void> record(VkCommandBuffer cmd, const Bindings& b, const FrameState& f) override {
        if (phase_ == Phase::Early)
            if (auto r = recordFrameStart(cmd, b, f, *kit_, frame_, "cull.early"); !r) return r;
        // The late slot tests the main view (none in a single-phase frame, whose early slot runs the
        // late shader over every view).
        const bool late = phase_ == Phase::Late || f.singlePhase;
        const uint32_t views = phase_ == Phase::Early ? uint32_t(f.views.size()) : (f.singlePhase ? 0u : f.lateViews);
        const uint32_t bins = kit_->config().binCount;
        const uint32_t n = views ? f.instanceCount : 0u;
        // Statuses of memory the host just created: zero (epoch 0, silent), once.
        if (f.initPersistent) {
            vkCmdFillBuffer(cmd, b[status_].buffer, b[status_].offset, (*slots_)[status_].size,
                            0);  // its own bytes only
            transferToComputeBarrier(cmd);
        }
        // No tile writes the counts of inactive streams, nor any when there is nothing to cull.
        clearInactiveCounts(cmd, b[counts_], n ? views * bins : 0u, *kit_);
        if (n == 0) return {};
        ScopedLabel label(cmd, late ? "cull fused late" : "cull fused early");
        const uint32_t streams = views * bins;
        const gpu::CullFusedPush push{
            n, views, bins, maxTiles(kit_->config()), gpu::SIEVE_FUSED_ACCUMULATORS + slotStreams(*kit_), 0, 0, 0};
        const uint32_t order = f.stable ? 0 : 1;
        const ComputePipeline& p = late ? pipelines_->late[order] : pipelines_->early[order];
        auto r = [&](SlotId s) { return range(b, *slots_, s); };
        const uint32_t tiles = (n + gpu::SIEVE_FUSED_TILE - 1) / gpu::SIEVE_FUSED_TILE;
        // The early shader declares no pyramid and no state (bindings 11, 12): pushing skips them.
        p.dispatchLinear(
            cmd,
            {Binding::uniform(viewsRange(b, f, *kit_, frame_.params)), Binding::storage(r(instances_)),
             Binding::storage(r(meshes_)), Binding::storage(r(primitives_)), Binding::storage(r(frame_.visibility)),
             Binding::storage(r(bits_)), Binding::storage(r(frame_.counters)),
             Binding::storage(streamTableRange(b, f, *kit_, frame_.params, streams)), Binding::storage(r(draws_)),
             Binding::storage(r(counts_)), Binding::storage(r(status_)),
             Binding::sampled(b[pyramid_].view, pipelines_->sampler.handle(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL),
             Binding::storage(r(frame_.state))},
            push, tiles);
        return {};
    }

private:
    Phase phase_;
    const FusedPipelines* pipelines_ = nullptr;
    const StageKit* kit_ = nullptr;
    const SlotTable* slots_ = nullptr;
    FrameSlots frame_;
    SlotId instances_{}, meshes_{}, primitives_{}, pyramid_{}, bits_{}, status_{}, draws_{}, counts_{};
};

}  // namespace

uint64_t fusedStatusBytes(uint32_t maxInstances, uint64_t streams) {
    // 64-bit words: the control pair, one record counter per stream, then maxTiles statuses per stream.
    return (gpu::SIEVE_FUSED_ACCUMULATORS + streams * (1 + uint64_t(maxTiles(maxInstances)))) * 8;
}

std::unique_ptr<Stage> makeFusedStage(Phase phase) {
    return std::make_unique<FusedStage>(phase);
}

}  // namespace sieve::cull
