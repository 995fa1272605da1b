// The min/max depth pyramid of the host's depth (sieve/hiz.h): one dispatch, or one per mip.
#include "core/vk.h"
#include "cull/stage.h"
#include "sieve/barriers.h"
#include "sieve/hiz.h"

namespace sieve::cull {

namespace {

constexpr const char* kCounter = "hiz.counter";

class HiZStage final : public Stage {
public:
    Result<void> create(StageKit& kit) override {
        auto hiz = kit.shared<HiZBuilder>([&] { return HiZBuilder::create(kit.dev()); });
        if (!hiz) return hiz.error();
        hiz_ = hiz.value();
        return {};
    }

    void declare(SlotTable& slots, const StageKit& kit) override {
        const VkExtent2D depth = slots[slots.find(CullingPlugin::kDepth)].extent;
        const VkExtent2D pyramid = HiZBuilder::pyramidExtent(depth);
        slots.image(CullingPlugin::kPyramid, Lifetime::Persistent, kHiZFormat, pyramid, HiZBuilder::mipCount(pyramid),
                    kHiZUsage);
        slots.buffer(kCounter, Lifetime::Persistent, HiZBuilder::counterBytes(),
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    }

    PassDesc describe(SlotTable& slots) override {
        depth_ = slots.require(CullingPlugin::kDepth);
        pyramid_ = slots.require(CullingPlugin::kPyramid);
        counter_ = slots.require(kCounter);
        slots_ = &slots;
        using namespace use;
        PassDesc d;
        d.name = "hiz.build";
        d.uses = {depthSampled(depth_), storageImageWrite(pyramid_), transferWrite(counter_),
                  storageReadWrite(counter_)};
        return d;
    }

    Result<void> record(VkCommandBuffer cmd, const Bindings& b, const FrameState& f) override {
        // The single-dispatch builder counts finished workgroups in the counter and leaves it zero; memory
        // the host just created starts at whatever it holds.
        if (f.initPersistent) {
            vkCmdFillBuffer(cmd, b[counter_].buffer, b[counter_].offset, HiZBuilder::counterBytes(), 0);
            transferToComputeBarrier(cmd);
        }
        // Frozen: the pyramid of the frozen view stays (occlusion keeps testing against it).
        if (f.frozen) return {};
        // The graph leaves the pyramid in GENERAL for this pass (storage image write).
        const SlotDesc& depth = (*slots_)[depth_];
        HiZSource src{b[depth_].view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, depth.extent, uint32_t(depth.samples)};
        HiZTarget dst{b[pyramid_].image, b[pyramid_].mipViews};
        // The single dispatch where the device, the extent and the sample count allow it, else one
        // dispatch per mip: a toggle never asks for a path that fails every frame.
        return f.singleDispatchHiZ && hiz_->singlePassServes(src.extent, src.samples)
                   ? hiz_->recordSingle(cmd, src, dst, range(b, *slots_, counter_))
                   : hiz_->recordPerMip(cmd, src, dst);
    }

private:
    const HiZBuilder* hiz_ = nullptr;
    const SlotTable* slots_ = nullptr;
    SlotId depth_{}, pyramid_{}, counter_{};
};

}  // namespace

std::unique_ptr<Stage> makeHiZStage() {
    return std::make_unique<HiZStage>();
}

}  // namespace sieve::cull
