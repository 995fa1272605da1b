#include "engine/scene/scene_renderer.h"

#include <algorithm>
#include <cstdlib>
#include <glm/gtc/type_ptr.hpp>
#include <optional>
#include <string>
#include <type_traits>

#include "assets/bins.h"
#include "engine/scene/scene_geometry.h"
#include "sieve/culling_tuning.h"

namespace engine {

using graph::GraphBuilder;
using graph::ImportDesc;
using sieve::SlotDesc;

namespace {

// Draws per stream when every instance is drawn: the most any view's stream can hold. Stream k holds
// the primitives of bin streamBins[k] (GpuScene::streamBins; empty: one stream of every bin).
std::vector<uint64_t> binDraws(const sieve::assets::SceneData& scene, const std::vector<uint32_t>& streamBins,
                               uint32_t binCount) {
    std::vector<uint64_t> perPrimitive(scene.primitives.size(), 0);
    for (const sieve::gpu::Instance& inst : scene.instances) {
        const sieve::gpu::Mesh& mesh = scene.meshes[inst.mesh];
        for (uint32_t p = 0; p < mesh.primitiveCount; ++p) ++perPrimitive[mesh.firstPrimitive + p];
    }
    std::vector<uint64_t> draws(binCount, 0);
    for (size_t p = 0; p < scene.primitives.size(); ++p) {
        const auto it = std::find(streamBins.begin(), streamBins.end(), scene.primitives[p].bin);
        const size_t stream = it == streamBins.end() ? binCount - 1 : size_t(it - streamBins.begin());
        draws[std::min<size_t>(stream, binCount - 1)] += perPrimitive[p];
    }
    return draws;
}

// The camera's streams hold every draw of their bin (or drawCapacity); the other views share what is left
// of one storage-buffer binding (a cascade sees a slice of the scene: overflow there is counted in its
// stats).
std::vector<uint32_t> streamCapacities(const sieve::DeviceInfo& dev, const sieve::CullingConfig& c,
                                       const std::vector<uint64_t>& perBin) {
    const uint64_t budget = dev.limits.maxStorageBufferRange / sizeof(sieve::gpu::DrawCommand);
    const uint64_t slack = 64;  // per stream: room for the plugin's alignment of stream bases
    std::vector<uint32_t> caps(c.maxViews * c.binCount, 0);
    uint64_t camera = 0, all = 0;
    for (uint32_t b = 0; b < c.binCount; ++b) {
        caps[b] = uint32_t(c.drawCapacity ? std::min<uint64_t>(perBin[b], c.drawCapacity)
                                          : std::min<uint64_t>(perBin[b], UINT32_MAX));
        camera += caps[b] + slack;
        all += caps[b];
    }
    if (c.maxViews == 1) return caps;
    const uint64_t rest =
        budget > camera + slack * c.binCount * c.maxViews ? budget - camera - slack * c.binCount * c.maxViews : 0;
    const uint64_t perView = rest / (c.maxViews - 1);
    for (uint32_t v = 1; v < c.maxViews; ++v)
        for (uint32_t b = 0; b < c.binCount; ++b)
            caps[v * c.binCount + b] = uint32_t(all ? std::min<uint64_t>(caps[b], perView * caps[b] / all) : 0);
    return caps;
}

// The scan tier SIEVE_SCAN_TIER names (a: multilevel, b: subgroup, anything else: single pass), for the
// tests that run every tier; the default tuning without it.
sieve::CullingTuning scanTierFromEnvironment() {
    sieve::CullingTuning tuning;
    if (const char* tier = std::getenv("SIEVE_SCAN_TIER")) {
        const std::string t = tier;
        tuning.scan.tier = t == "a"   ? sieve::prim::ScanTier::Multilevel
                           : t == "b" ? sieve::prim::ScanTier::Subgroup
                                      : sieve::prim::ScanTier::SinglePass;
    }
    return tuning;
}

}  // namespace

sieve::Result<std::unique_ptr<SceneRenderer>> SceneRenderer::create(Context& ctx, const sieve::assets::SceneData& scene,
                                                                    VkFormat colorFormat, VkExtent2D extent,
                                                                    const SceneRendererOptions& options) {
    const uint32_t framesInFlight = options.framesInFlight, shadowCascades = options.shadowCascades;
    const ClusterSetup* clusters = options.clusters;
    std::unique_ptr<SceneRenderer> r(new SceneRenderer(ctx));
    r->framesInFlight_ = framesInFlight;
    r->colorFormat_ = colorFormat;
    r->depthFormat_ = options.depthFormat;
    // Per-bin streams for the bins the scene uses (clusters read one mixed list: the scene's bins kept).
    auto gpu = GpuScene::upload(ctx, scene, !clusters);
    if (!gpu) return gpu.error();
    r->scene_ = std::move(gpu).value();
    sieve::CullingConfig config = r->scene_.cullingConfig(framesInFlight, extent);
    config.depthFormat = options.depthFormat;
    config.drawCapacity = options.drawCapacity;
    config.instanceState = options.instanceState;
    config.maxViews = std::max(options.maxViews, 1 + shadowCascades);
    // One stream per bin of assets/bins.h, each drawn by its own pipeline; the cluster plugin reads one
    // mixed list.
    config.binCount = clusters ? 1u : std::max<uint32_t>(uint32_t(r->scene_.streamBins.size()), 1u);
    if (shadowCascades) {
        auto shadow = ShadowPass::create(ctx, shadowCascades, 1024);
        if (!shadow) return shadow.error();
        r->shadow_ = std::move(shadow).value();
        casterBounds(scene.bounds, r->sceneMin_, r->sceneMax_);
    }
    config.streamCapacities =
        streamCapacities(ctx.info(), config, binDraws(scene, r->scene_.streamBins, config.binCount));
    sieve::CullingTuning tuning = scanTierFromEnvironment();
    tuning.lateSplit = options.lateSplit;
    tuning.drawMarks = options.drawMarks;
    auto plugin = sieve::createCullingPlugin(ctx.info(), config, tuning);
    if (!plugin) return plugin.error();
    r->plugin_ = std::move(plugin).value();
    if (auto s = r->plugin_->setInstanceCount(r->scene_.instanceCount); !s) return s.error();
    if (clusters) {
        auto c = ClusterRenderer::create(ctx, *clusters, *r->plugin_, r->scene_.instanceCount, kSingleSidedBins,
                                         {colorFormat, options.depthFormat, &r->scene_, options.materials});
        if (!c) return c.error();
        r->clusters_ = std::move(c).value();
    }
    // Both cluster paths shade as the instance draws do (the mesh path with its material mesh shader).
    r->materialMode_ = options.materials;
    auto geometry = createSceneGeometry(ctx, colorFormat, r->scene_, r->materialMode_, options.depthFormat);
    if (!geometry) return geometry.error();
    r->geometry_.emplace(std::move(geometry).value());
    // Optional counts: without them the triangle count comes from the records alone.
    auto queries = DrawQueries::create(ctx, framesInFlight, r->clusters_ && r->clusters_->path() == ClusterPath::Mesh);
    if (!queries) return queries.error();
    r->queries_ = std::move(queries).value();
    std::vector<sieve::StreamRange> cameraStreams;
    for (uint32_t bin = 0; bin < r->plugin_->config().binCount; ++bin)
        cameraStreams.push_back(r->plugin_->stream(0, bin));
    r->drawReadback_ = std::make_unique<DrawReadback>(ctx, std::move(cameraStreams), framesInFlight);
    r->slotFrame_.assign(framesInFlight, std::nullopt);
    r->triangles_ = TriangleHistory(2 * framesInFlight + 2);
    if (auto b = r->build(extent); !b) return b.error();
    return r;
}

SceneRenderer::~SceneRenderer() = default;

sieve::Result<void> SceneRenderer::build(VkExtent2D extent) {
    extent_ = extent;
    if (auto r = plugin_->resize(extent); !r) return r;
    GraphBuilder g;
    addSceneSlots(g, extent);
    std::vector<graph::SlotAlias> aliases = {{sieve::CullingPlugin::kDepth, depth_}};
    sieve::Result<void> clusterSlots;
    auto map = g.addPlugin(*plugin_, aliases, [&](uint32_t pass, const std::vector<graph::SlotId>& m) {
        addAfterPluginPass(g, pass, m, clusterSlots);
    });
    if (!map) return map.error();
    if (!clusterSlots) return clusterSlots;
    if (auto r = addViewPasses(g, map.value(), extent); !r) return r;
    return createExecutor(g);
}

// The target's colour and depth and the scene's tables, imported.
void SceneRenderer::addSceneSlots(GraphBuilder& g, VkExtent2D extent) {
    const auto image = [](const char* name, VkFormat format, VkExtent2D e, VkImageUsageFlags usage) {
        return sieve::imageSlot(name, sieve::Lifetime::Imported, format, e, 1, usage);
    };
    const auto buffer = [](const char* name, const Buffer& b) {
        return sieve::bufferSlot(name, sieve::Lifetime::Imported, b.size(), 0);
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
        image("depth", depthFormat_, extent, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT));
    vertices_ = g.addSlot(buffer("scene.vertices", scene_.vertices));
    indices_ = g.addSlot(buffer("scene.indices", scene_.indices));
    uvs_ = g.addSlot(buffer("scene.uvs", scene_.materials.uvs));
    materials_ = g.addSlot(buffer("scene.materials", scene_.materials.materials));
}

void SceneRenderer::addAfterPluginPass(GraphBuilder& g, uint32_t pass, const std::vector<graph::SlotId>& m,
                                       sieve::Result<void>& clusterSlots) {
    using Role = sieve::CullingPlugin::PassRole;
    const bool earlyStreams = pass == plugin_->pass(Role::EarlyStreams);
    const bool late = pass == plugin_->pass(Role::LateStreams);
    if (clusters_ && earlyStreams) clusterSlots = clusters_->addSlots(g, *plugin_, m);
    if (clusters_ && clusterSlots && pass == plugin_->pass(Role::Stats))
        clusters_->addPass(g, sieve::ClusterPlugin::kStats);
    if (!earlyStreams && !late) return;
    const auto slot = [&](const char* name) { return pluginSlot(m, name); };
    auto draws = slot(late ? sieve::CullingPlugin::kDrawsLate : sieve::CullingPlugin::kDrawsEarly);
    auto counts = slot(late ? sieve::CullingPlugin::kCountsLate : sieve::CullingPlugin::kCountsEarly);
    // The cascades' streams are in the early lists (their views are culled by the early pass alone).
    if (shadow_ && !late)
        shadowBuffer_ = shadow_->addTo(g, {draws, counts, slot(sieve::CullingPlugin::kInstances), vertices_, indices_},
                                       *plugin_, 1);
    if (clusters_ && clusterSlots) {
        using CP = sieve::ClusterPlugin;
        clusters_->addPass(g, late ? CP::kLate : CP::kEarly);
        if (clusters_->path() == ClusterPath::Mesh) {
            ClusterMeshSlots s{color_,
                               depth_,
                               vertices_,
                               slot(sieve::CullingPlugin::kInstances),
                               uvs_,
                               materials_,
                               slot(sieve::CullingPlugin::kPrimitives)};
            if (shadow_) s.shadow = shadowBuffer_;
            g.addPass(clusters_->meshDrawDesc(late, s),
                      [this, late, s](VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo& f) {
                          recordMeshDraw(late, s, cmd, b, f);
                      });
            return;
        }
        draws = clusters_->slot(late ? CP::kClusterDrawsLate : CP::kClusterDrawsEarly);
        counts = clusters_->slot(late ? CP::kClusterCountsLate : CP::kClusterCountsEarly);
    }
    addDrawPass(g, late, m, draws, counts);
}

// The camera's indirect draws of one phase's lists (instance or cluster), and after the late one the
// triangle check's readback.
void SceneRenderer::addDrawPass(GraphBuilder& g, bool late, const std::vector<graph::SlotId>& m, graph::SlotId draws,
                                graph::SlotId counts) {
    const auto slot = [&](const char* name) { return pluginSlot(m, name); };
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
    if (shadow_) d.uses.push_back(storageRead(shadowBuffer_, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT));
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
}

// The overlay's passes that are on: the Hi-Z view, the culling debug lines, the pick readback.
sieve::Result<void> SceneRenderer::addViewPasses(GraphBuilder& g, const std::vector<graph::SlotId>& m,
                                                 VkExtent2D extent) {
    if (hizView_) retired_.push_back({frameIndex_, nullptr, hizView_->releaseImage()});
    if (hizView_)
        if (auto r = hizView_->addTo(g, pluginSlot(m, sieve::CullingPlugin::kPyramid)); !r) return r;
    instances_ = pluginSlot(m, sieve::CullingPlugin::kInstances);
    bounds_ = pluginSlot(m, sieve::CullingPlugin::kBounds);
    if (cullDebug_) cullDebug_->addTo(g, color_, bounds_, pluginSlot(m, sieve::CullingPlugin::kInstanceState), extent);
    if (pickReadback_)
        if (auto r = pickReadback_->addTo(g, pluginSlot(m, sieve::CullingPlugin::kInstanceState),
                                          pluginSlot(m, sieve::CullingPlugin::kPyramid), depth_, scene_.instanceCount);
            !r)
            return r;
    meshes_ = pluginSlot(m, sieve::CullingPlugin::kMeshes);
    primitives_ = pluginSlot(m, sieve::CullingPlugin::kPrimitives);
    return {};
}

// The compiled graph's executor, with the scene's tables bound to their slots.
sieve::Result<void> SceneRenderer::createExecutor(GraphBuilder& g) {
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
                             std::pair{instances_, &scene_.instances}, std::pair{bounds_, &scene_.bounds},
                             std::pair{meshes_, &scene_.meshes}, std::pair{primitives_, &scene_.primitives}})
        if (auto r = bindBuffer(slot, *buf); !r) return r;
    if (clusters_)
        if (auto r = clusters_->bind(*executor_); !r) return r;
    if (hizView_) return hizView_->bind(*executor_);
    return {};
}

// An optional pass made and the graph rebuilt with it; on failure the graph is rebuilt without it.
template <typename T>
sieve::Result<void> SceneRenderer::addOptional(std::unique_ptr<T>& member, sieve::Result<std::unique_ptr<T>> made) {
    if (!made) return made.error();
    member = std::move(made).value();
    if (auto r = build(extent_); !r) {
        member.reset();
        (void)build(extent_);
        return r;
    }
    return {};
}

namespace {
sieve::Result<void> noInstanceState(const char* what) {
    return sieve::makeError(VK_ERROR_FEATURE_NOT_PRESENT, std::string(what) +
                                                              " read cull.state: the renderer was created without "
                                                              "SceneRendererOptions::instanceState");
}
}  // namespace

sieve::Result<void> SceneRenderer::enableHiZView() {
    return hizView_ ? sieve::Result<void>{} : addOptional(hizView_, ui::HiZViewPass::create(ctx_));
}

sieve::Result<void> SceneRenderer::enableCullDebug() {
    if (!plugin_->config().instanceState) return noInstanceState("the culling debug colours");
    return cullDebug_ ? sieve::Result<void>{} : addOptional(cullDebug_, ui::CullDebugPass::create(ctx_, colorFormat_));
}

sieve::Result<void> SceneRenderer::enablePickReadback() {
    if (!plugin_->config().instanceState) return noInstanceState("the pick readback");
    return pickReadback_ ? sieve::Result<void>{}
                         : addOptional(pickReadback_, ui::PickReadbackPass::create(ctx_, framesInFlight_));
}

namespace {

// What `make` returns (a Result) where the renderer has `pass`, nothing where it has not, or the error.
template <typename Pass, typename Make>
auto ifPresent(const Pass& pass, Make make) -> sieve::Result<std::optional<std::decay_t<decltype(*make())>>> {
    using T = std::decay_t<decltype(*make())>;
    if (!pass) return std::optional<T>();
    auto made = make();
    if (!made) return made.error();
    return std::optional<T>(std::move(made).value());
}

}  // namespace

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
    auto geometry = createSceneGeometry(ctx_, colorFormat_, scene_, materialMode_, depthFormat_);
    if (!geometry) return geometry.error();
    auto shadowPipeline = ifPresent(shadow_, [&] { return ShadowPass::createPipeline(ctx_); });
    if (!shadowPipeline) return shadowPipeline.error();
    auto hizPipeline = ifPresent(hizView_, [&] { return hizView_->createPipeline(); });
    if (!hizPipeline) return hizPipeline.error();
    auto debugPipelines = ifPresent(cullDebug_, [&] { return cullDebug_->createPipelines(); });
    if (!debugPipelines) return debugPipelines.error();
    auto pickPipeline = ifPresent(pickReadback_, [&] { return pickReadback_->createPipeline(); });
    if (!pickPipeline) return pickPipeline.error();
    std::swap(plugin_, next);
    if (auto r = build(extent_); !r) {
        std::swap(plugin_, next);
        (void)build(extent_);  // the previous graph again (it was built before with the same inputs)
        return r;
    }
    geometry_.emplace(std::move(geometry).value());
    if (*hizPipeline) hizView_->replacePipeline(std::move(**hizPipeline));
    if (*debugPipelines) cullDebug_->replacePipelines(std::move(**debugPipelines));
    if (*pickPipeline) pickReadback_->replacePipeline(std::move(**pickPipeline));
    if (*shadowPipeline) shadow_->replacePipeline(std::move(**shadowPipeline));
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
        // The mesh path has no input assembly: DrawQueries counts none there (inputPrimitives stays absent).
        const DrawQueryCounts q = queries_.read(slot);
        t.query = q.inputPrimitives;
        t.clippingInvocations = q.clippingInvocations;
        t.clippingPrimitives = q.clippingPrimitives;
        t.meshPrimitives = q.meshPrimitives;
        if (auto d = drawReadback_->read(slot)) t.records = d->triangles;
        triangles_.add(t);
    }
    // The counts arrive framesInFlight frames late: the triangles reported with them are of their frame.
    const auto t = counts.cull.valid ? triangles_.find(counts.cull.frame) : triangles_.latest();
    counts.trianglesQuery = t ? t->query : std::nullopt;
    counts.trianglesRecords = t ? t->records : std::nullopt;
    counts.clippingInvocations = t ? t->clippingInvocations : std::nullopt;
    counts.clippingPrimitives = t ? t->clippingPrimitives : std::nullopt;
    counts.meshPrimitivesGenerated = t ? t->meshPrimitives : std::nullopt;
    // With clusters the draws are the cluster lists, whose triangles the cluster plugin sums from the
    // records it writes (the mesh path draws no input-assembly primitives for the query to count).
    if (clusters_ && counts.clusters.valid && (!counts.cull.valid || counts.clusters.frame == counts.cull.frame))
        counts.trianglesRecords = counts.clusters.counters.triangles;
    counts.trianglesValid = counts.trianglesRecords || counts.trianglesQuery;
    counts.triangles = counts.trianglesRecords.value_or(counts.trianglesQuery.value_or(0));
    counts.trianglesSource = counts.trianglesRecords ? (clusters_ ? "cluster_records" : "draw_records")
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
    if (frame.depthFormat != depthFormat_)
        return sieve::makeError(VK_ERROR_FORMAT_NOT_SUPPORTED,
                                "SceneRenderer: the target's depth format differs from the renderer's "
                                "(SceneRendererOptions::depthFormat)");
    sieve::SlotBinding depth;
    depth.image = frame.depthImage;
    depth.view = frame.depthView;
    depth.extent = frame.extent;
    depth.mipViews = {frame.depthView};
    if (auto r = executor_->bindImported(color_, color); !r) return r;
    if (auto r = executor_->bindImported(depth_, depth); !r) return r;
    viewProj_ = proj * view;
    std::vector<sieve::CullView> views(1, cameraView_);
    views[0].desc = {view, proj, {0.0f, 0.0f, float(frame.extent.width), float(frame.extent.height), 0.0f, 1.0f}};
    if (shadow_) {
        shadow_->update(view, proj, sceneMin_, sceneMax_);
        views.insert(views.end(), shadow_->views().begin(), shadow_->views().end());
    }
    views.insert(views.end(), extraViews_.begin(), extraViews_.end());
    if (auto r = plugin_->setViews(views); !r) return r;
    const sieve::FrameInfo info = frame.info;
    // An error here still leaves a frame that draws everything; it is returned after recording.
    auto prepared = plugin_->prepare(info);
    if (clusters_) {
        if (!plugin_->toggles().freeze) clusterView_ = views[0].desc;
        if (prepared) prepared = prepareClusters(*clusters_, plugin_->toggles(), clusterView_, info);
    }
    queries_.reset(frame.cmd, info.frameSlot);
    auto r = executor_->execute(frame.cmd, info);
    if (info.frameSlot < slotFrame_.size()) slotFrame_[info.frameSlot] = info.frameIndex;
    if (!prepared) return prepared;
    if (!plugin_->lastError().empty()) return sieve::makeError(VK_ERROR_UNKNOWN, plugin_->lastError());
    if (clusters_ && !clusters_->plugin().lastError().empty())
        return sieve::makeError(VK_ERROR_UNKNOWN, clusters_->plugin().lastError());
    return r;
}

std::vector<std::string> SceneRenderer::streamNames() const {
    if (clusters_ || scene_.streamBins.empty()) return {"all"};
    std::vector<std::string> names;
    for (uint32_t bin : scene_.streamBins) names.push_back(sieve::assets::binName(bin));
    return names;
}

uint64_t SceneRenderer::cameraDrawCapacity() const {
    return drawReadback_->capacity() / 2;
}

void SceneRenderer::beginStats(VkCommandBuffer cmd, bool late, const sieve::FrameInfo& f) const {
    queries_.begin(cmd, f.frameSlot, late);
}

void SceneRenderer::endStats(VkCommandBuffer cmd, bool late, const sieve::FrameInfo& f) const {
    queries_.end(cmd, f.frameSlot, late);
}

void SceneRenderer::recordMeshDraw(bool late, const ClusterMeshSlots& s, VkCommandBuffer cmd, const sieve::Bindings& b,
                                   const sieve::FrameInfo& f) {
    beginStats(cmd, late, f);
    ClusterMeshStyle style;
    style.binMask = scene_.binMask;
    style.shadowCascades = shadow_ ? shadow_->cascades() : 0u;
    style.tintEarly = tints_.early;
    style.tintLate = tints_.late;
    style.byCluster = tints_.byDraw;
    clusters_->recordMeshDraw(cmd, b, late, s, style, extent_, glm::value_ptr(viewProj_));
    endStats(cmd, late, f);
}

void SceneRenderer::recordDraw(bool late, VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo& f) {
    beginStats(cmd, late, f);
    sieve::GeometryInputs base;
    base.vertices = {b[vertices_].buffer, 0, VK_WHOLE_SIZE};
    base.uvs = {b[uvs_].buffer, 0, VK_WHOLE_SIZE};
    base.indices = {b[indices_].buffer, 0, VK_WHOLE_SIZE};
    base.instances = {b[instances_].buffer, 0, VK_WHOLE_SIZE};
    base.materials = {b[materials_].buffer, 0, VK_WHOLE_SIZE};
    base.primitives = {b[primitives_].buffer, 0, VK_WHOLE_SIZE};
    if (shadow_) {
        base.shadow = {b[shadowBuffer_].buffer, b[shadowBuffer_].offset, VK_WHOLE_SIZE};
        base.shadowCascades = shadow_->cascades();
    }
    base.tintByLod = tints_.byLod;
    base.tintByDraw = tints_.byDraw;
    // Single phase: the early lists hold every draw and the late ones none.
    const bool lateEmpty = !clusters_ && !plugin_->toggles().twoPhase;
    // One input per (phase, bin) stream of the camera; a mixed list (clusters) is one "bin".
    const uint32_t bins = clusters_ ? 1u : plugin_->config().binCount;
    std::vector<sieve::GeometryInputs> inputs(2 * bins, base);
    for (uint32_t l = 0; l < 2; ++l) {
        const sieve::SlotBinding& draws = b[l ? drawsLate_ : drawsEarly_];
        const sieve::SlotBinding& counts = b[l ? countsLate_ : countsEarly_];
        const std::array<float, 4>& tint = l ? tints_.late : tints_.early;
        for (uint32_t bin = 0; bin < bins; ++bin) {
            sieve::GeometryInputs& in = inputs[l * bins + bin];
            std::copy(tint.begin(), tint.end(), in.tint);
            if (clusters_) {
                in.draws = {draws.buffer, draws.offset, VK_WHOLE_SIZE};
                in.counts = {counts.buffer, counts.offset, VK_WHOLE_SIZE};
                in.maxDraws = clusters_->plugin().outputCapacity();
            } else {
                const sieve::StreamRange r = plugin_->stream(0, bin);
                in.draws = {draws.buffer, draws.offset + r.drawOffset,
                            VkDeviceSize(r.maxDraws) * sieve::gpu::SIEVE_DRAW_STRIDE};
                in.counts = {counts.buffer, counts.offset + r.countOffset, sizeof(sieve::gpu::DrawCounts)};
                in.maxDraws = r.maxDraws;
                in.mixedBins = false;  // the stream holds its bin's draws only
            }
            if (l == 1 && lateEmpty) in.maxDraws = 0;
        }
    }
    const auto order = clusters_ ? drawOrder(*geometry_, late, scene_.binMask, inputs[0], inputs[1])
                                 : streamOrder(*geometry_, late, scene_.streamBins, inputs);
    // A late pass with nothing to draw would only load and store the attachments (the early one clears them).
    const bool any = std::any_of(order.begin(), order.end(),
                                 [](const sieve::GeometryBinDraw& d) { return d.inputs && d.inputs->maxDraws; });
    if (any || !late)
        geometry_->recordWithRendering(cmd, order, {b[color_].view, b[depth_].view, !late}, extent_,
                                       glm::value_ptr(viewProj_));
    endStats(cmd, late, f);
}

}  // namespace engine
