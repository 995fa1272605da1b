#pragma once
// The scene's renderer with every optional pass the run needs (the triangle check headless, the Hi-Z
// view, the culling debug lines, the pick readback), made at the start and again when the shadows (L)
// or the clusters (K) are switched at run time. The clusters are built the first time they are asked for.
#include <memory>
#include <optional>
#include <string>

#include "cluster_setup.h"
#include "engine/scene/scene_renderer.h"
#include "engine/target/target.h"
#include "options.h"
#include "scene_setup.h"

namespace viewer {

class RendererMaker {
public:
    RendererMaker(engine::Context& ctx, engine::Target& target, const ViewerOptions& options, LoadedScene& scene,
                  bool headless, bool overlay, std::optional<ClusterChoice> clusters)
        : ctx_(ctx),
          target_(target),
          opt_(options),
          scene_(scene),
          headless_(headless),
          overlay_(overlay),
          clusters_(std::move(clusters)) {}
    RendererMaker(const RendererMaker&) = delete;  // the cluster setup points into it

    sieve::Result<std::unique_ptr<engine::SceneRenderer>> make(bool shadows, bool clusters);
    // "mesh" / "indirect" while the clusters are drawn (make(_, true) succeeded), else "".
    std::string clusterPath(bool clusters) const;

private:
    sieve::Result<void> prepare(engine::SceneRenderer& renderer, bool clusters) const;

    engine::Context& ctx_;
    engine::Target& target_;
    const ViewerOptions& opt_;
    LoadedScene& scene_;
    bool headless_, overlay_;
    std::optional<ClusterChoice> clusters_;
    engine::ClusterSetup setup_{};
};

}  // namespace viewer
