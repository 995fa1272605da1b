#include "sieve/cluster_mesh_pass.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/vk.h"
#include "geometry/rendering.h"
#include "geometry/texture_set.h"
#include "geometry/triangle_cull.h"
#include "shared/triangle_cull.h"
#include "sieve/graphics_pipeline.h"

namespace sieve {

struct ClusterMeshPass::Impl {
    std::vector<GraphicsPipeline> pipelines;  // by bin (one in plain mode)
    GeometryOptions options;
    ClusterMeshOptions meshOptions;
    std::optional<geometry::TextureSet> textures;  // material mode
};

ClusterMeshPass::ClusterMeshPass(ClusterMeshPass&&) noexcept = default;
ClusterMeshPass& ClusterMeshPass::operator=(ClusterMeshPass&&) noexcept = default;
ClusterMeshPass::~ClusterMeshPass() = default;

namespace {

Result<void> materialPipelines(const DeviceInfo& dev, const GraphicsPipelineDesc& base, ClusterMeshPass::Impl& m) {
    static constexpr const char* kNames[gpu::SIEVE_MATERIAL_BIN_COUNT] = {
        "geometry.clusters.mesh opaque", "geometry.clusters.mesh opaque double-sided",
        "geometry.clusters.mesh masked", "geometry.clusters.mesh masked double-sided",
        "geometry.clusters.mesh blend",  "geometry.clusters.mesh blend double-sided"};
    const uint32_t slots = m.options.textureSlots;
    if (slots < 1 || slots > gpu::SIEVE_MAX_TEXTURES)
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "ClusterMeshPass: textureSlots " + std::to_string(slots) +
                                                             " outside 1.." + std::to_string(gpu::SIEVE_MAX_TEXTURES));
    auto textures = geometry::TextureSet::create(dev, m.options.maxAnisotropy, slots);
    if (!textures) return textures.error();
    m.textures.emplace(std::move(textures).value());
    for (uint32_t bin = 0; bin < gpu::SIEVE_MATERIAL_BIN_COUNT; ++bin) {
        GraphicsPipelineDesc desc = base;
        const std::array<uint32_t, 2> material = geometry::materialSpecialization(bin, slots);
        std::array<uint32_t, gpu::SIEVE_MESH_SPEC_TRIANGLE_CULL + 1> spec{};
        std::copy(material.begin(), material.end(), spec.begin());
        const VkDescriptorSetLayout layout = m.textures->layout();
        geometry::applyMaterialBin(desc, bin, layout, spec);
        // After applyMaterialBin: the bin's own face culling (none when double-sided).
        spec[gpu::SIEVE_MESH_SPEC_TRIANGLE_CULL] = geometry::triangleCullMode(m.meshOptions.triangleCull, desc, dev);
        const bool cull = spec[gpu::SIEVE_MESH_SPEC_TRIANGLE_CULL] != 0;
        desc.vertexShader = cull ? "geometry/cluster_material_cull.mesh" : "geometry/cluster_material.mesh";
        // The plain variant has no constant 2: its specialization is the material's alone.
        if (!cull) desc.specialization = std::span<const uint32_t>(spec).first(material.size());
        desc.debugName = kNames[bin];
        auto pipeline = GraphicsPipeline::create(dev, desc);
        if (!pipeline) return pipeline.error();
        m.pipelines.push_back(std::move(pipeline).value());
    }
    return {};
}

}  // namespace

Result<ClusterMeshPass> ClusterMeshPass::create(const DeviceInfo& dev, VkFormat colorFormat, VkFormat depthFormat,
                                                const GeometryOptions& options, const ClusterMeshOptions& meshOptions) {
    if (const std::string m = dev.missing(kGeometryNeeds); !m.empty())
        return makeError(VK_ERROR_FEATURE_NOT_PRESENT, "ClusterMeshPass: the device was created without " + m);
    if (!dev.meshShader || !detail::hasFunction(dev.device, &detail::DeviceTable::vkCmdDrawMeshTasksIndirectEXT))
        return makeError(VK_ERROR_FEATURE_NOT_PRESENT,
                         "ClusterMeshPass: the device was created without VK_EXT_mesh_shader and its meshShader "
                         "feature (the indirect cluster path works without them)");
    auto impl = std::make_unique<Impl>();
    impl->options = options;
    impl->meshOptions = meshOptions;
    GraphicsPipelineDesc desc = geometry::defaultPassDesc(colorFormat, depthFormat, options);
    desc.meshShading = true;
    if (options.materials) {
        if (auto r = materialPipelines(dev, desc, *impl); !r) return r.error();
    } else {
        desc.debugName = "geometry.clusters.mesh";
        std::array<uint32_t, gpu::SIEVE_MESH_SPEC_TRIANGLE_CULL + 1> spec{};
        spec[gpu::SIEVE_MESH_SPEC_TRIANGLE_CULL] = geometry::triangleCullMode(meshOptions.triangleCull, desc, dev);
        const bool cull = spec[gpu::SIEVE_MESH_SPEC_TRIANGLE_CULL] != 0;
        desc.vertexShader = cull ? "geometry/cluster_cull.mesh" : "geometry/cluster.mesh";
        if (cull) desc.specialization = spec;
        auto pipeline = GraphicsPipeline::create(dev, desc);
        if (!pipeline) return pipeline.error();
        impl->pipelines.push_back(std::move(pipeline).value());
    }
    ClusterMeshPass pass;
    pass.impl_ = std::move(impl);
    return pass;
}

bool ClusterMeshPass::triangleCull() const {
    return impl_->meshOptions.triangleCull;
}

uint32_t ClusterMeshPass::binCount() const {
    return uint32_t(impl_->pipelines.size());
}

Result<void> ClusterMeshPass::setTextures(std::span<const VkImageView> views) {
    if (!impl_->textures)
        return makeError(VK_ERROR_INITIALIZATION_FAILED,
                         "ClusterMeshPass::setTextures: the pass is not in material mode");
    return impl_->textures->write(views);
}

void ClusterMeshPass::record(VkCommandBuffer cmd, const ClusterMeshInputs& in, VkExtent2D extent,
                             const float viewProj[16], const float lightDir[3], uint32_t bin) const {
    if (impl_->options.materials) {
        // Without textures the material pipelines would read unwritten descriptors: nothing is drawn.
        if (bin >= impl_->pipelines.size() || !impl_->textures->written()) return;
        const GraphicsPipeline& pipeline = impl_->pipelines[bin];
        gpu::MaterialPush push =
            geometry::makeMaterialPush(viewProj, lightDir, in.tint, in.shadowCascades,
                                       (in.mixedBins ? gpu::SIEVE_MATERIAL_PUSH_MIXED_BINS : 0u) |
                                           (in.tintByCluster ? gpu::SIEVE_MATERIAL_PUSH_TINT_BY_DRAW : 0u));
        push.scissorWidth = extent.width;
        push.scissorHeight = extent.height;
        push.viewport = geometry::viewportTransform(in.viewport, extent);
        // Without shadows the shadow binding is never read: any valid buffer will do.
        const BufferRange shadow = in.shadowCascades ? in.shadow : in.instances;
        pipeline.bind(cmd,
                      {Binding::storage(in.instances), Binding::storage(in.draws), Binding::storage(in.materials),
                       Binding::storage(in.primitives), Binding::storage(shadow), Binding::storage(in.ids),
                       Binding::storage(in.counts), Binding::storage(in.clusters), Binding::storage(in.vertices),
                       Binding::storage(in.meshletVertices), Binding::storage(in.triangles), Binding::storage(in.uvs)},
                      &push, sizeof(push));
        const VkDescriptorSet set = impl_->textures->set();
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout(), 1, 1, &set, 0, nullptr);
    } else {
        gpu::GeometryPush push = geometry::makePush(viewProj, lightDir);
        push.options.y = in.tintByCluster ? 1u : 0u;
        push.tint = gpu::vec4(in.tint[0], in.tint[1], in.tint[2], in.tint[3]);
        push.options.z = extent.width;  // the scissor geometry::setViewport sets
        push.options.w = extent.height;
        push.viewport = geometry::viewportTransform(in.viewport, extent);
        impl_->pipelines[0].bind(
            cmd,
            {Binding::storage(in.instances), Binding::storage(in.draws), Binding::storage(in.ids),
             Binding::storage(in.counts), Binding::storage(in.clusters), Binding::storage(in.vertices),
             Binding::storage(in.meshletVertices), Binding::storage(in.triangles)},
            &push, sizeof(push));
    }
    geometry::setViewport(cmd, in.viewport, extent);
    vkCmdDrawMeshTasksIndirectEXT(cmd, in.tasks.buffer, in.tasks.offset, 1, 16);
}

void ClusterMeshPass::recordWithRendering(VkCommandBuffer cmd, const ClusterMeshInputs& in,
                                          const GeometryAttachments& attachments, VkExtent2D extent,
                                          const float viewProj[16]) const {
    recordWithRendering(cmd, geometry::everyBin<ClusterMeshBinDraw>(in, binCount()), attachments, extent, viewProj);
}

void ClusterMeshPass::recordWithRendering(VkCommandBuffer cmd, std::span<const ClusterMeshBinDraw> draws,
                                          const GeometryAttachments& attachments, VkExtent2D extent,
                                          const float viewProj[16]) const {
    geometry::recordInRendering(
        cmd, draws, attachments, extent, impl_->options.reverseZ,
        [&](const ClusterMeshInputs& in, uint32_t bin) { record(cmd, in, extent, viewProj, kDefaultLightDir, bin); });
}

}  // namespace sieve
