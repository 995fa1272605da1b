#include "debug_view.h"

namespace viewer {

namespace {
// Strong enough that a phase's colour dominates any material of the palette (the tests count such
// pixels): green for early, blue for late.
constexpr std::array<float, 4> kEarlyTint{0.35f, 1.0f, 0.35f, 1.0f};
constexpr std::array<float, 4> kLateTint{0.3f, 0.45f, 1.0f, 1.0f};
}  // namespace

void DebugViewDriver::apply(engine::ui::DebugView mode, const sieve::CullingToggles& toggles, const glm::mat4& view,
                            const glm::mat4& projection, engine::SceneRenderer& renderer,
                            std::optional<uint32_t> picked) {
    if (!toggles.freeze || !cullCamera_) cullCamera_ = engine::ui::FrozenCamera{view, projection};
    engine::SceneRenderer::DrawTints tints;
    if (mode == engine::ui::DebugView::Culling) {
        // Single phase: the early list holds the single phase's draws, which the plugin's state calls late.
        tints.early = toggles.twoPhase ? kEarlyTint : kLateTint;
        tints.late = kLateTint;
    }
    tints.byLod = mode == engine::ui::DebugView::Lod;
    tints.byDraw = mode == engine::ui::DebugView::Clusters;
    renderer.setDrawTints(tints);
    if (engine::ui::CullDebugPass* pass = renderer.cullDebug()) {
        engine::ui::CullDebugFrame f;
        f.bounds = mode == engine::ui::DebugView::Culling;
        if (f.bounds && toggles.freeze) f.frustum = cullCamera_;
        f.viewProj = projection * view;
        f.instanceCount = renderer.scene().instanceCount;
        f.frustumFar = frustumFar_;
        f.picked = picked;
        pass->select(f);
    }
}

}  // namespace viewer
