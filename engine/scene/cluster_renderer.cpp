#include "engine/scene/cluster_renderer.h"

#include <string>

#include "engine/scene/gpu_scene.h"

namespace engine {

sieve::Result<std::unique_ptr<ClusterRenderer>> ClusterRenderer::create(Context& ctx,
                                                                        const sieve::assets::ClusterData& data,
                                                                        const sieve::CullingPlugin& cull,
                                                                        uint32_t instanceCount, uint32_t coneBins) {
    if (data.instanceSlots.size() < instanceCount)
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED,
                                "clusters: " + std::to_string(data.instanceSlots.size()) + " instance slots for " +
                                    std::to_string(instanceCount) + " instances");
    auto r = std::unique_ptr<ClusterRenderer>(new ClusterRenderer());
    constexpr VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    auto c = uploadTable(ctx, data.clusters, storage, "clusters.table");
    if (!c) return c.error();
    r->clusters_ = std::move(c).value();
    auto g = uploadTable(ctx, data.ranges, storage, "clusters.ranges");
    if (!g) return g.error();
    r->ranges_ = std::move(g).value();
    auto s = uploadTable(ctx, data.instanceSlots, storage, "clusters.instances");
    if (!s) return s.error();
    r->instanceSlots_ = std::move(s).value();
    auto v = uploadTable(ctx, data.vertices, storage, "clusters.vertices");
    if (!v) return v.error();
    r->vertices_ = std::move(v).value();
    auto t = uploadTable(ctx, data.triangles, storage, "clusters.triangles");
    if (!t) return t.error();
    r->triangles_ = std::move(t).value();
    const sieve::ClusterConfig config = configFor(cull, data, instanceCount, coneBins);
    auto plugin = sieve::ClusterPlugin::create(ctx.info(), config);
    if (!plugin) return plugin.error();
    r->plugin_ = std::move(plugin).value();
    if (auto n = r->plugin_->setInstanceCount(instanceCount); !n) return n.error();
    return r;
}

sieve::ClusterConfig ClusterRenderer::configFor(const sieve::CullingPlugin& cull,
                                                const sieve::assets::ClusterData& data, uint32_t instanceCount,
                                                uint32_t coneBins) {
    sieve::ClusterConfig config;
    config.maxInstances = std::max(instanceCount, 1u);
    config.drawCapacity = cull.drawCapacity();
    config.maxClustersPerDraw = std::max(data.maxClustersPerDraw, 1u);
    config.visibilitySlots = uint32_t(data.visibilitySlots);
    config.coneBins = coneBins;
    config.framesInFlight = cull.config().framesInFlight;
    config.viewport = cull.config().viewport;
    config.scan = cull.config().scan;
    return config;
}

sieve::Result<void> ClusterRenderer::recreatePlugin(Context& ctx, const sieve::CullingPlugin& cull) {
    sieve::ClusterConfig config = plugin_->config();
    config.drawCapacity = cull.drawCapacity();
    auto plugin = sieve::ClusterPlugin::create(ctx.info(), config);
    if (!plugin) return plugin.error();
    auto next = std::move(plugin).value();
    next->toggles() = plugin_->toggles();
    if (auto n = next->setInstanceCount(config.maxInstances); !n) return n;
    plugin_ = std::move(next);
    return {};
}

sieve::Result<void> prepareClusters(ClusterRenderer& clusters, const sieve::CullingToggles& cull,
                                    const sieve::ViewDesc& view, const sieve::FrameInfo& frame) {
    sieve::ClusterPlugin& p = clusters.plugin();
    p.toggles().frustum = cull.frustum;
    p.toggles().occlusion = cull.occlusion;
    if (auto r = p.setView(view); !r) return r;
    return p.prepare(frame);
}

sieve::Result<void> ClusterRenderer::addSlots(graph::GraphBuilder& g, const sieve::CullingPlugin& cull,
                                              const std::vector<graph::SlotId>& cullMap) {
    if (auto r = plugin_->resize(cull.config().viewport); !r) return r;
    std::vector<graph::SlotAlias> aliases;
    using CP = sieve::ClusterPlugin;
    for (const char* name : {CP::kInstances, CP::kPrimitives, CP::kDrawsEarly, CP::kCountsEarly, CP::kDrawsLate,
                             CP::kCountsLate, CP::kPyramid})
        aliases.push_back({name, cullMap[cull.slot(name)]});
    auto map = g.addPluginSlots(*plugin_, aliases);
    if (!map) return map.error();
    map_ = std::move(map).value();
    return {};
}

void ClusterRenderer::addPass(graph::GraphBuilder& g, sieve::ClusterPlugin::PassIndex pass) {
    g.addPluginPass(*plugin_, pass, map_);
}

sieve::Result<void> ClusterRenderer::bind(graph::GraphExecutor& executor) const {
    using CP = sieve::ClusterPlugin;
    for (auto [name, buf] : {std::pair{CP::kClusters, &clusters_}, std::pair{CP::kRanges, &ranges_},
                             std::pair{CP::kInstanceSlots, &instanceSlots_}}) {
        sieve::SlotBinding sb;
        sb.buffer = buf->handle();
        sb.size = buf->size();
        if (auto r = executor.bindImported(slot(name), sb); !r) return r;
    }
    return {};
}

}  // namespace engine
