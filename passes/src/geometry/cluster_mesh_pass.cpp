#include "sieve/cluster_mesh_pass.h"

#include "core/vk.h"
#include "geometry/rendering.h"
#include "sieve/graphics_pipeline.h"

namespace sieve {

struct ClusterMeshPass::Impl {
    GraphicsPipeline pipeline;
    GeometryOptions options;
};

ClusterMeshPass::ClusterMeshPass(ClusterMeshPass&&) noexcept = default;
ClusterMeshPass& ClusterMeshPass::operator=(ClusterMeshPass&&) noexcept = default;
ClusterMeshPass::~ClusterMeshPass() = default;

Result<ClusterMeshPass> ClusterMeshPass::create(const DeviceInfo& dev, VkFormat colorFormat, VkFormat depthFormat,
                                                const GeometryOptions& options) {
    if (const std::string m = dev.missing(kGeometryNeeds); !m.empty())
        return makeError(VK_ERROR_FEATURE_NOT_PRESENT, "ClusterMeshPass: the device was created without " + m);
    if (!dev.meshShader || !detail::hasFunction(dev.device, &detail::DeviceTable::vkCmdDrawMeshTasksIndirectEXT))
        return makeError(VK_ERROR_FEATURE_NOT_PRESENT,
                         "ClusterMeshPass: the device was created without VK_EXT_mesh_shader and its meshShader "
                         "feature (the indirect cluster path works without them)");
    GraphicsPipelineDesc desc = geometry::defaultPassDesc(colorFormat, depthFormat, options);
    desc.vertexShader = "geometry/cluster.mesh";
    desc.meshShading = true;
    desc.debugName = "geometry.clusters.mesh";
    auto pipeline = GraphicsPipeline::create(dev, desc);
    if (!pipeline) return pipeline.error();
    ClusterMeshPass pass;
    pass.impl_ = std::make_unique<Impl>(Impl{std::move(pipeline).value(), options});
    return pass;
}

void ClusterMeshPass::record(VkCommandBuffer cmd, const ClusterMeshInputs& in, VkExtent2D extent,
                             const float viewProj[16], const float lightDir[3]) const {
    gpu::GeometryPush push = geometry::makePush(viewProj, lightDir);
    push.options.y = in.tintByCluster ? 1u : 0u;
    impl_->pipeline.bind(cmd,
                         {Binding::storage(in.instances), Binding::storage(in.draws), Binding::storage(in.ids),
                          Binding::storage(in.counts), Binding::storage(in.clusters), Binding::storage(in.vertices),
                          Binding::storage(in.meshletVertices), Binding::storage(in.triangles)},
                         &push, sizeof(push));
    geometry::setViewport(cmd, in.viewport, extent);
    vkCmdDrawMeshTasksIndirectEXT(cmd, in.tasks.buffer, in.tasks.offset, 1, 16);
}

void ClusterMeshPass::recordWithRendering(VkCommandBuffer cmd, const ClusterMeshInputs& in,
                                          const GeometryAttachments& attachments, VkExtent2D extent,
                                          const float viewProj[16]) const {
    geometry::beginRendering(cmd, attachments, extent, impl_->options.reverseZ);
    record(cmd, in, extent, viewProj, kDefaultLightDir);
    vkCmdEndRendering(cmd);
}

}  // namespace sieve
