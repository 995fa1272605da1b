#include "cluster_setup.h"

#include <chrono>
#include <cstdio>

namespace viewer {

sieve::assets::Expected<std::optional<ClusterChoice>> setupClusters(const ViewerOptions& o,
                                                                    sieve::assets::SceneData& scene,
                                                                    const engine::Context& ctx) {
    if (!o.clusters) return std::optional<ClusterChoice>();
    ClusterChoice c;
    const bool mesh = ctx.info().meshShader;
    if (o.clusterPath == "mesh" && !mesh)
        return sieve::assets::Unexpected{
            "--cluster-path mesh: the device has no VK_EXT_mesh_shader with meshShader "
            "(use --cluster-path indirect or auto)"};
    c.path = o.clusterPath == "indirect" || !mesh ? engine::ClusterPath::Indirect : engine::ClusterPath::Mesh;
    std::printf("building clusters of %zu primitives\n", scene.primitives.size());
    std::fflush(stdout);
    const auto start = std::chrono::steady_clock::now();
    int lastTenth = -1;
    auto built = sieve::assets::buildClusters(scene, {}, [&](float f) {
        const int tenth = int(f * 10.0f);
        if (tenth != lastTenth) std::printf("  clusters: %d%%\n", tenth * 10), std::fflush(stdout);
        lastTenth = tenth;
    });
    if (!built) return sieve::assets::Unexpected{built.error()};
    c.data = std::move(built).value();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("clusters: %zu (largest draw %u), %llu visibility slots, %.2f s; path %s\n", c.data.clusters.size(),
                c.data.maxClustersPerDraw, (unsigned long long)c.data.visibilitySlots, s,
                engine::clusterPathName(c.path));
    return std::optional<ClusterChoice>(std::move(c));
}

}  // namespace viewer
