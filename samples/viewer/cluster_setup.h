#pragma once
// --clusters / --cluster-path: builds the scene's clusters (with a progress line) and picks the draw path
// the device supports.
#include <optional>
#include <string>

#include "assets/meshlets.h"
#include "engine/scene/cluster_renderer.h"
#include "engine/vk/context.h"
#include "options.h"

namespace viewer {

struct ClusterChoice {
    sieve::assets::ClusterData data;
    engine::ClusterPath path = engine::ClusterPath::Indirect;
};

// Nothing when clusters are off. Errors: --cluster-path mesh on a device without mesh shaders, cluster
// tables that do not fit.
sieve::assets::Expected<std::optional<ClusterChoice>> setupClusters(const ViewerOptions& options,
                                                                    sieve::assets::SceneData& scene,
                                                                    const engine::Context& ctx);

}  // namespace viewer
