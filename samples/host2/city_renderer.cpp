#include "city_renderer.h"

#include <algorithm>
#include <glm/gtc/type_ptr.hpp>

#include "engine/scene/scene_geometry.h"
#include "engine/vk/context.h"

namespace host2 {

using sieve::CullingPlugin;

namespace {

PhysicalResource importedBuffer(const engine::Buffer& b) {
    PhysicalResource p;
    p.binding.buffer = b.handle();
    p.binding.size = b.size();
    return p;
}

// The target's colour or depth image of this frame, in the layout the target hands it over in.
PhysicalResource frameImage(VkImage image, VkImageView view, VkExtent2D extent, VkImageAspectFlags aspect,
                            VkImageLayout layout, VkPipelineStageFlags2 firstUse) {
    PhysicalResource p;
    p.binding.image = image;
    p.binding.view = view;
    p.binding.mipViews = {view};
    p.binding.extent = extent;
    p.aspect = aspect;
    p.state.layout = layout;
    // The first write waits for the stage the target's acquire semaphore waits at (nothing, headless).
    p.state.writeStage = firstUse;
    return p;
}

}  // namespace

sieve::Result<std::unique_ptr<CityRenderer>> CityRenderer::create(engine::Context& ctx,
                                                                  const sieve::assets::SceneData& scene,
                                                                  VkFormat colorFormat, VkExtent2D extent,
                                                                  uint32_t framesInFlight) {
    std::unique_ptr<CityRenderer> r(new CityRenderer(ctx));
    r->extent_ = extent;
    auto gpu = engine::GpuScene::upload(ctx, scene);
    if (!gpu) return gpu.error();
    r->scene_ = std::move(gpu).value();
    sieve::CullingConfig config;
    config.maxInstances = std::max(r->scene_.instanceCount, 1u);
    config.maxDrawsPerInstance = std::max(r->scene_.maxDrawsPerInstance, 1u);
    config.framesInFlight = framesInFlight;
    config.viewport = extent;
    auto plugin = CullingPlugin::create(ctx.info(), config);
    if (!plugin) return plugin.error();
    r->plugin_ = std::move(plugin).value();
    if (auto s = r->plugin_->setInstanceCount(r->scene_.instanceCount); !s) return s.error();
    auto geometry = engine::createSceneGeometry(ctx, colorFormat, r->scene_);
    if (!geometry) return geometry.error();
    r->geometry_.emplace(std::move(geometry).value());
    // Room for every pass the graph can hold: the plugin's and the two draws.
    auto timer = engine::GpuTimestamps::create(ctx, CullingPlugin::kPassCount + 2, framesInFlight, "host2 passes");
    if (!timer) return timer.error();
    r->timer_.emplace(std::move(timer).value());
    r->vertices_ = importedBuffer(r->scene_.vertices);
    r->indices_ = importedBuffer(r->scene_.indices);
    r->instances_ = importedBuffer(r->scene_.instances);
    r->meshes_ = importedBuffer(r->scene_.meshes);
    r->primitives_ = importedBuffer(r->scene_.primitives);
    r->uvs_ = importedBuffer(r->scene_.materials.uvs);
    r->materials_ = importedBuffer(r->scene_.materials.materials);
    return r;
}

const sieve::SlotBinding* CityRenderer::binding(std::string_view name) const {
    const PhysicalResource* p = cache_.find(name);
    return p ? &p->binding : nullptr;
}

sieve::Result<engine::FrameEnd> CityRenderer::record(const engine::Frame& frame, const glm::mat4& view,
                                                     const glm::mat4& proj) {
    if (frame.extent.width != extent_.width || frame.extent.height != extent_.height)
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "host2 renders at the extent it was created with");
    PhysicalResource color = frameImage(frame.colorImage, frame.colorView, frame.extent, VK_IMAGE_ASPECT_COLOR_BIT,
                                        frame.colorLayout, frame.firstUseStage);
    PhysicalResource depth = frameImage(frame.depthImage, frame.depthView, frame.extent, VK_IMAGE_ASPECT_DEPTH_BIT,
                                        frame.depthLayout, VK_PIPELINE_STAGE_2_NONE);

    FrameGraph fg(cache_);
    HostHandles host{fg.importImage("color", color), fg.importBuffer("scene.vertices", vertices_),
                     fg.importBuffer("scene.indices", indices_), fg.importBuffer("scene.uvs", uvs_),
                     fg.importBuffer("scene.materials", materials_)};
    SieveImports imports;
    imports.buffers[CullingPlugin::kInstances] = fg.importBuffer(CullingPlugin::kInstances, instances_);
    imports.buffers[CullingPlugin::kMeshes] = fg.importBuffer(CullingPlugin::kMeshes, meshes_);
    imports.buffers[CullingPlugin::kPrimitives] = fg.importBuffer(CullingPlugin::kPrimitives, primitives_);
    imports.images[CullingPlugin::kDepth] = fg.importImage(CullingPlugin::kDepth, depth);
    auto added = addSievePlugin(fg, *plugin_, imports, [&](uint32_t pass, SieveSlots& slots) {
        if (pass == CullingPlugin::kEarlyCompact) addDraw(fg, slots, false, host);
        if (pass == CullingPlugin::kLateCompact) addDraw(fg, slots, true, host);
    });
    if (!added) return added.error();
    if (auto c = fg.compile(); !c) return c.error();

    viewProj_ = proj * view;
    sieve::ViewDesc cullView;
    cullView.view = view;
    cullView.projection = proj;
    cullView.viewport = {0.0f, 0.0f, float(frame.extent.width), float(frame.extent.height), 0.0f, 1.0f};
    if (auto r = plugin_->setView(cullView); !r) return r.error();
    const sieve::FrameInfo info = frame.info;
    auto prepared = plugin_->prepare(info);
    if (auto e = fg.execute(frame.cmd, info, &*timer_); !e) return e.error();
    if (!prepared) return prepared.error();
    if (!plugin_->lastError().empty()) return sieve::makeError(VK_ERROR_UNKNOWN, plugin_->lastError());
    order_ = fg.order();
    return engine::FrameEnd{color.state.layout, color.state.writeStage, color.state.writeAccess};
}

struct CityRenderer::DrawData {
    ImageHandle color, depth;
    BufferHandle vertices, indices, uvs, materials, primitives, instances, draws, counts;
};

void CityRenderer::addDraw(FrameGraph& fg, SieveSlots& slots, bool late, HostHandles& host) {
    using Data = DrawData;
    const auto slot = [&](const char* name) { return plugin_->slot(name); };
    const sieve::SlotId draws = slot(late ? CullingPlugin::kDrawsLate : CullingPlugin::kDrawsEarly);
    const sieve::SlotId counts = slot(late ? CullingPlugin::kCountsLate : CullingPlugin::kCountsEarly);
    const sieve::SlotId instances = slot(CullingPlugin::kInstances);
    const sieve::SlotId primitives = slot(CullingPlugin::kPrimitives);
    const sieve::SlotId depth = slot(CullingPlugin::kDepth);
    fg.addPass<Data>(
        late ? "draw.late" : "draw.early",
        [&](Builder& b, Data& d) {
            d.draws = b.read(slots.buffers[draws], Usage::IndirectArgs);
            b.read(d.draws, Usage::StorageReadVertex);  // the vertex shader reads the record's extra fields
            d.counts = b.read(slots.buffers[counts], Usage::IndirectArgs);
            d.instances = b.read(slots.buffers[instances], Usage::StorageReadVertex);
            d.vertices = b.read(host.vertices, Usage::VertexInput);
            d.indices = b.read(host.indices, Usage::VertexInput);
            d.uvs = b.read(host.uvs, Usage::VertexInput);
            d.materials = b.read(host.materials, Usage::StorageReadVertex);
            d.primitives = b.read(slots.buffers[primitives], Usage::StorageReadVertex);
            d.color = host.color = b.write(host.color, Usage::ColorAttachment);
            // The new depth version goes back to the plugin's slot table: hiz.build reads this one.
            d.depth = slots.images[depth] = b.write(slots.images[depth], Usage::DepthAttachment);
        },
        [this, late](const Data& d, Context& c) { recordDraw(late, c, d); });
}

void CityRenderer::recordDraw(bool late, Context& c, const DrawData& d) const {
    sieve::GeometryInputs in;
    in.vertices = {c.binding(d.vertices).buffer, 0, VK_WHOLE_SIZE};
    in.uvs = {c.binding(d.uvs).buffer, 0, VK_WHOLE_SIZE};
    in.indices = {c.binding(d.indices).buffer, 0, VK_WHOLE_SIZE};
    in.instances = {c.binding(d.instances).buffer, 0, VK_WHOLE_SIZE};
    in.materials = {c.binding(d.materials).buffer, 0, VK_WHOLE_SIZE};
    in.primitives = {c.binding(d.primitives).buffer, 0, VK_WHOLE_SIZE};
    in.draws = {c.binding(d.draws).buffer, 0, VK_WHOLE_SIZE};
    in.counts = {c.binding(d.counts).buffer, 0, VK_WHOLE_SIZE};
    in.maxDraws = plugin_->drawCapacity();
    // The city's materials are all opaque: each list's bins once (a scene with blend bins would draw them
    // after the late list, as engine/scene/scene_geometry.h's drawOrder does).
    const auto order = engine::listOrder(*geometry_, scene_.binMask, in);
    // The early pass clears; the late one draws on top of it.
    geometry_->recordWithRendering(c.cmd(), order, {c.binding(d.color).view, c.binding(d.depth).view, !late}, extent_,
                                   glm::value_ptr(viewProj_));
}

}  // namespace host2
