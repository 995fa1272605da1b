#include "renderer_maker.h"

#include <cstdio>
#include <cstdlib>

#include "run_report.h"

namespace viewer {

sieve::Result<std::unique_ptr<engine::SceneRenderer>> RendererMaker::make(bool shadows, bool clusters) {
    if (clusters && !clusters_) {
        ViewerOptions withClusters = opt_;
        withClusters.clusters = true;
        auto built = setupClusters(withClusters, scene_.data, ctx_);
        if (!built) return sieve::makeError(VK_ERROR_UNKNOWN, built.error());
        clusters_ = std::move(*built);
    }
    if (clusters)
        setup_ = {.data = &clusters_->data, .path = clusters_->path, .triangleCull = opt_.clusterTriangleCull};
    engine::SceneRendererOptions ro;
    ro.framesInFlight = target_.framesInFlight();
    ro.shadowCascades = shadows ? (opt_.cascades ? opt_.cascades : 3u) : 0u;
    ro.clusters = clusters ? &setup_ : nullptr;
    // With clusters too the scene's materials: both cluster paths shade as the instance draws do.
    ro.materials = true;
    auto r = engine::SceneRenderer::create(ctx_, scene_.data, target_.colorFormat(), target_.extent(), ro);
    if (!r) return r;
    if (r.value()->clusterPlugin()) r.value()->clusterPlugin()->toggles().cone = opt_.clusterCone;
    if (auto p = prepare(*r.value(), clusters); !p) return p.error();
    return r;
}

std::string RendererMaker::clusterPath(bool clusters) const {
    return clusters && clusters_ ? engine::clusterPathName(clusters_->path) : "";
}

// The triangle check (headless), the overlay's Hi-Z view, the culling debug view's lines, the pick's
// readback (armed only while used: --pick, a right click, the Hi-Z view's texel under the cursor).
sieve::Result<void> RendererMaker::prepare(engine::SceneRenderer& renderer, bool clusters) const {
    const uint32_t framesInFlight = target_.framesInFlight();
    if (headless_ && !clusters && checkTrianglesFits(renderer.cameraDrawCapacity(), framesInFlight))
        if (auto r = renderer.checkTriangles(true); !r)
            std::printf("triangles unchecked: %s\n", r.error().message.c_str());
    if (overlay_)
        if (auto r = renderer.enableHiZView(); !r) return r;
    if (overlay_ || opt_.debugView != engine::ui::DebugView::Off)
        if (auto r = renderer.enableCullDebug(); !r) return r;
    if (overlay_ || !opt_.picks.empty() || opt_.testPickVerify)
        if (auto r = renderer.enablePickReadback(); !r) return r;
    if (std::getenv("SIEVE_DUMP_GRAPH")) std::printf("%s\n", renderer.graphDump().c_str());
    return {};
}

}  // namespace viewer
