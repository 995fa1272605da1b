#pragma once
// The culling debug view's line pass: draws, over the finished scene, the bounding sphere of every
// instance the culling removed (coloured by the test: frustum red, occlusion magenta; read from the
// plugin's per-instance decision, CullingPlugin::kInstanceState) and the frozen culling frustum
// (yellow). Lines only, no depth test: what occlusion culled is behind something by definition.
//
// Sync: a graphics pass after the geometry passes; it reads the instance table and the decisions in the
// vertex shader and loads + stores the colour attachment (the graph orders it after draw.late, which
// wrote both).
#include <volk.h>

#include <array>
#include <glm/glm.hpp>
#include <memory>
#include <optional>

#include "engine/graph/graph_desc.h"
#include "sieve/graphics_pipeline.h"
#include "sieve/result.h"

namespace engine {
class Context;
}

namespace engine::ui {

// A camera as the host drew it: right-handed view space (looking down -Z), any projection.
struct FrozenCamera {
    glm::mat4 view{1.0f}, projection{1.0f};
};

// What the next recorded frame draws.
struct CullDebugFrame {
    bool bounds = false;                  // spheres of culled instances
    std::optional<FrozenCamera> frustum;  // the frozen culling camera, when shown
    glm::mat4 viewProj{1.0f};             // the view camera's
    uint32_t instanceCount = 0;
    // Distances in front of the frozen camera where the frustum's near and far faces are drawn (an
    // infinite far plane has no face of its own).
    float frustumNear = 0.5f, frustumFar = 200.0f;
    // The picked instance: its sphere drawn in kPickedColour whatever the culling decided (any debug view).
    std::optional<uint32_t> picked;
};
inline constexpr uint32_t kPickedColour = 0xFF0080FFu;  // RGBA8 (255, 128, 0): orange, in no legend

class CullDebugPass {
public:
    static sieve::Result<std::unique_ptr<CullDebugPass>> create(Context& ctx, VkFormat colorFormat);

    // Adds the pass "debug.culling" to `g` (after the passes that write `color`, which it draws over).
    void addTo(graph::GraphBuilder& g, graph::SlotId color, graph::SlotId bounds, graph::SlotId state,
               VkExtent2D extent);
    void select(const CullDebugFrame& frame) { frame_ = frame; }

    // Shader hot reload, in two steps (every new pipeline is built before any is replaced).
    struct Pipelines {
        sieve::GraphicsPipeline bounds, frustum;
    };
    sieve::Result<Pipelines> createPipelines() const;
    void replacePipelines(Pipelines p) { pipelines_ = std::move(p); }

    // The frustum's 8 world-space corners: the face nearDepth in front of the camera, then the face
    // farDepth in front, each (-x-y, +x-y, +x+y, -x+y) in NDC.
    static std::array<glm::vec4, 8> frustumCorners(const FrozenCamera& camera, float nearDepth, float farDepth);

private:
    CullDebugPass(Context& ctx, VkFormat format) : ctx_(ctx), format_(format) {}
    void record(VkCommandBuffer cmd, const sieve::Bindings& b);
    void recordPicked(VkCommandBuffer cmd, const sieve::Bindings& b);

    Context& ctx_;
    VkFormat format_;
    Pipelines pipelines_;
    CullDebugFrame frame_;
    VkExtent2D extent_{0, 0};
    graph::SlotId color_ = sieve::kNoSlot, bounds_ = sieve::kNoSlot, state_ = sieve::kNoSlot;
};

}  // namespace engine::ui
