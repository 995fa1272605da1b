#pragma once
// What the viewer's pick (why was this instance culled?) reads back of a frame: the culling plugin's
// decision per instance (cull.state, shared/cull_state.h) and its Hi-Z pyramid, every mip, as the
// frame's late test read it. A graph pass after both are written copies them into a host buffer of the
// frame slot: the state by transfer, the pyramid by a compute dispatch per mip (ui/pick_pyramid.comp:
// the pyramid is not a transfer source). Off until armed (a copy of the whole pyramid per frame). Armed
// with the final depth as well (the false-culling check's input: whether the final depth shows a
// culled instance), the frame's depth after its last draw, by the same dispatch.
#include <volk.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "engine/graph/graph_desc.h"
#include "engine/vk/readback_slot.h"
#include "engine/vk/resources.h"
#include "sieve/hiz.h"
#include "sieve/pipeline.h"
#include "sieve/result.h"

namespace engine {
class Context;
}

namespace engine::ui {

class PickReadbackPass {
public:
    static sieve::Result<std::unique_ptr<PickReadbackPass>> create(Context& ctx, uint32_t framesInFlight);

    // Adds the pass "readback.pick" to `g`, after the writers of `state` (u32 per instance, `instances` of
    // them), `pyramid` (sieve::kHiZFormat) and `depth` (the frame's single-sample depth attachment).
    sieve::Result<void> addTo(graph::GraphBuilder& g, graph::SlotId state, graph::SlotId pyramid, graph::SlotId depth,
                              uint32_t instances);
    // Copies the frames recorded from now on (or stops), with their final depth or without.
    void arm(bool on, bool finalDepth = false) {
        armed_ = on;
        armDepth_ = on && finalDepth;
    }

    struct Frame {
        uint64_t frameIndex = 0;
        std::vector<uint32_t> state;  // per instance
        sieve::HiZPyramidCpu pyramid;
        VkExtent2D depthExtent{0, 0};  // 0 x 0: the final depth was not copied
        std::vector<float> depth;      // the final depth, row-major
    };
    // After the slot's fence: what the frame last recorded into it copied (none when not armed then).
    std::optional<Frame> read(uint32_t frameSlot) const;

    // Shader hot reload, in two steps (every new pipeline is built before any is replaced).
    sieve::Result<sieve::ComputePipeline> createPipeline() const;
    void replacePipeline(sieve::ComputePipeline p) { pipeline_ = std::move(p); }

private:
    PickReadbackPass(Context& ctx, uint32_t framesInFlight)
        : ctx_(ctx), slots_(framesInFlight), slotDepth_(framesInFlight, false) {}
    void record(VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo& frame);
    VkDeviceSize stateBytes() const { return VkDeviceSize(instances_) * sizeof(uint32_t); }
    VkDeviceSize stateRegion() const { return (stateBytes() + 7) & ~VkDeviceSize(7); }  // then the texels (vec2)
    void copyTexels(VkCommandBuffer cmd, const sieve::Binding& image, const sieve::Binding& out, VkExtent2D size,
                    uint32_t mip, uint64_t offset, bool after);

    using Slot = ReadbackSlot;
    bool fit(Slot& s, const sieve::FrameInfo& frame);
    Context& ctx_;
    sieve::ComputePipeline pipeline_;
    std::vector<Slot> slots_;
    std::vector<bool> slotDepth_;                       // whether the slot's frame copied the final depth
    std::vector<std::pair<uint64_t, Buffer>> retired_;  // (the frame that replaced it, the buffer)
    graph::SlotId state_ = sieve::kNoSlot, pyramid_ = sieve::kNoSlot, depth_ = sieve::kNoSlot;
    uint32_t instances_ = 0;
    std::vector<VkExtent2D> mips_;  // the pyramid's mip extents
    uint64_t texels_ = 0;           // over every mip
    VkExtent2D depthExtent_{0, 0};
    bool armed_ = false, armDepth_ = false;
};

}  // namespace engine::ui
