#include "engine/scene/scene_renderer.h"

#include <algorithm>
#include <cstdlib>
#include <glm/gtc/type_ptr.hpp>
#include <string>

namespace engine {

using graph::GraphBuilder;
using graph::ImportDesc;
using sieve::SlotDesc;

namespace {

// The camera keeps a stream for every draw; the cascades share what is left of one storage-buffer
// binding (a cascade sees a slice of the scene: overflow there is counted in its stats).
std::vector<uint32_t> shadowStreamCapacities(const sieve::DeviceInfo& dev, const sieve::CullingConfig& c) {
    const uint64_t all = c.drawCapacity ? c.drawCapacity : uint64_t(c.maxInstances) * c.maxDrawsPerInstance;
    const uint64_t budget = dev.limits.maxStorageBufferRange / sizeof(sieve::gpu::DrawCommand);
    const uint64_t slack = 64;  // per stream: room for the plugin's alignment of stream bases
    const uint64_t rest = budget > all + slack * c.maxViews ? budget - all - slack * c.maxViews : 0;
    const uint64_t shadow = std::min(all, rest / std::max(c.maxViews - 1, 1u));
    std::vector<uint32_t> caps(c.maxViews * c.binCount, uint32_t(shadow));
    for (uint32_t b = 0; b < c.binCount; ++b) caps[b] = uint32_t(all);
    return caps;
}

}  // namespace

sieve::Result<std::unique_ptr<SceneRenderer>> SceneRenderer::create(Context& ctx, const sieve::assets::SceneData& scene,
                                                                    VkFormat colorFormat, VkExtent2D extent,
                                                                    uint32_t framesInFlight, uint32_t drawCapacity,
                                                                    uint32_t maxViews, uint32_t shadowCascades) {
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
    config.maxViews = std::max(maxViews, 1 + shadowCascades);
    if (shadowCascades) {
        auto shadow = ShadowPass::create(ctx, shadowCascades, 1024);
        if (!shadow) return shadow.error();
        r->shadow_ = std::move(shadow).value();
        casterBounds(scene.instances, r->sceneMin_, r->sceneMax_);
        config.streamCapacities = shadowStreamCapacities(ctx.info(), config);
    }
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
    auto geometry = sieve::GeometryPass::create(ctx.info(), colorFormat, kDepthFormat);
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
    std::vector<graph::SlotAlias> aliases = {{sieve::CullingPlugin::kDepth, depth_}};
    auto map = g.addPlugin(*plugin_, aliases, [&](uint32_t pass, const std::vector<graph::SlotId>& m) {
        if (pass != sieve::CullingPlugin::kEarlyCompact && pass != sieve::CullingPlugin::kLateCompact) return;
        const bool late = pass == sieve::CullingPlugin::kLateCompact;
        const auto slot = [&](const char* name) { return m[plugin_->slot(name)]; };
        const auto draws = slot(late ? sieve::CullingPlugin::kDrawsLate : sieve::CullingPlugin::kDrawsEarly);
        const auto counts = slot(late ? sieve::CullingPlugin::kCountsLate : sieve::CullingPlugin::kCountsEarly);
        if (shadow_ && !late)
            shadowBuffer_ = shadow_->addTo(
                g, {draws, counts, slot(sieve::CullingPlugin::kInstances), vertices_, indices_}, *plugin_, 1);
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
                  vertexRead(vertices_),
                  vertexRead(indices_)};
        if (shadow_) d.uses.push_back(storageRead(shadowBuffer_, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT));
        g.addPass(std::move(d), [this, late](VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo& f) {
            recordDraw(late, cmd, b, f);
        });
    });
    if (!map) return map.error();
    const auto& m = map.value();
    if (hizView_) retired_.push_back({frameIndex_, nullptr, hizView_->releaseImage()});
    if (hizView_)
        if (auto r = hizView_->addTo(g, m[plugin_->slot(sieve::CullingPlugin::kPyramid)]); !r) return r;
    instances_ = m[plugin_->slot(sieve::CullingPlugin::kInstances)];
    meshes_ = m[plugin_->slot(sieve::CullingPlugin::kMeshes)];
    primitives_ = m[plugin_->slot(sieve::CullingPlugin::kPrimitives)];
    drawsEarly_ = m[plugin_->slot(sieve::CullingPlugin::kDrawsEarly)];
    countsEarly_ = m[plugin_->slot(sieve::CullingPlugin::kCountsEarly)];
    drawsLate_ = m[plugin_->slot(sieve::CullingPlugin::kDrawsLate)];
    countsLate_ = m[plugin_->slot(sieve::CullingPlugin::kCountsLate)];
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
                             std::pair{instances_, &scene_.instances}, std::pair{meshes_, &scene_.meshes},
                             std::pair{primitives_, &scene_.primitives}})
        if (auto r = bindBuffer(slot, *buf); !r) return r;
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

sieve::Result<void> SceneRenderer::reloadPipelines() {
    retired_.clear();  // the caller waited for the GPU
    // Every new object first; the old ones are replaced only once all of them exist.
    auto plugin = sieve::CullingPlugin::create(ctx_.info(), plugin_->config());
    if (!plugin) return plugin.error();
    std::unique_ptr<sieve::CullingPlugin> next = std::move(plugin).value();
    next->toggles() = plugin_->toggles();
    if (auto r = next->setInstanceCount(scene_.instanceCount); !r) return r;
    auto geometry = sieve::GeometryPass::create(ctx_.info(), colorFormat_, kDepthFormat);
    if (!geometry) return geometry.error();
    std::optional<sieve::GraphicsPipeline> shadowPipeline;
    if (shadow_) {
        auto p = ShadowPass::createPipeline(ctx_);
        if (!p) return p.error();
        shadowPipeline.emplace(std::move(p).value());
    }
    std::optional<sieve::ComputePipeline> hizPipeline;
    if (hizView_) {
        auto p = hizView_->createPipeline();
        if (!p) return p.error();
        hizPipeline.emplace(std::move(p).value());
    }
    std::swap(plugin_, next);
    if (auto r = build(extent_); !r) {
        std::swap(plugin_, next);
        (void)build(extent_);  // the previous graph again (it was built before with the same inputs)
        return r;
    }
    geometry_.emplace(std::move(geometry).value());
    if (hizPipeline) hizView_->replacePipeline(std::move(*hizPipeline));
    if (shadowPipeline) shadow_->replacePipeline(std::move(*shadowPipeline));
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
    if (slot < statsPools_.size() && statsWritten_[slot]) {
        uint64_t prims[2] = {0, 0};
        VkResult r = vkGetQueryPoolResults(ctx_.device(), statsPools_[slot], 0, 2, sizeof(prims), prims,
                                           sizeof(uint64_t), VK_QUERY_RESULT_64_BIT);
        if (r == VK_SUCCESS) {
            counts.triangles = prims[0] + prims[1];
            counts.trianglesValid = true;
        }
    }
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
    std::vector<sieve::CullView> views(1);
    views[0].desc = {view, proj, {0.0f, 0.0f, float(frame.extent.width), float(frame.extent.height), 0.0f, 1.0f}};
    views[0].name = "camera";
    if (shadow_) {
        shadow_->update(view, proj, sceneMin_, sceneMax_);
        views.insert(views.end(), shadow_->views().begin(), shadow_->views().end());
    }
    views.insert(views.end(), extraViews_.begin(), extraViews_.end());
    if (auto r = plugin_->setViews(views); !r) return r;
    const sieve::FrameInfo info = frame.info;
    // An error here still leaves a frame that draws everything; it is returned after recording.
    auto prepared = plugin_->prepare(info);
    if (!statsPools_.empty()) vkCmdResetQueryPool(frame.cmd, statsPools_[info.frameSlot], 0, 2);
    auto r = executor_->execute(frame.cmd, info);
    if (!statsPools_.empty()) statsWritten_[info.frameSlot] = true;
    if (!prepared) return prepared;
    if (!plugin_->lastError().empty()) return sieve::makeError(VK_ERROR_UNKNOWN, plugin_->lastError());
    return r;
}

void SceneRenderer::recordDraw(bool late, VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo& f) {
    const bool stats = !statsPools_.empty();
    if (stats) vkCmdBeginQuery(cmd, statsPools_[f.frameSlot], late ? 1 : 0, 0);
    sieve::GeometryInputs in;
    in.vertices = {b[vertices_].buffer, 0, VK_WHOLE_SIZE};
    in.indices = {b[indices_].buffer, 0, VK_WHOLE_SIZE};
    in.instances = {b[instances_].buffer, 0, VK_WHOLE_SIZE};
    if (shadow_) {
        in.shadow = {b[shadowBuffer_].buffer, b[shadowBuffer_].offset, VK_WHOLE_SIZE};
        in.shadowCascades = shadow_->cascades();
    }
    // The camera's stream of every bin (the early pass clears before the first).
    bool clear = !late;
    for (uint32_t bin = 0; bin < plugin_->config().binCount; ++bin) {
        const sieve::StreamRange s = plugin_->stream(0, bin);
        if (!s.maxDraws) continue;
        const sieve::SlotBinding& draws = b[late ? drawsLate_ : drawsEarly_];
        const sieve::SlotBinding& counts = b[late ? countsLate_ : countsEarly_];
        in.draws = {draws.buffer, draws.offset + s.drawOffset,
                    VkDeviceSize(s.maxDraws) * sieve::gpu::SIEVE_DRAW_STRIDE};
        in.counts = {counts.buffer, counts.offset + s.countOffset, sizeof(sieve::gpu::DrawCounts)};
        in.maxDraws = s.maxDraws;
        geometry_->recordWithRendering(cmd, in, {b[color_].view, b[depth_].view, clear}, extent_,
                                       glm::value_ptr(viewProj_));
        clear = false;
    }
    if (clear) {  // no stream of the camera can draw: still clear
        in.maxDraws = 0;
        geometry_->recordWithRendering(cmd, in, {b[color_].view, b[depth_].view, true}, extent_,
                                       glm::value_ptr(viewProj_));
    }
    if (stats) vkCmdEndQuery(cmd, statsPools_[f.frameSlot], late ? 1 : 0);
}

}  // namespace engine
