#include "engine/scene/cluster_renderer.h"

#include <algorithm>
#include <bit>
#include <string>
#include <tuple>

#include "engine/scene/gpu_scene.h"
#include "engine/scene/scene_geometry.h"
#include "sieve/cluster_tuning.h"
#include "sieve/culling_tuning.h"

namespace engine {

namespace {

// The mesh path's pass, shading as the indirect path's GeometryPass (same options, same textures).
sieve::Result<sieve::ClusterMeshPass> createMeshPass(Context& ctx, const ClusterDrawTarget& target, bool triangleCull) {
    const bool materials = target.materials && target.scene;
    const sieve::GeometryOptions options =
        materials ? sceneGeometryOptions(ctx, *target.scene, true) : sieve::GeometryOptions{};
    auto mesh = sieve::ClusterMeshPass::create(ctx.info(), target.colorFormat, target.depthFormat, options,
                                               {.triangleCull = triangleCull});
    if (!mesh || !materials) return mesh;
    const std::vector<VkImageView> views = target.scene->materials.views();
    if (auto t = mesh->setTextures(views); !t) return t.error();
    return mesh;
}

}  // namespace

sieve::Result<std::unique_ptr<ClusterRenderer>> ClusterRenderer::create(Context& ctx, const ClusterSetup& setup,
                                                                        const sieve::CullingPlugin& cull,
                                                                        uint32_t instanceCount, uint32_t coneBins,
                                                                        const ClusterDrawTarget& target) {
    if (!setup.data) return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "clusters: no cluster data");
    const sieve::assets::ClusterData& data = *setup.data;
    if (data.instanceSlots.size() < instanceCount)
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED,
                                "clusters: " + std::to_string(data.instanceSlots.size()) + " instance slots for " +
                                    std::to_string(instanceCount) + " instances");
    auto r = std::unique_ptr<ClusterRenderer>(new ClusterRenderer());
    constexpr VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    if (auto ok = sieve::take(uploadTable(ctx, data.clusters, storage, "clusters.table"), r->clusters_); !ok)
        return ok.error();
    if (auto ok = sieve::take(uploadTable(ctx, data.ranges, storage, "clusters.ranges"), r->ranges_); !ok)
        return ok.error();
    if (auto ok = sieve::take(uploadTable(ctx, data.instanceSlots, storage, "clusters.instances"), r->instanceSlots_);
        !ok)
        return ok.error();
    if (auto ok = sieve::take(uploadTable(ctx, data.vertices, storage, "clusters.vertices"), r->vertices_); !ok)
        return ok.error();
    if (auto ok = sieve::take(uploadTable(ctx, data.triangles, storage, "clusters.triangles"), r->triangles_); !ok)
        return ok.error();
    r->path_ = setup.path;
    sieve::ClusterConfig config = configFor(cull, setup, instanceCount, coneBins);
    if (setup.path == ClusterPath::Mesh) {
        auto mesh = createMeshPass(ctx, target, setup.triangleCull);
        if (!mesh) return mesh.error();
        r->mesh_ = std::make_unique<sieve::ClusterMeshPass>(std::move(mesh).value());
        // Task workgroups: rows of maxMeshWorkGroupCount[0], at most maxMeshWorkGroupTotalCount in all.
        config.meshGroupsX = ctx.info().maxMeshGroupsX;
        const uint32_t given = setup.outputCapacity ? setup.outputCapacity : setup.candidateCapacity;
        const uint64_t wanted =
            given ? given : std::min<uint64_t>(uint64_t(cull.drawCapacity()) * 2 * config.maxClustersPerDraw, 1u << 24);
        config.outputCapacity =
            std::min<uint32_t>(std::max<uint32_t>(ctx.info().maxMeshGroupsTotal, 1u), uint32_t(wanted));
    }
    if (auto ok = sieve::take(
            sieve::createClusterPlugin(ctx.info(), config, {sieve::clusterScanOptions(sieve::tuning(cull).scan)}),
            r->plugin_);
        !ok)
        return ok.error();
    if (auto n = r->plugin_->setInstanceCount(instanceCount); !n) return n.error();
    return r;
}

sieve::ClusterConfig ClusterRenderer::configFor(const sieve::CullingPlugin& cull, const ClusterSetup& setup,
                                                uint32_t instanceCount, uint32_t coneBins) {
    const sieve::assets::ClusterData& data = *setup.data;
    sieve::ClusterConfig config;
    config.maxInstances = std::max(instanceCount, 1u);
    config.drawCapacity = cull.drawCapacity();
    config.maxClustersPerDraw = std::max(data.maxClustersPerDraw, 1u);
    config.visibilitySlots = uint32_t(data.visibilitySlots);
    config.candidateCapacity = setup.candidateCapacity;
    config.outputCapacity = setup.outputCapacity;
    config.coneBins = coneBins;
    config.framesInFlight = cull.config().framesInFlight;
    config.viewport = cull.config().viewport;
    return config;
}

sieve::Result<void> ClusterRenderer::recreatePlugin(Context& ctx, const sieve::CullingPlugin& cull) {
    sieve::ClusterConfig config = plugin_->config();
    config.drawCapacity = cull.drawCapacity();
    auto plugin = sieve::createClusterPlugin(ctx.info(), config, sieve::tuning(*plugin_));
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
    if (auto ok = sieve::take(g.addPluginSlots(*plugin_, aliases), map_); !ok) return ok.error();
    // The mesh path's own tables (read by the draw passes only).
    for (auto [id, name, buf] : {std::tuple{&meshletVertices_, "clusters.vertices", &vertices_},
                                 std::tuple{&meshletTriangles_, "clusters.triangles", &triangles_}}) {
        *id = g.addSlot(sieve::bufferSlot(name, sieve::Lifetime::Imported, buf->size(), 0));
    }
    return {};
}

void ClusterRenderer::addPass(graph::GraphBuilder& g, sieve::ClusterPlugin::PassIndex pass) {
    g.addPluginPass(*plugin_, pass, map_);
}

sieve::PassDesc ClusterRenderer::meshDrawDesc(bool late, const ClusterMeshSlots& s) const {
    using CP = sieve::ClusterPlugin;
    using namespace sieve::use;
    constexpr VkPipelineStageFlags2 mesh = VK_PIPELINE_STAGE_2_MESH_SHADER_BIT_EXT;
    sieve::PassDesc d;
    d.name = late ? "draw.late" : "draw.early";
    d.graphics = true;
    d.uses = {colorAttachmentWrite(s.color), depthAttachmentWrite(s.depth)};
    // The late pass draws the early list's blend bins too.
    for (bool list : late ? std::vector<bool>{false, true} : std::vector<bool>{false}) {
        d.uses.push_back(indirectRead(slot(list ? CP::kTasksLate : CP::kTasksEarly)));
        d.uses.push_back(storageRead(slot(list ? CP::kClusterDrawsLate : CP::kClusterDrawsEarly), mesh));
        d.uses.push_back(storageRead(slot(list ? CP::kClusterIdsLate : CP::kClusterIdsEarly), mesh));
        d.uses.push_back(storageRead(slot(list ? CP::kClusterCountsLate : CP::kClusterCountsEarly), mesh));
    }
    for (graph::SlotId t : {slot(CP::kClusters), meshletVertices_, meshletTriangles_, s.vertices, s.instances, s.uvs,
                            s.materials, s.primitives})
        if (t != sieve::kNoSlot) d.uses.push_back(storageRead(t, mesh));
    if (s.shadow != sieve::kNoSlot) d.uses.push_back(storageRead(s.shadow, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT));
    return d;
}

sieve::ClusterMeshInputs ClusterRenderer::meshInputs(const sieve::Bindings& b, bool late, const ClusterMeshSlots& s,
                                                     const ClusterMeshStyle& style) const {
    using CP = sieve::ClusterPlugin;
    auto whole = [&](graph::SlotId id) {
        return id == sieve::kNoSlot ? sieve::BufferRange{} : sieve::BufferRange{b[id].buffer, 0, VK_WHOLE_SIZE};
    };
    sieve::ClusterMeshInputs in;
    in.vertices = whole(s.vertices);
    in.instances = whole(s.instances);
    in.draws = whole(slot(late ? CP::kClusterDrawsLate : CP::kClusterDrawsEarly));
    in.ids = whole(slot(late ? CP::kClusterIdsLate : CP::kClusterIdsEarly));
    in.counts = whole(slot(late ? CP::kClusterCountsLate : CP::kClusterCountsEarly));
    in.tasks = whole(slot(late ? CP::kTasksLate : CP::kTasksEarly));
    in.clusters = whole(slot(CP::kClusters));
    in.meshletVertices = whole(meshletVertices_);
    in.triangles = whole(meshletTriangles_);
    in.tintByCluster = style.byCluster;
    in.uvs = whole(s.uvs);
    in.materials = whole(s.materials);
    in.primitives = whole(s.primitives);
    // A list of one bin needs no filtering by bin.
    in.mixedBins = !std::has_single_bit(style.binMask);
    const std::array<float, 4>& tint = late ? style.tintLate : style.tintEarly;
    std::copy(tint.begin(), tint.end(), in.tint);
    if (s.shadow != sieve::kNoSlot) {
        in.shadow = {b[s.shadow].buffer, b[s.shadow].offset, VK_WHOLE_SIZE};
        in.shadowCascades = style.shadowCascades;
    }
    return in;
}

void ClusterRenderer::recordMeshDraw(VkCommandBuffer cmd, const sieve::Bindings& b, bool late,
                                     const ClusterMeshSlots& s, const ClusterMeshStyle& style, VkExtent2D extent,
                                     const float viewProj[16]) const {
    const sieve::ClusterMeshInputs lists[2] = {meshInputs(b, false, s, style), meshInputs(b, true, s, style)};
    std::vector<sieve::ClusterMeshBinDraw> order;
    for (const ListBin& d : phaseOrder(mesh_->binCount(), late, style.binMask))
        order.push_back({&lists[d.list], d.bin});
    mesh_->recordWithRendering(cmd, order, {b[s.color].view, b[s.depth].view, !late}, extent, viewProj);
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
    for (auto [s, buf] : {std::pair{meshletVertices_, &vertices_}, std::pair{meshletTriangles_, &triangles_}}) {
        sieve::SlotBinding sb;
        sb.buffer = buf->handle();
        sb.size = buf->size();
        if (auto r = executor.bindImported(s, sb); !r) return r;
    }
    return {};
}

}  // namespace engine
