#pragma once
// Cascaded shadow maps on the reference render graph: each cascade is a culling-plugin view (frustum
// only, shadow casters, culled by the early pass: engine/scene/cascades.h); shadow.draw draws every
// cascade's stream depth-only into its square of one depth atlas, and shadow.copy puts the cascades'
// matrices and the atlas's texels into the buffer the default geometry pass shades with
// (shared/shadow.h). Both run after cull.early.compact, before draw.early.
#include <memory>
#include <vector>

#include "engine/graph/graph_desc.h"
#include "engine/scene/cascades.h"
#include "engine/vk/context.h"
#include "shared/shadow.h"
#include "sieve/culling.h"
#include "sieve/graphics_pipeline.h"

namespace engine {

class ShadowPass {
public:
    // cascades 1..4 (SIEVE_MAX_CASCADES), mapSize texels per cascade side.
    static sieve::Result<std::unique_ptr<ShadowPass>> create(Context& ctx, uint32_t cascades, uint32_t mapSize);
    uint32_t cascades() const { return count_; }
    // Shader hot reload: the depth pipeline from the current embedded SPIR-V, then swapped in.
    static sieve::Result<sieve::GraphicsPipeline> createPipeline(Context& ctx);
    void replacePipeline(sieve::GraphicsPipeline p) { pipeline_ = std::move(p); }

    // Fits the cascades to the camera (its view and reverse-Z perspective projection) and the casters'
    // bounds; views() are the plugin views of this frame (views 1..cascades of the plugin).
    void update(const glm::mat4& view, const glm::mat4& proj, glm::vec3 sceneMin, glm::vec3 sceneMax);
    const std::vector<sieve::CullView>& views() const { return views_; }

    struct Slots {
        graph::SlotId drawsEarly, countsEarly, instances, vertices, indices;
    };
    // Adds shadow.draw and shadow.copy; returns the slot of the shadow buffer (read by the draw passes
    // in the fragment shader). `plugin` gives the cascades' streams (views firstView.. of it).
    graph::SlotId addTo(graph::GraphBuilder& g, const Slots& s, const sieve::CullingPlugin& plugin, uint32_t firstView);

private:
    ShadowPass() = default;
    void recordDraw(VkCommandBuffer cmd, const sieve::Bindings& b) const;
    void recordCopy(VkCommandBuffer cmd, const sieve::Bindings& b) const;

    sieve::GraphicsPipeline pipeline_;
    const sieve::DeviceInfo* dev_ = nullptr;  // the context's (drawStream: count draws or not)
    uint32_t count_ = 0, mapSize_ = 0;
    std::vector<Cascade> fitted_;
    std::vector<sieve::CullView> views_;
    sieve::gpu::ShadowCascades header_{};
    Slots slots_{};
    graph::SlotId atlas_ = sieve::kNoSlot, buffer_ = sieve::kNoSlot;
    std::vector<sieve::StreamRange> streams_;  // cascade k, bin b at k * bins_ + b
    uint32_t bins_ = 1;
};

}  // namespace engine
