// The false-culling check (debug, shaders/cull/check.glsl): after the frame's last draw, every instance
// view 0 culled by occlusion is re-tested against the final depth at full resolution; the count of
// those that show a pixel goes to the stats. Off (toggles().checkCulling false, or frozen culling): the
// count is cleared and nothing is dispatched.
#include "core/slot_uses.h"
#include "core/vk.h"
#include "cull/stage.h"
#include "shared/cull_bindings.h"
#include "sieve/barriers.h"
#include "sieve/gpu.h"
#include "sieve/pipeline.h"

namespace sieve::cull {

namespace {

class CheckStage final : public Stage {
public:
    Result<void> create(StageKit& kit) override {
        const bool ms = kit.config().depthSamples != VK_SAMPLE_COUNT_1_BIT;
        auto p = ComputePipeline::create(kit.dev(),
                                         {ms ? "cull/check_ms.comp" : "cull/check.comp", sizeof(gpu::CullCheckPush)});
        if (!p) return p.error();
        pipeline_ = std::move(p).value();
        auto sampler = NearestSampler::create(kit.dev(), "cull check depth");
        if (!sampler) return sampler.error();
        sampler_ = std::move(sampler).value();
        kit_ = &kit;
        return {};
    }

    void declare(SlotTable& slots, const StageKit&) override {
        slots.buffer(
            kCheckCount, Lifetime::Transient, 16,
            VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    }

    PassDesc describe(SlotTable& slots) override {
        params_ = slots.require(kParams);
        bounds_ = slots.require(CullingPlugin::kBounds);
        state_ = slots.require(CullingPlugin::kInstanceState);
        depth_ = slots.require(CullingPlugin::kDepth);
        count_ = slots.require(kCheckCount);
        slots_ = &slots;
        PassDesc d;
        d.name = "cull.check";
        d.uses = {use::transferWrite(count_)};  // cleared every frame
        appendUses(d.uses, bindings());
        return d;
    }

    Result<void> record(VkCommandBuffer cmd, const Bindings& b, const FrameState& f) override {
        vkCmdFillBuffer(cmd, b[count_].buffer, b[count_].offset, 16, 0);
        if (!f.check || f.instanceCount == 0) return {};
        transferToComputeBarrier(cmd);
        ScopedLabel label(cmd, "false-culling check");
        const VkExtent2D e = (*slots_)[depth_].extent;
        const BufferRange params{b[params_].buffer, b[params_].offset + kit_->paramsStride() * f.info.frameSlot,
                                 sizeof(gpu::CullParams)};
        auto set = bindSlots<gpu::SIEVE_CHECK_BINDINGS>(bindings(), b, *slots_, sampler_.handle());
        set[gpu::SIEVE_CHECK_VIEWS] = Binding::storage(params);  // this frame's
        pipeline_.dispatchLinear(cmd, set, gpu::CullCheckPush{f.instanceCount, e.width, e.height, 0},
                                 pipeline_.groupsFor(f.instanceCount));
        return {};
    }

private:
    // check.glsl's descriptors and their uses (shared/cull_bindings.h).
    std::array<SlotUse, 5> bindings() const {
        return {{{gpu::SIEVE_CHECK_VIEWS, params_, Access::Read},
                 {gpu::SIEVE_CHECK_BOUNDS, bounds_, Access::Read},
                 {gpu::SIEVE_CHECK_STATE, state_, Access::Read},
                 {gpu::SIEVE_CHECK_DEPTH, depth_, Access::DepthSampled},
                 {gpu::SIEVE_CHECK_RESULT, count_, Access::ReadWrite}}};
    }

    ComputePipeline pipeline_;
    NearestSampler sampler_;
    const StageKit* kit_ = nullptr;
    const SlotTable* slots_ = nullptr;
    SlotId params_{}, bounds_{}, state_{}, depth_{}, count_{};
};

}  // namespace

std::unique_ptr<Stage> makeCheckStage() {
    return std::make_unique<CheckStage>();
}

}  // namespace sieve::cull
