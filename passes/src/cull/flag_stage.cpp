// The visibility test of one phase (shaders/cull/flag_*.comp): frustum, occlusion against the Hi-Z
// pyramid, LOD; writes per-instance flags, draw counts and LODs. The early stage also owns the
// per-frame parameters, the persistent visibility and the counters, and starts the frame with them.
#include <cstring>

#include "core/vk.h"
#include "cull/stage.h"
#include "sieve/barriers.h"
#include "sieve/cull_flags.h"
#include "sieve/hiz.h"

namespace sieve::cull {

namespace {

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
constexpr VkBufferUsageFlags kTransferDst = VK_BUFFER_USAGE_TRANSFER_DST_BIT;

class FlagStage final : public Stage {
public:
    explicit FlagStage(Phase phase) : phase_(phase) {}

    Result<void> create(StageKit& kit) override {
        auto flags = kit.shared<CullFlagPass>([&] { return CullFlagPass::create(kit.dev()); });
        if (!flags) return flags.error();
        flags_ = flags.value();
        return {};
    }

    void declare(SlotTable& slots, const StageKit& kit) override {
        const VkDeviceSize perInstance = VkDeviceSize(std::max(kit.config().maxInstances, 1u)) * 4;
        if (phase_ == Phase::Early) {
            slots.buffer(kParams, Lifetime::Persistent, paramsStride(kit.dev()) * kit.config().framesInFlight,
                         VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, Memory::Upload);
            slots.buffer(kVisibility, Lifetime::Persistent, perInstance, kStorage | kTransferDst);
            slots.buffer(kCounters, Lifetime::Transient, sizeof(gpu::CullCounters),
                         kStorage | kTransferDst | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        }
        // The late flags are bound (not read) by the single-phase early pass before the late pass writes
        // them: a graph may not read a transient before it is written, so they persist.
        slots.buffer(phaseSlot("flags", phase_), phase_ == Phase::Late ? Lifetime::Persistent : Lifetime::Transient,
                     perInstance, kStorage);
        for (const char* base : {"drawcounts", "lods"})
            slots.buffer(phaseSlot(base, phase_), Lifetime::Transient, perInstance, kStorage);
        // Exported for debug views (shared/cull_state.h). Written by whichever slot runs the late test
        // (the early one in single phase), so it is declared once and persists like the late flags.
        if (phase_ == Phase::Late)
            slots.buffer(CullingPlugin::kInstanceState, Lifetime::Persistent, perInstance, kStorage);
    }

    PassDesc describe(SlotTable& slots) override {
        params_ = slots.require(kParams);
        instances_ = slots.require(CullingPlugin::kInstances);
        meshes_ = slots.require(CullingPlugin::kMeshes);
        primitives_ = slots.require(CullingPlugin::kPrimitives);
        visibility_ = slots.require(kVisibility);
        pyramid_ = slots.require(CullingPlugin::kPyramid);
        counters_ = slots.require(kCounters);
        flags_out_ = slots.require(phaseSlot("flags", phase_));
        drawCounts_ = slots.require(phaseSlot("drawcounts", phase_));
        lods_ = slots.require(phaseSlot("lods", phase_));
        // The late test reads the early flags; the single-phase early pass binds the late flags there.
        slots_ = &slots;
        otherFlags_ = slots.require(phaseSlot("flags", phase_ == Phase::Early ? Phase::Late : Phase::Early));
        state_ = slots.require(CullingPlugin::kInstanceState);

        using namespace use;
        PassDesc d;
        d.name = std::string("cull.") + phaseName(phase_) + ".flag";
        d.uses = {uniformRead(params_),     storageRead(instances_),       storageRead(meshes_),
                  storageRead(primitives_), storageReadWrite(visibility_), sampledImage(pyramid_),
                  storageRead(otherFlags_), storageWrite(flags_out_),      storageWrite(drawCounts_),
                  storageWrite(lods_),      storageReadWrite(counters_),   storageWrite(state_)};
        // Both slots may run either shader (single phase runs the full test early): the union above.
        if (phase_ == Phase::Early) {
            d.uses.push_back(transferWrite(counters_));
            d.uses.push_back(transferWrite(visibility_));  // cleared on first use
        }
        return d;
    }

    Result<void> record(VkCommandBuffer cmd, const Bindings& b, const FrameState& f) override {
        if (phase_ == Phase::Early) {
            auto* dst = static_cast<char*>(b[params_].mapped);
            if (!dst) return makeError(VK_ERROR_MEMORY_MAP_FAILED, "cull.early.flag: cull.params is not mapped");
            std::memcpy(dst + f.paramsStride * f.info.frameSlot, &f.params, sizeof(f.params));
            vkCmdFillBuffer(cmd, b[counters_].buffer, b[counters_].offset, sizeof(gpu::CullCounters), 0);
            // Last frame's visibility of memory the host just created means nothing: start from none.
            if (f.initPersistent) vkCmdFillBuffer(cmd, b[visibility_].buffer, b[visibility_].offset, VK_WHOLE_SIZE, 0);
            transferToComputeBarrier(cmd);
        }
        const BufferRange params{b[params_].buffer, b[params_].offset + f.paramsStride * f.info.frameSlot,
                                 sizeof(gpu::CullParams)};
        auto r = [&](SlotId s) { return range(b, *slots_, s); };
        CullPhaseBuffers buffers{params,        r(instances_),  r(meshes_), r(primitives_), r(visibility_),
                                 r(flags_out_), r(drawCounts_), r(lods_),   r(counters_)};
        const VkImageView pyramid = b[pyramid_].view;
        const VkImageLayout layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        if (phase_ == Phase::Early) {
            if (f.singlePhase)
                flags_->recordLate(cmd, buffers, r(otherFlags_), r(state_), pyramid, layout, f.instanceCount);
            else
                flags_->recordEarly(cmd, buffers, f.instanceCount);
        } else if (!f.singlePhase) {
            flags_->recordLate(cmd, buffers, r(otherFlags_), r(state_), pyramid, layout, f.instanceCount);
        }
        return {};
    }

private:
    Phase phase_;
    const CullFlagPass* flags_ = nullptr;
    const SlotTable* slots_ = nullptr;
    SlotId params_{}, instances_{}, meshes_{}, primitives_{}, visibility_{}, pyramid_{}, counters_{}, flags_out_{},
        drawCounts_{}, lods_{}, otherFlags_{}, state_{};
};

}  // namespace

std::unique_ptr<Stage> makeFlagStage(Phase phase) {
    return std::make_unique<FlagStage>(phase);
}

VkDeviceSize paramsStride(const DeviceInfo& dev) {
    const VkDeviceSize a = std::max<VkDeviceSize>(dev.limits.minUniformBufferOffsetAlignment, 1);
    return (sizeof(gpu::CullParams) + a - 1) / a * a;
}

}  // namespace sieve::cull
