#pragma once
// host2's renderer: the culling plugin and two default geometry passes (three with the overhead view,
// the plugin's view 1: overhead_view.h) in a host2 FrameGraph that is
// built, compiled and executed anew every frame. Frames in flight, colour and depth come from an
// engine::Target (beginFrame waits for the frame slot's fence; record() runs after it).
#include <glm/glm.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "assets/scene.h"
#include "engine/scene/gpu_scene.h"
#include "engine/target/target.h"
#include "frame_graph.h"
#include "overhead_view.h"
#include "sieve/culling.h"
#include "sieve/geometry_pass.h"
#include "sieve_adapter.h"

namespace host2 {

class CityRenderer {
public:
    static sieve::Result<std::unique_ptr<CityRenderer>> create(engine::Context& ctx,
                                                               const sieve::assets::SceneData& scene,
                                                               VkFormat colorFormat, VkExtent2D extent,
                                                               uint32_t framesInFlight, bool overhead = false);

    // Builds this frame's graph and records it into frame.cmd. Returns how the colour image was left, for
    // Target::endFrame. The extent is fixed at create().
    sieve::Result<engine::FrameEnd> record(const engine::Frame& frame, const glm::mat4& view, const glm::mat4& proj);

    sieve::CullingPlugin& plugin() { return *plugin_; }
    const engine::GpuScene& scene() const { return scene_; }
    // The resource a graph-owned slot was bound to in the last frame (e.g. "draws.early"); null if none.
    const sieve::SlotBinding* binding(std::string_view name) const;
    // The passes the last frame ran, in order.
    const std::vector<std::string>& passOrder() const { return order_; }
    // GPU time of each pass of the frame last recorded in `slot`, once its fence was waited for
    // (VK_NOT_READY before).
    sieve::Result<std::vector<engine::GpuTimestamps::Scope>> passTimes(uint32_t slot) const {
        return timer_->read(slot);
    }

private:
    CityRenderer(engine::Context& ctx) : ctx_(ctx), cache_(ctx) {}
    struct HostHandles {
        ImageHandle color;  // versioned: draw.early writes the one draw.late writes again
        BufferHandle vertices, indices, uvs, materials;
    };
    void addDraw(FrameGraph& fg, SieveSlots& slots, bool late, HostHandles& host);
    struct DrawData;
    // The reads of a draw pass but its depth: the draw list `draws` and its `counts`, the instances and
    // the scene's buffers; and its colour write.
    void readDrawInputs(Builder& b, DrawData& d, SieveSlots& slots, HostHandles& host, sieve::SlotId draws,
                        sieve::SlotId counts) const;
    static sieve::GeometryInputs sceneInputs(Context& c, const DrawData& d);
    void recordDraw(bool late, Context& c, const DrawData& d) const;
    // The overhead view's inset (overhead_view.h), after draw.late.
    void addOverheadDraw(FrameGraph& fg, SieveSlots& slots, HostHandles& host);

    engine::Context& ctx_;
    engine::GpuScene scene_;
    std::unique_ptr<sieve::CullingPlugin> plugin_;
    std::optional<sieve::GeometryPass> geometry_;
    ResourceCache cache_;
    VkExtent2D extent_{0, 0};
    glm::mat4 viewProj_{1.0f};
    std::optional<OverheadView> overhead_;  // a second view, when created with one
    // The scene tables, imported into every frame's graph; their barrier state outlives the frames.
    PhysicalResource vertices_, indices_, instances_, bounds_, meshes_, primitives_, uvs_, materials_;
    std::vector<std::string> order_;
    std::optional<engine::GpuTimestamps> timer_;  // a scope per pass, a slot per frame in flight
};

}  // namespace host2
