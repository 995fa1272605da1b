#pragma once
// The viewer's debug views (--debug-view, the overlay's "debug view" section) turned into the scene
// renderer's settings for one frame: the tint of each geometry pass (culling: early green, late or
// single phase blue; lod: a colour per LOD) and the culling line pass (bounds of culled instances,
// the frozen culling frustum).
#include <glm/glm.hpp>
#include <optional>

#include "engine/scene/scene_renderer.h"
#include "engine/ui/frame_stats.h"

namespace viewer {

class DebugViewDriver {
public:
    // frustumFar: how far in front of the frozen camera its frustum is drawn.
    explicit DebugViewDriver(float frustumFar) : frustumFar_(frustumFar) {}
    // Call every frame before SceneRenderer::record, with the toggles the plugin culls this frame with
    // and the camera it is given: like the plugin, the culling camera stays the last unfrozen one.
    // picked: the instance whose bounds are drawn whatever the mode (the pick window's).
    void apply(engine::ui::DebugView mode, const sieve::CullingToggles& toggles, const glm::mat4& view,
               const glm::mat4& projection, engine::SceneRenderer& renderer,
               std::optional<uint32_t> picked = std::nullopt);

private:
    float frustumFar_;
    std::optional<engine::ui::FrozenCamera> cullCamera_;
};

}  // namespace viewer
