#include "city_renderer.h"

#include <algorithm>
#include <glm/gtc/type_ptr.hpp>

#include "engine/scene/scene_geometry.h"
#include "engine/vk/context.h"
#include "sieve/graphics_pipeline.h"

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
                                                                  uint32_t framesInFlight, bool overhead) {
    std::unique_ptr<CityRenderer> r(new CityRenderer(ctx));
    r->extent_ = extent;
    auto gpu = engine::GpuScene::upload(ctx, scene);
    if (!gpu) return gpu.error();
    r->scene_ = std::move(gpu).value();
    sieve::CullingConfig config = r->scene_.cullingConfig(framesInFlight, extent);
    if (overhead) {
        r->overhead_.emplace();
        config.maxViews = 2;
    }
    auto plugin = CullingPlugin::create(ctx.info(), config);
    if (!plugin) return plugin.error();
    r->plugin_ = std::move(plugin).value();
    if (auto s = r->plugin_->setInstanceCount(r->scene_.instanceCount); !s) return s.error();
    auto geometry = engine::createSceneGeometry(ctx, colorFormat, r->scene_);
    if (!geometry) return geometry.error();
    r->geometry_.emplace(std::move(geometry).value());
    // Room for every pass the graph can hold: the plugin's and the two draws.
    auto timer =
        engine::GpuTimestamps::create(ctx, uint32_t(r->plugin_->passes().size()) + 3, framesInFlight, "host2 passes");
    if (!timer) return timer.error();
    r->timer_.emplace(std::move(timer).value());
    r->vertices_ = importedBuffer(r->scene_.vertices);
    r->indices_ = importedBuffer(r->scene_.indices);
    r->instances_ = importedBuffer(r->scene_.instances);
    r->bounds_ = importedBuffer(r->scene_.bounds);
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
    imports.buffers[CullingPlugin::kBounds] = fg.importBuffer(CullingPlugin::kBounds, bounds_);
    imports.buffers[CullingPlugin::kMeshes] = fg.importBuffer(CullingPlugin::kMeshes, meshes_);
    imports.buffers[CullingPlugin::kPrimitives] = fg.importBuffer(CullingPlugin::kPrimitives, primitives_);
    imports.images[CullingPlugin::kDepth] = fg.importImage(CullingPlugin::kDepth, depth);
    auto added = addSievePlugin(fg, *plugin_, imports, [&](uint32_t pass, SieveSlots& slots) {
        using Role = CullingPlugin::PassRole;
        if (pass == plugin_->pass(Role::EarlyStreams)) addDraw(fg, slots, false, host);
        if (pass == plugin_->pass(Role::LateStreams)) addDraw(fg, slots, true, host);
        if (pass == plugin_->pass(Role::LateStreams) && overhead_) addOverheadDraw(fg, slots, host);
    });
    if (!added) return added.error();
    if (auto c = fg.compile(); !c) return c.error();

    viewProj_ = proj * view;
    std::vector<sieve::CullView> views(1);
    views[0].desc = {view, proj, {0.0f, 0.0f, float(frame.extent.width), float(frame.extent.height), 0.0f, 1.0f}};
    views[0].name = "camera";
    if (overhead_) {
        overhead_->update(glm::vec3(glm::inverse(view)[3]));
        views.push_back(overhead_->cullView(frame.extent));
    }
    if (auto r = plugin_->setViews(views); !r) return r.error();
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
    const sieve::SlotId depth = slot(CullingPlugin::kDepth);
    fg.addPass<Data>(
        late ? "draw.late" : "draw.early",
        [&](Builder& b, Data& d) {
            readDrawInputs(b, d, slots, host, draws, counts);
            // The new depth version goes back to the plugin's slot table: hiz.build reads this one.
            d.depth = slots.images[depth] = b.write(slots.images[depth], Usage::DepthAttachment);
        },
        [this, late](const Data& d, Context& c) { recordDraw(late, c, d); });
}

void CityRenderer::readDrawInputs(Builder& b, DrawData& d, SieveSlots& slots, HostHandles& host, sieve::SlotId draws,
                                  sieve::SlotId counts) const {
    d.draws = b.read(slots.buffers[draws], Usage::IndirectArgs);
    b.read(d.draws, Usage::StorageReadVertex);  // the vertex shader reads the record's extra fields
    d.counts = b.read(slots.buffers[counts], Usage::IndirectArgs);
    d.instances = b.read(slots.buffers[plugin_->slot(CullingPlugin::kInstances)], Usage::StorageReadVertex);
    d.vertices = b.read(host.vertices, Usage::VertexInput);
    d.indices = b.read(host.indices, Usage::VertexInput);
    d.uvs = b.read(host.uvs, Usage::VertexInput);
    d.materials = b.read(host.materials, Usage::StorageReadVertex);
    d.primitives = b.read(slots.buffers[plugin_->slot(CullingPlugin::kPrimitives)], Usage::StorageReadVertex);
    d.color = host.color = b.write(host.color, Usage::ColorAttachment);
}

// The scene's buffers of a draw pass, whole (the draw list and its counts are the caller's).
sieve::GeometryInputs CityRenderer::sceneInputs(Context& c, const DrawData& d) {
    const auto whole = [&](BufferHandle h) { return sieve::BufferRange{c.binding(h).buffer, 0, VK_WHOLE_SIZE}; };
    sieve::GeometryInputs in;
    in.vertices = whole(d.vertices);
    in.uvs = whole(d.uvs);
    in.indices = whole(d.indices);
    in.instances = whole(d.instances);
    in.materials = whole(d.materials);
    in.primitives = whole(d.primitives);
    return in;
}

void CityRenderer::recordDraw(bool late, Context& c, const DrawData& d) const {
    sieve::GeometryInputs in = sceneInputs(c, d);
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

void CityRenderer::addOverheadDraw(FrameGraph& fg, SieveSlots& slots, HostHandles& host) {
    using Data = DrawData;
    const sieve::SlotId draws = plugin_->slot(CullingPlugin::kDrawsEarly);  // view 1 is culled early
    const sieve::SlotId counts = plugin_->slot(CullingPlugin::kCountsEarly);
    fg.addPass<Data>(
        "draw.overhead",
        [&](Builder& b, Data& d) {
            readDrawInputs(b, d, slots, host, draws, counts);
            // Its own depth: the plugin's (the camera's) stays what the false-culling check reads.
            const ImageHandle depth = fg.createImage(
                "overhead.depth", {engine::kDepthFormat, extent_, 1, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT});
            d.depth = b.write(depth, Usage::DepthAttachment);
        },
        [this](const Data& d, Context& c) {
            const VkExtent2D e = extent_;
            const VkViewport vp = overhead_->viewport(e);
            const VkRenderingAttachmentInfo color =
                sieve::renderingAttachment(c.binding(d.color).view, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                           VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE);
            // Cleared to 0: reverse Z's far depth.
            const VkRenderingAttachmentInfo depth =
                sieve::renderingAttachment(c.binding(d.depth).view, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                                           VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE);
            sieve::beginRendering(c.cmd(), e, &color, &depth);
            // The inset's background, then the view's stream drawn into it (the viewport maps it there).
            const VkClearAttachment clear{VK_IMAGE_ASPECT_COLOR_BIT, 0, {{{0.12f, 0.12f, 0.14f, 1.0f}}}};
            const VkClearRect rect{{{int32_t(vp.x), int32_t(vp.y)}, {uint32_t(vp.width), uint32_t(vp.height)}}, 0, 1};
            vkCmdClearAttachments(c.cmd(), 1, &clear, 1, &rect);
            const sieve::StreamRange s = plugin_->stream(1, 0);
            sieve::GeometryInputs in = sceneInputs(c, d);
            in.draws = {c.binding(d.draws).buffer, s.drawOffset,
                        VkDeviceSize(s.maxDraws) * sieve::gpu::SIEVE_DRAW_STRIDE};
            in.counts = {c.binding(d.counts).buffer, s.countOffset, sizeof(sieve::gpu::DrawCounts)};
            in.maxDraws = s.maxDraws;
            in.viewport = &vp;
            const glm::mat4 viewProj = overhead_->proj * overhead_->view;
            // One mixed stream (binCount 1): each bin's pipeline draws its part of it.
            for (const sieve::GeometryBinDraw& draw : engine::listOrder(*geometry_, scene_.binMask, in))
                geometry_->record(c.cmd(), *draw.inputs, e, glm::value_ptr(viewProj), sieve::kDefaultLightDir,
                                  draw.bin);
            vkCmdEndRendering(c.cmd());
        });
}

}  // namespace host2
