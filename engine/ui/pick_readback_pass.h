#pragma once
// What the viewer's pick (why was this instance culled?) reads back of a frame: the culling plugin's
// decision per instance (cull.state, shared/cull_state.h) and its Hi-Z pyramid, every mip, as the
// frame's late test read it. A graph pass after both are written copies them into a host buffer of the
// frame slot: the state by transfer, the pyramid by a compute dispatch per mip (ui/pick_pyramid.comp:
// the pyramid is not a transfer source). Off until armed (a copy of the whole pyramid per frame).
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
    // them) and `pyramid` (sieve::kHiZFormat).
    sieve::Result<void> addTo(graph::GraphBuilder& g, graph::SlotId state, graph::SlotId pyramid, uint32_t instances);
    // Copies the frames recorded from now on (or stops).
    void arm(bool on) { armed_ = on; }

    struct Frame {
        uint64_t frameIndex = 0;
        std::vector<uint32_t> state;  // per instance
        sieve::HiZPyramidCpu pyramid;
    };
    // After the slot's fence: what the frame last recorded into it copied (none when not armed then).
    std::optional<Frame> read(uint32_t frameSlot) const;

    // Shader hot reload, in two steps (every new pipeline is built before any is replaced).
    sieve::Result<sieve::ComputePipeline> createPipeline() const;
    void replacePipeline(sieve::ComputePipeline p) { pipeline_ = std::move(p); }

private:
    PickReadbackPass(Context& ctx, uint32_t framesInFlight) : ctx_(ctx), slots_(framesInFlight) {}
    void record(VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo& frame);
    VkDeviceSize stateBytes() const { return VkDeviceSize(instances_) * sizeof(uint32_t); }
    VkDeviceSize stateRegion() const { return (stateBytes() + 7) & ~VkDeviceSize(7); }  // then the texels (vec2)

    using Slot = ReadbackSlot;
    bool fit(Slot& s, const sieve::FrameInfo& frame);
    Context& ctx_;
    sieve::ComputePipeline pipeline_;
    std::vector<Slot> slots_;
    std::vector<std::pair<uint64_t, Buffer>> retired_;  // (the frame that replaced it, the buffer)
    graph::SlotId state_ = sieve::kNoSlot, pyramid_ = sieve::kNoSlot;
    uint32_t instances_ = 0;
    std::vector<VkExtent2D> mips_;  // the pyramid's mip extents
    uint64_t texels_ = 0;           // over every mip
    bool armed_ = false;
};

}  // namespace engine::ui
