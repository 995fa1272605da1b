#include "engine/scene/scene_renderer.h"

#include <algorithm>
#include <cstdlib>
#include <glm/gtc/type_ptr.hpp>
#include <string>

#include "engine/scene/scene_geometry.h"

namespace engine {

using graph::GraphBuilder;
using graph::ImportDesc;
using sieve::SlotDesc;

sieve::Result<std::unique_ptr<SceneRenderer>> SceneRenderer::create(Context& ctx, const sieve::assets::SceneData& scene,
                                                                    VkFormat colorFormat, VkExtent2D extent,
                                                                    uint32_t framesInFlight, uint32_t drawCapacity,
                                                                    const ClusterSetup* clusters) {
    std::unique_ptr<SceneRenderer> r(new SceneRenderer(ctx));
    r->framesInFlight_ = framesInFlight;
    r->colorFormat_ = colorFormat;
    auto gpu = GpuScene::upload(ctx, scene);
    if (!gpu) return gpu.error();
    r->scene_ = std::move(gpu).value();
    sieve::CullingConfig config;
    config.maxInstances = std::max(r->scene_.instanceCount, 1u);
    config.maxDrawsPerInstance = std::max(r->scene_.maxDrawsPerInstance, 1u);
    config.framesInFlight = framesInFlight;
    config.viewport = extent;
    config.drawCapacity = drawCapacity;
    if (const char* tier = std::getenv("SIEVE_SCAN_TIER")) {
        const std::string t = tier;
        config.scan.tier = t == "a"   ? sieve::prim::ScanTier::Multilevel
                           : t == "b" ? sieve::prim::ScanTier::Subgroup
                                      : sieve::prim::ScanTier::SinglePass;
    }
    auto plugin = sieve::CullingPlugin::create(ctx.info(), config);
    if (!plugin) return plugin.error();
    r->plugin_ = std::move(plugin).value();
    if (auto s = r->plugin_->setInstanceCount(r->scene_.instanceCount); !s) return s.error();
    if (clusters) {
        auto c = ClusterRenderer::create(ctx, *clusters, *r->plugin_, r->scene_.instanceCount, kSingleSidedBins,
                                         colorFormat, kDepthFormat);
        if (!c) return c.error();
        r->clusters_ = std::move(c).value();
    }
    auto geometry = createSceneGeometry(ctx, colorFormat, r->scene_);
    if (!geometry) return geometry.error();
    r->geometry_.emplace(std::move(geometry).value());
    {
        // Pipeline statistics are optional; without them the triangle count stays unavailable.
        VkPhysicalDeviceFeatures features;
        vkGetPhysicalDeviceFeatures(ctx.physical(), &features);
        if (features.pipelineStatisticsQuery) {
            for (uint32_t i = 0; i < framesInFlight; ++i) {
                VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
                info.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
                info.queryCount = 2;
                info.pipelineStatistics = VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT;
                VkQueryPool pool = VK_NULL_HANDLE;
                SIEVE_VK_TRY(vkCreateQueryPool(ctx.device(), &info, nullptr, &pool));
                vkResetQueryPool(ctx.device(), pool, 0, 2);
                r->statsPools_.push_back(pool);
            }
            r->statsWritten_.assign(framesInFlight, false);
        }
    }
    r->drawReadback_ = std::make_unique<DrawReadback>(ctx, r->plugin_->drawCapacity(), framesInFlight);
    r->slotFrame_.assign(framesInFlight, std::nullopt);
    r->triangles_ = TriangleHistory(2 * framesInFlight + 2);
    if (auto b = r->build(extent); !b) return b.error();
    return r;
}

SceneRenderer::~SceneRenderer() {
    for (VkQueryPool pool : statsPools_) vkDestroyQueryPool(ctx_.device(), pool, nullptr);
}

sieve::Result<void> SceneRenderer::build(VkExtent2D extent) {
    extent_ = extent;
    if (auto r = plugin_->resize(extent); !r) return r;
    GraphBuilder g;
    auto image = [](const char* name, VkFormat format, VkExtent2D e, VkImageUsageFlags usage) {
        SlotDesc d;
        d.name = name;
        d.kind = sieve::SlotKind::Image;
        d.lifetime = sieve::Lifetime::Imported;
        d.format = format;
        d.extent = e;
        d.imageUsage = usage;
        return d;
    };
    auto buffer = [](const char* name, const Buffer& b) {
        SlotDesc d;
        d.name = name;
        d.lifetime = sieve::Lifetime::Imported;
        d.size = b.size();
        return d;
    };
    // The target hands colour and depth over UNDEFINED each frame; colour is left for the overlay.
    // The first colour write waits at COLOR_ATTACHMENT_OUTPUT: the stage a window's acquire semaphore
    // waits at (headless targets hand over an idle image, for which this is merely conservative).
    ImportDesc colorImport;
    colorImport.initial = {VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_NONE,
                           VK_IMAGE_LAYOUT_UNDEFINED};
    colorImport.final = {VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    color_ = g.addSlot(image("color", VK_FORMAT_UNDEFINED, extent, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT), colorImport);
    depth_ = g.addSlot(
        image("depth", kDepthFormat, extent, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT));
    vertices_ = g.addSlot(buffer("scene.vertices", scene_.vertices));
    indices_ = g.addSlot(buffer("scene.indices", scene_.indices));
    uvs_ = g.addSlot(buffer("scene.uvs", scene_.materials.uvs));
    materials_ = g.addSlot(buffer("scene.materials", scene_.materials.materials));
    std::vector<graph::SlotAlias> aliases = {{sieve::CullingPlugin::kDepth, depth_}};
    sieve::Result<void> clusterSlots;
    auto map = g.addPlugin(*plugin_, aliases, [&](uint32_t pass, const std::vector<graph::SlotId>& m) {
        if (clusters_ && pass == sieve::CullingPlugin::kEarlyCompact)
            clusterSlots = clusters_->addSlots(g, *plugin_, m);
        if (clusters_ && clusterSlots && pass == sieve::CullingPlugin::kStats)
            clusters_->addPass(g, sieve::ClusterPlugin::kStats);
        if (pass != sieve::CullingPlugin::kEarlyCompact && pass != sieve::CullingPlugin::kLateCompact) return;
        const bool late = pass == sieve::CullingPlugin::kLateCompact;
        const auto slot = [&](const char* name) { return m[plugin_->slot(name)]; };
        auto draws = slot(late ? sieve::CullingPlugin::kDrawsLate : sieve::CullingPlugin::kDrawsEarly);
        auto counts = slot(late ? sieve::CullingPlugin::kCountsLate : sieve::CullingPlugin::kCountsEarly);
        if (clusters_ && clusterSlots) {
            using CP = sieve::ClusterPlugin;
            clusters_->addPass(g, late ? CP::kLate : CP::kEarly);
            if (clusters_->path() == ClusterPath::Mesh) {
                const auto inst = slot(sieve::CullingPlugin::kInstances);
                g.addPass(clusters_->meshDrawDesc(late, color_, depth_, vertices_, inst),
                          [this, late, inst](VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo& f) {
                              beginStats(cmd, late, f);
                              clusters_->recordMeshDraw(cmd, b, late, vertices_, inst,
                                                        {b[color_].view, b[depth_].view, !late}, extent_,
                                                        glm::value_ptr(viewProj_));
                              endStats(cmd, late, f);
                          });
                return;
            }
            draws = clusters_->slot(late ? CP::kClusterDrawsLate : CP::kClusterDrawsEarly);
            counts = clusters_->slot(late ? CP::kClusterCountsLate : CP::kClusterCountsEarly);
        }
        (late ? drawsLate_ : drawsEarly_) = draws;
        (late ? countsLate_ : countsEarly_) = counts;
        sieve::PassDesc d;
        d.name = late ? "draw.late" : "draw.early";
        d.graphics = true;
        using namespace sieve::use;
        d.uses = {colorAttachmentWrite(color_),
                  depthAttachmentWrite(depth_),
                  indirectRead(draws),
                  indirectRead(counts),
                  storageRead(draws, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT),
                  storageRead(slot(sieve::CullingPlugin::kInstances), VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT),
                  storageRead(slot(sieve::CullingPlugin::kPrimitives), VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT),
                  storageRead(materials_, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT),
                  vertexRead(vertices_),
                  vertexRead(uvs_),
                  vertexRead(indices_)};
        if (late) {  // the blend bins of the early list are drawn after the late opaque ones
            const auto earlyDraws = slot(sieve::CullingPlugin::kDrawsEarly);
            d.uses.push_back(indirectRead(earlyDraws));
            d.uses.push_back(indirectRead(slot(sieve::CullingPlugin::kCountsEarly)));
            d.uses.push_back(storageRead(earlyDraws, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT));
        }
        g.addPass(std::move(d), [this, late](VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo& f) {
            recordDraw(late, cmd, b, f);
        });
        // The triangle check reads the instance draw lists; with clusters the draws come from the cluster
        // lists, whose triangles the cluster plugin counts itself.
        if (late && !clusters_)
            g.addPass(drawReadback_->describe(slot(sieve::CullingPlugin::kDrawsEarly),
                                              slot(sieve::CullingPlugin::kCountsEarly), draws, counts),
                      [this](VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo& f) {
                          drawReadback_->record(cmd, b, f);
                      });
    });
    if (!map) return map.error();
    if (!clusterSlots) return clusterSlots;
    const auto& m = map.value();
    if (hizView_) retired_.push_back({frameIndex_, nullptr, hizView_->releaseImage()});
    if (hizView_)
        if (auto r = hizView_->addTo(g, m[plugin_->slot(sieve::CullingPlugin::kPyramid)]); !r) return r;
    instances_ = m[plugin_->slot(sieve::CullingPlugin::kInstances)];
    if (cullDebug_)
        cullDebug_->addTo(g, color_, instances_, m[plugin_->slot(sieve::CullingPlugin::kInstanceState)], extent);
    meshes_ = m[plugin_->slot(sieve::CullingPlugin::kMeshes)];
    primitives_ = m[plugin_->slot(sieve::CullingPlugin::kPrimitives)];
    auto compiled = graph::compile(g);
    if (!compiled) return compiled.error();
    if (executor_) retired_.push_back({frameIndex_, std::move(executor_), Image()});
    auto ex = graph::GraphExecutor::create(ctx_, std::move(compiled).value(), framesInFlight_);
    if (!ex) return ex.error();
    executor_ = std::move(ex).value();
    auto bindBuffer = [&](graph::SlotId s, const Buffer& b) -> sieve::Result<void> {
        sieve::SlotBinding sb;
        sb.buffer = b.handle();
        sb.size = b.size();
        return executor_->bindImported(s, sb);
    };
    for (auto [slot, buf] : {std::pair{vertices_, &scene_.vertices}, std::pair{indices_, &scene_.indices},
                             std::pair{uvs_, &scene_.materials.uvs}, std::pair{materials_, &scene_.materials.materials},
                             std::pair{instances_, &scene_.instances}, std::pair{meshes_, &scene_.meshes},
                             std::pair{primitives_, &scene_.primitives}})
        if (auto r = bindBuffer(slot, *buf); !r) return r;
    if (clusters_)
        if (auto r = clusters_->bind(*executor_); !r) return r;
    if (hizView_) return hizView_->bind(*executor_);
    return {};
}

sieve::Result<void> SceneRenderer::enableHiZView() {
    if (hizView_) return {};
    auto view = ui::HiZViewPass::create(ctx_);
    if (!view) return view.error();
    hizView_ = std::move(view).value();
    if (auto r = build(extent_); !r) {
        hizView_.reset();
        (void)build(extent_);
        return r;
    }
    return {};
}

sieve::Result<void> SceneRenderer::enableCullDebug() {
    if (cullDebug_) return {};
    auto pass = ui::CullDebugPass::create(ctx_, colorFormat_);
    if (!pass) return pass.error();
    cullDebug_ = std::move(pass).value();
    if (auto r = build(extent_); !r) {
        cullDebug_.reset();
        (void)build(extent_);
        return r;
    }
    return {};
}

sieve::Result<void> SceneRenderer::reloadPipelines() {
    retired_.clear();  // the caller waited for the GPU
    // Every new object first; the old ones are replaced only once all of them exist.
    auto plugin = sieve::CullingPlugin::create(ctx_.info(), plugin_->config());
    if (!plugin) return plugin.error();
    std::unique_ptr<sieve::CullingPlugin> next = std::move(plugin).value();
    next->toggles() = plugin_->toggles();
    if (auto r = next->setInstanceCount(scene_.instanceCount); !r) return r;
    if (clusters_)
        if (auto r = clusters_->recreatePlugin(ctx_, *next); !r) return r;
    auto geometry = createSceneGeometry(ctx_, colorFormat_, scene_);
    if (!geometry) return geometry.error();
    std::optional<sieve::ComputePipeline> hizPipeline;
    if (hizView_) {
        auto p = hizView_->createPipeline();
        if (!p) return p.error();
        hizPipeline.emplace(std::move(p).value());
    }
    std::optional<ui::CullDebugPass::Pipelines> debugPipelines;
    if (cullDebug_) {
        auto p = cullDebug_->createPipelines();
        if (!p) return p.error();
        debugPipelines.emplace(std::move(p).value());
    }
    std::swap(plugin_, next);
    if (auto r = build(extent_); !r) {
        std::optional<ui::CullDebugPass::Pipelines> debugPipelines;
        if (cullDebug_) {
            auto p = cullDebug_->createPipelines();
            if (!p) return p.error();
            debugPipelines.emplace(std::move(p).value());
        }
        std::swap(plugin_, next);
        (void)build(extent_);  // the previous graph again (it was built before with the same inputs)
        return r;
    }
    geometry_.emplace(std::move(geometry).value());
    if (hizPipeline) hizView_->replacePipeline(std::move(*hizPipeline));
    if (debugPipelines) cullDebug_->replacePipelines(std::move(*debugPipelines));
    return {};
}

const sieve::SlotBinding* SceneRenderer::binding(std::string_view slotName) const {
    if (!executor_) return nullptr;
    const graph::SlotId s = executor_->slot(slotName);
    return s == sieve::kNoSlot ? nullptr : &executor_->binding(s);
}

std::string SceneRenderer::graphDump() const {
    return executor_ ? graph::dump(executor_->graph(), graph::Format::Text) : std::string();
}

void SceneRenderer::collect(uint32_t slot, std::vector<graph::PassTiming>& timings, FrameCounts& counts) {
    if (auto t = executor_->timings(slot)) timings = std::move(*t);
    counts.cull = plugin_->stats();
    counts.clustersOn = clusters_ != nullptr;
    if (clusters_) counts.clusters = clusters_->plugin().stats();
    if (slot < slotFrame_.size() && slotFrame_[slot]) {
        FrameTriangles t;
        t.frameIndex = *slotFrame_[slot];
        if (slot < statsPools_.size() && statsWritten_[slot]) {
            uint64_t prims[2] = {0, 0};
            VkResult r = vkGetQueryPoolResults(ctx_.device(), statsPools_[slot], 0, 2, sizeof(prims), prims,
                                               sizeof(uint64_t), VK_QUERY_RESULT_64_BIT);
            if (r == VK_SUCCESS) t.query = prims[0] + prims[1];
        }
        if (auto d = drawReadback_->read(slot)) t.records = d->triangles;
        triangles_.add(t);
    }
    // The counts arrive framesInFlight frames late: the triangles reported with them are of their frame.
    const auto t = counts.cull.valid ? triangles_.find(counts.cull.frame) : triangles_.latest();
    counts.trianglesQuery = t ? t->query : std::nullopt;
    counts.trianglesRecords = t ? t->records : std::nullopt;
    counts.trianglesValid = counts.trianglesRecords || counts.trianglesQuery;
    counts.triangles = counts.trianglesRecords.value_or(counts.trianglesQuery.value_or(0));
    counts.trianglesSource = counts.trianglesRecords ? "draw_records"
                             : counts.trianglesQuery ? "pipeline_statistics"
                                                     : "none";
}

sieve::Result<void> SceneRenderer::record(Target& target, const Frame& frame, const glm::mat4& view,
                                          const glm::mat4& proj) {
    // A frame slot is reused only after its fence was waited for (Target::beginFrame): framesInFlight
    // frames after a graph was replaced, no frame in flight uses it any more.
    frameIndex_ = frame.info.frameIndex;
    std::erase_if(retired_, [&](const Retired& r) { return frameIndex_ >= r.frameIndex + framesInFlight_; });
    if (frame.extent.width != extent_.width || frame.extent.height != extent_.height) {
        // The graph's images depend on the viewport. Target::finish() cannot be used here: this frame's
        // fence is unsignalled until it is submitted. The old graph is retired instead.
        if (auto r = build(frame.extent); !r) return r;
    }
    sieve::SlotBinding color;
    color.image = frame.colorImage;
    color.view = frame.colorView;
    color.extent = frame.extent;
    color.mipViews = {frame.colorView};
    sieve::SlotBinding depth;
    depth.image = frame.depthImage;
    depth.view = frame.depthView;
    depth.extent = frame.extent;
    depth.mipViews = {frame.depthView};
    if (auto r = executor_->bindImported(color_, color); !r) return r;
    if (auto r = executor_->bindImported(depth_, depth); !r) return r;
    viewProj_ = proj * view;
    sieve::ViewDesc cullView;
    cullView.view = view;
    cullView.projection = proj;
    cullView.viewport = {0.0f, 0.0f, float(frame.extent.width), float(frame.extent.height), 0.0f, 1.0f};
    if (auto r = plugin_->setView(cullView); !r) return r;
    const sieve::FrameInfo info = frame.info;
    // An error here still leaves a frame that draws everything; it is returned after recording.
    auto prepared = plugin_->prepare(info);
    if (clusters_) {
        if (!plugin_->toggles().freeze) clusterView_ = cullView;
        if (prepared) prepared = prepareClusters(*clusters_, plugin_->toggles(), clusterView_, info);
    }
    if (!statsPools_.empty()) vkCmdResetQueryPool(frame.cmd, statsPools_[info.frameSlot], 0, 2);
    auto r = executor_->execute(frame.cmd, info);
    if (!statsPools_.empty()) statsWritten_[info.frameSlot] = true;
    if (info.frameSlot < slotFrame_.size()) slotFrame_[info.frameSlot] = info.frameIndex;
    if (!prepared) return prepared;
    if (!plugin_->lastError().empty()) return sieve::makeError(VK_ERROR_UNKNOWN, plugin_->lastError());
    if (clusters_ && !clusters_->plugin().lastError().empty())
        return sieve::makeError(VK_ERROR_UNKNOWN, clusters_->plugin().lastError());
    return r;
}

void SceneRenderer::beginStats(VkCommandBuffer cmd, bool late, const sieve::FrameInfo& f) const {
    if (!statsPools_.empty()) vkCmdBeginQuery(cmd, statsPools_[f.frameSlot], late ? 1 : 0, 0);
}

void SceneRenderer::endStats(VkCommandBuffer cmd, bool late, const sieve::FrameInfo& f) const {
    if (!statsPools_.empty()) vkCmdEndQuery(cmd, statsPools_[f.frameSlot], late ? 1 : 0);
}

void SceneRenderer::recordDraw(bool late, VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo& f) {
    beginStats(cmd, late, f);
    sieve::GeometryInputs lists[2];  // early, late
    for (int l = 0; l < 2; ++l) {
        sieve::GeometryInputs& in = lists[l];
        in.vertices = {b[vertices_].buffer, 0, VK_WHOLE_SIZE};
        in.uvs = {b[uvs_].buffer, 0, VK_WHOLE_SIZE};
        in.indices = {b[indices_].buffer, 0, VK_WHOLE_SIZE};
        in.instances = {b[instances_].buffer, 0, VK_WHOLE_SIZE};
        in.materials = {b[materials_].buffer, 0, VK_WHOLE_SIZE};
        in.primitives = {b[primitives_].buffer, 0, VK_WHOLE_SIZE};
        in.draws = {b[l ? drawsLate_ : drawsEarly_].buffer, 0, VK_WHOLE_SIZE};
        in.counts = {b[l ? countsLate_ : countsEarly_].buffer, 0, VK_WHOLE_SIZE};
        in.maxDraws = clusters_ ? clusters_->plugin().outputCapacity() : plugin_->drawCapacity();
        const std::array<float, 4>& tint = l ? tints_.late : tints_.early;
        std::copy(tint.begin(), tint.end(), in.tint);
        in.tintByLod = tints_.byLod;
    }
    // Single phase: the early list holds every draw and the late one none.
    if (!clusters_ && !plugin_->toggles().twoPhase) lists[1].maxDraws = 0;
    const auto order = drawOrder(*geometry_, late, scene_.binMask, lists[0], lists[1]);
    // A late pass with nothing to draw would only load and store the attachments (the early one clears them).
    const bool any = std::any_of(order.begin(), order.end(),
                                 [](const sieve::GeometryBinDraw& d) { return d.inputs && d.inputs->maxDraws; });
    if (any || !late)
        geometry_->recordWithRendering(cmd, order, {b[color_].view, b[depth_].view, !late}, extent_,
                                       glm::value_ptr(viewProj_));
    endStats(cmd, late, f);
}

}  // namespace engine
