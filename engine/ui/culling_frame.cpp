#include "engine/ui/culling_frame.h"

#include "sieve/cull_tests.h"
#include "sieve/view.h"

namespace engine::ui {

namespace gpu = sieve::gpu;

sieve::Result<gpu::CullParams> frameCullParams(const CullingFrame& f, const sieve::HiZPyramidCpu& pyramid,
                                               uint32_t instances) {
    const sieve::CullingToggles& t = f.toggles;
    const sieve::CullView view;  // the engine's camera view: every test, no mask
    uint32_t on = t.lod ? gpu::SIEVE_CULL_LOD : 0u;
    for (const sieve::CullTest& test : sieve::kCullTests) on |= t.*test.toggle ? test.bit : 0u;
    uint32_t bits = view.tests & on;
    if (!(f.drawDistance > 0.0f)) bits &= ~gpu::SIEVE_CULL_DISTANCE;
    if (t.twoPhase && (view.tests & gpu::SIEVE_CULL_OCCLUSION)) bits |= gpu::SIEVE_CULL_TWO_PHASE;
    sieve::CullSettings settings;
    settings.toggles = bits;
    settings.lodThreshold = t.lodThreshold;
    settings.lodBias = t.lodBias;
    settings.drawDistance = f.drawDistance;
    const sieve::ViewDesc desc{
        f.cullView, f.cullProjection, {0.0f, 0.0f, float(f.extent.width), float(f.extent.height), 0.0f, 1.0f}};
    auto p = sieve::makeCullParams(desc, pyramid.extent(), pyramid.mipCount(), instances, settings);
    if (p) p->debugRadiusShrink = f.debugRadiusShrink;
    return p;
}

sieve::CullScene cullScene(const sieve::assets::SceneData& s) {
    return {s.instances, s.bounds, s.meshes, s.primitives};
}

}  // namespace engine::ui
