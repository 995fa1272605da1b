#include "sieve/geometry_pass.h"

#include <array>
#include <optional>
#include <vector>

#include "core/vk.h"
#include "geometry/rendering.h"
#include "geometry/texture_set.h"
#include "shared/draw.h"
#include "shared/geometry_push.h"
#include "shared/material.h"
#include "shared/scene.h"
#include "sieve/graphics_pipeline.h"

namespace sieve {

struct GeometryPass::Impl {
    DeviceInfo dev;
    std::vector<GraphicsPipeline> pipelines;  // by bin (one in plain mode)
    GeometryOptions options;
    std::optional<geometry::TextureSet> textures;  // material mode
};

GeometryPass::GeometryPass(GeometryPass&&) noexcept = default;
GeometryPass& GeometryPass::operator=(GeometryPass&&) noexcept = default;
GeometryPass::~GeometryPass() = default;

static_assert(GeometryOptions{}.textureSlots == gpu::SIEVE_MAX_TEXTURES);

namespace {

Result<GraphicsPipeline> plainPipeline(const DeviceInfo& dev, GraphicsPipelineDesc desc) {
    const VkVertexInputBindingDescription binding{0, sizeof(gpu::Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
    const VkVertexInputAttributeDescription attributes[] = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(gpu::Vertex, px)},
        {1, 0, VK_FORMAT_R32_UINT, offsetof(gpu::Vertex, normal)}};
    desc.vertexShader = "geometry/mesh.vert";
    desc.vertexBindings = {&binding, 1};
    desc.vertexAttributes = attributes;
    desc.debugName = "geometry";
    return GraphicsPipeline::create(dev, desc);
}

Result<GraphicsPipeline> binPipeline(const DeviceInfo& dev, GraphicsPipelineDesc desc, uint32_t bin,
                                     VkDescriptorSetLayout textures, uint32_t textureSlots) {
    // Two streams: the 16-byte Vertex the culling and the other hosts share, and the UVs beside it.
    const VkVertexInputBindingDescription bindings[] = {{0, sizeof(gpu::Vertex), VK_VERTEX_INPUT_RATE_VERTEX},
                                                        {1, sizeof(gpu::VertexUv), VK_VERTEX_INPUT_RATE_VERTEX}};
    const VkVertexInputAttributeDescription attributes[] = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(gpu::Vertex, px)},
        {1, 0, VK_FORMAT_R32_UINT, offsetof(gpu::Vertex, normal)},
        {2, 1, VK_FORMAT_R32G32_SFLOAT, offsetof(gpu::VertexUv, u)}};
    static constexpr const char* kNames[gpu::SIEVE_MATERIAL_BIN_COUNT] = {
        "geometry opaque", "geometry opaque double-sided", "geometry masked", "geometry masked double-sided",
        "geometry blend",  "geometry blend double-sided"};
    desc.vertexShader = "geometry/material.vert";
    desc.vertexBindings = bindings;
    desc.vertexAttributes = attributes;
    const std::array<uint32_t, 2> spec = geometry::materialSpecialization(bin, textureSlots);
    geometry::applyMaterialBin(desc, bin, textures, spec);
    desc.debugName = kNames[bin];
    return GraphicsPipeline::create(dev, desc);
}

}  // namespace

Result<GeometryPass> GeometryPass::create(const DeviceInfo& dev, VkFormat colorFormat, VkFormat depthFormat,
                                          const GeometryOptions& options) {
    // drawIndirectCount is used where enabled, not needed (kOptionalNeeds, drawStream).
    if (const std::string m = dev.missing(kGeometryNeeds); !m.empty())
        return makeError(VK_ERROR_FEATURE_NOT_PRESENT, "GeometryPass: the device was created without " + m +
                                                           " (sieve::requirements() lists what to enable)");
    auto impl = std::make_unique<Impl>();
    impl->options = options;
    impl->dev = dev;
    // The fixed state every pipeline of the pass shares (the cluster mesh pass too); the bin decides
    // culling, depth writes and blending.
    const GraphicsPipelineDesc base = geometry::defaultPassDesc(colorFormat, depthFormat, options);
    if (!options.materials) {
        auto pipeline = plainPipeline(dev, base);
        if (!pipeline) return pipeline.error();
        impl->pipelines.push_back(std::move(pipeline).value());
    } else {
        if (options.textureSlots < 1 || options.textureSlots > gpu::SIEVE_MAX_TEXTURES)
            return makeError(VK_ERROR_INITIALIZATION_FAILED, "GeometryPass: textureSlots " +
                                                                 std::to_string(options.textureSlots) + " outside 1.." +
                                                                 std::to_string(gpu::SIEVE_MAX_TEXTURES));
        auto textures = geometry::TextureSet::create(dev, options.maxAnisotropy, options.textureSlots);
        if (!textures) return textures.error();
        impl->textures.emplace(std::move(textures).value());
        for (uint32_t bin = 0; bin < gpu::SIEVE_MATERIAL_BIN_COUNT; ++bin) {
            auto pipeline = binPipeline(dev, base, bin, impl->textures->layout(), options.textureSlots);
            if (!pipeline) return pipeline.error();
            impl->pipelines.push_back(std::move(pipeline).value());
        }
    }
    GeometryPass pass;
    pass.impl_ = std::move(impl);
    return pass;
}

uint32_t GeometryPass::binCount() const {
    return uint32_t(impl_->pipelines.size());
}

bool GeometryPass::isBlendBin(uint32_t bin) {
    return geometry::alphaModeOf(bin) == gpu::SIEVE_ALPHA_BLEND;
}

Result<void> GeometryPass::setTextures(std::span<const VkImageView> views) {
    if (!impl_->textures)
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "GeometryPass::setTextures: the pass is not in material mode");
    return impl_->textures->write(views);
}

void GeometryPass::record(VkCommandBuffer cmd, const GeometryInputs& in, VkExtent2D extent, const float viewProj[16],
                          const float lightDir[3], uint32_t bin) const {
    if (!in.maxDraws) return;
    const bool materials = impl_->options.materials;
    // Without shadows the shadow binding is never read: any valid buffer will do.
    const BufferRange shadow = in.shadowCascades ? in.shadow : in.instances;
    // Without textures the material pipelines would read unwritten descriptors: nothing is drawn.
    if (materials && (bin >= impl_->pipelines.size() || !impl_->textures->written())) return;
    const GraphicsPipeline& pipeline = impl_->pipelines[materials ? bin : 0];
    if (materials) {
        const gpu::MaterialPush push =
            geometry::makeMaterialPush(viewProj, lightDir, in.tint, in.shadowCascades,
                                       (in.mixedBins ? gpu::SIEVE_MATERIAL_PUSH_MIXED_BINS : 0u) |
                                           (in.tintByLod ? gpu::SIEVE_MATERIAL_PUSH_TINT_BY_LOD : 0u) |
                                           (in.tintByDraw ? gpu::SIEVE_MATERIAL_PUSH_TINT_BY_DRAW : 0u));
        pipeline.bind(cmd,
                      {Binding::storage(in.instances), Binding::storage(in.draws), Binding::storage(in.materials),
                       Binding::storage(in.primitives), Binding::storage(shadow)},
                      &push, sizeof(push));
        const VkDescriptorSet set = impl_->textures->set();
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout(), 1, 1, &set, 0, nullptr);
        const VkBuffer buffers[] = {in.vertices.buffer, in.uvs.buffer};
        const VkDeviceSize offsets[] = {in.vertices.offset, in.uvs.offset};
        vkCmdBindVertexBuffers(cmd, 0, 2, buffers, offsets);
    } else {
        gpu::GeometryPush push = geometry::makePush(viewProj, lightDir);
        push.lightDir.w = float(in.shadowCascades);
        push.tint = gpu::vec4(in.tint[0], in.tint[1], in.tint[2], in.tint[3]);
        push.options = gpu::uvec4(in.tintByLod ? 1u : 0u, in.tintByDraw ? 1u : 0u, 0u, 0u);
        pipeline.bind(cmd, {Binding::storage(in.instances), Binding::storage(in.draws), Binding::storage(shadow)},
                      &push, sizeof(push));
        vkCmdBindVertexBuffers(cmd, 0, 1, &in.vertices.buffer, &in.vertices.offset);
    }
    geometry::setViewport(cmd, in.viewport, extent);
    vkCmdBindIndexBuffer(cmd, in.indices.buffer, in.indices.offset, VK_INDEX_TYPE_UINT32);
    drawStream(cmd, impl_->dev, in.draws, in.counts, in.maxDraws);
}

void GeometryPass::recordWithRendering(VkCommandBuffer cmd, const GeometryInputs& in,
                                       const GeometryAttachments& attachments, VkExtent2D extent,
                                       const float viewProj[16]) const {
    recordWithRendering(cmd, geometry::everyBin<GeometryBinDraw>(in, binCount()), attachments, extent, viewProj);
}

void GeometryPass::recordWithRendering(VkCommandBuffer cmd, std::span<const GeometryBinDraw> draws,
                                       const GeometryAttachments& attachments, VkExtent2D extent,
                                       const float viewProj[16]) const {
    geometry::recordInRendering(
        cmd, draws, attachments, extent, impl_->options.reverseZ,
        [&](const GeometryInputs& in, uint32_t bin) { record(cmd, in, extent, viewProj, kDefaultLightDir, bin); });
}

void drawStream(VkCommandBuffer cmd, const DeviceInfo& dev, const BufferRange& draws, const BufferRange& counts,
                uint32_t maxDraws) {
    if (maxDraws == 0) return;
    if (dev.drawIndirectCount())
        vkCmdDrawIndexedIndirectCount(cmd, draws.buffer, draws.offset, counts.buffer, counts.offset, maxDraws,
                                      gpu::SIEVE_DRAW_STRIDE);
    else
        vkCmdDrawIndexedIndirect(cmd, draws.buffer, draws.offset, maxDraws, gpu::SIEVE_DRAW_STRIDE);
}

}  // namespace sieve
