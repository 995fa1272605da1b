#pragma once
// Runs a compiled graph: owns its transient and persistent resources, and records each frame's passes
// with their barriers, a debug label and a pair of timestamps each. It never submits or waits: the host
// hands it a command buffer and says which frame slot it records (frames in flight are the host's).
#include <volk.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/graph/compile.h"
#include "engine/vk/resources.h"
#include "engine/vk/timestamps.h"

namespace engine {
class Context;
}

namespace engine::graph {

struct PassTiming {
    std::string name;
    double ms = 0.0;
};

class GraphExecutor {
public:
    // Allocates the used transient and persistent slots (persistent buffers are zeroed, persistent images
    // cleared and put in their entry layouts, once, here) and one timestamp query pool per frame in flight.
    static sieve::Result<std::unique_ptr<GraphExecutor>> create(Context& ctx, CompiledGraph graph,
                                                                uint32_t framesInFlight);
    // The host must have waited for the GPU to finish with the graph's resources.
    ~GraphExecutor();
    GraphExecutor(const GraphExecutor&) = delete;
    GraphExecutor& operator=(const GraphExecutor&) = delete;

    // Binds a host resource to an imported slot. A binding stays until replaced; every imported slot a
    // kept pass uses must be bound before execute().
    sieve::Result<void> bindImported(SlotId slot, const sieve::SlotBinding& binding);
    sieve::Result<void> bindImported(std::string_view name, const sieve::SlotBinding& binding);

    // Records the frame into `cmd`: resets frame.frameSlot's queries, then per pass a debug label, a
    // timestamp, the pass's barriers in one vkCmdPipelineBarrier2, its record callback, a timestamp; then
    // the end-of-frame barriers. Graphics passes begin their own rendering scope in their callback.
    sieve::Result<void> execute(VkCommandBuffer cmd, const sieve::FrameInfo& frame);

    // GPU time of each recorded pass of a frame slot whose work the host has waited for. Does not wait:
    // none if the results are not available (or nothing was recorded into that slot yet).
    std::optional<std::vector<PassTiming>> timings(uint32_t frameSlot) const;

    // Recreates a transient or persistent image at a new extent (same format and mip count; persistent
    // contents are cleared again). The GPU must be done with the old image.
    sieve::Result<void> resize(SlotId slot, VkExtent2D extent);

    const CompiledGraph& graph() const { return graph_; }
    SlotId slot(std::string_view name) const;  // kNoSlot if absent
    const sieve::SlotBinding& binding(SlotId slot) const { return bindings_.at(slot); }

    // Test-only: leaves out the barriers before the named pass, so that validation can prove it notices.
    void skipBarriersBeforePass(std::string_view name);

private:
    GraphExecutor(Context& ctx, CompiledGraph graph, uint32_t framesInFlight);
    sieve::Result<void> allocate(SlotId slot);
    sieve::Result<void> initializePersistent(const std::vector<SlotId>& slots);
    void issue(VkCommandBuffer cmd, const Barriers& barriers) const;

    Context& ctx_;
    CompiledGraph graph_;
    uint32_t framesInFlight_;
    std::vector<sieve::SlotBinding> bindings_;  // by slot: what the passes see
    std::vector<Buffer> buffers_;               // by slot, for owned buffers
    std::vector<Image> images_;                 // by slot, for owned images
    std::vector<bool> skipBarriers_;            // by compiled pass
    std::optional<GpuTimestamps> timestamps_;   // a scope per pass, a slot per frame in flight
};

}  // namespace engine::graph
