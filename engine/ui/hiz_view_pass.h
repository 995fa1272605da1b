#pragma once
// The overlay's Hi-Z view as a render-graph pass: a compute dispatch that turns one mip of the culling
// plugin's min/max pyramid (RG32F) into grey levels in an RGBA8 image the ImGui renderer samples.
//
// Sync: the pass reads the pyramid as a sampled image after its writers (the graph orders it), writes its
// display image (an imported slot), and the graph leaves that image in SHADER_READ_ONLY_OPTIMAL, made
// visible to FRAGMENT_SHADER sampled reads: the overlay draws it later in the same command buffer. The
// next frame's write waits for those reads (the slot's initial state names the fragment stage).
#include <volk.h>

#include <memory>

#include "engine/graph/executor.h"
#include "engine/graph/graph_desc.h"
#include "engine/vk/resources.h"
#include "sieve/pipeline.h"
#include "sieve/result.h"

namespace engine {
class Context;
}

namespace engine::ui {

class HiZViewPass {
public:
    static sieve::Result<std::unique_ptr<HiZViewPass>> create(Context& ctx);

    // Adds the pass to `g`, after the passes that write `pyramid`, and (re)creates the display image for
    // the pyramid's extent. The GPU must be done with the previous display image.
    sieve::Result<void> addTo(graph::GraphBuilder& g, graph::SlotId pyramid);
    // Hands the display image over (to keep it alive while frames in flight still read it); the next
    // addTo creates a new one.
    Image releaseImage() {
        written_ = false;
        return std::move(display_);
    }
    // Binds the display image to the executor built from that graph.
    sieve::Result<void> bind(graph::GraphExecutor& executor) const;

    // What the next recorded frame shows; nothing is dispatched while `show` is false. nearPlane: of a
    // reverse-Z infinite perspective (distance = nearPlane / depth; 0: the depth itself is shown), range:
    // the distance shown black.
    void select(bool show, bool showMax, int mip, float nearPlane = 0.0f, float range = 1.0f);
    // The display image (an ImGui texture id) when the last recorded frame wrote it, else null.
    VkImageView texture() const { return written_ ? display_.view() : VK_NULL_HANDLE; }
    uint32_t mipCount() const { return mipCount_; }
    VkExtent2D pyramidExtent() const { return pyramidExtent_; }
    VkExtent2D displayExtent() const { return display_.extent(); }

    // Shader hot reload, in two steps so that a host can build every new pipeline before it replaces any.
    sieve::Result<sieve::ComputePipeline> createPipeline() const;
    void replacePipeline(sieve::ComputePipeline pipeline) { pipeline_ = std::move(pipeline); }

private:
    explicit HiZViewPass(Context& ctx) : ctx_(ctx) {}
    void record(VkCommandBuffer cmd, const sieve::Bindings& b);

    Context& ctx_;
    sieve::ComputePipeline pipeline_;
    Image display_;
    graph::SlotId pyramidSlot_ = sieve::kNoSlot, displaySlot_ = sieve::kNoSlot;
    VkExtent2D pyramidExtent_{0, 0};
    uint32_t mipCount_ = 0;
    bool show_ = false, showMax_ = false;
    int mip_ = 0;
    float nearPlane_ = 0.0f, range_ = 1.0f;
    bool written_ = false;
};

}  // namespace engine::ui
