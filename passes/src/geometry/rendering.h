#pragma once
// The default passes' rendering scope: colour and depth attachments, cleared by the early pass (sky colour,
// the far depth of the convention) and loaded by the late one.
#include <vulkan/vulkan.h>

#include <array>
#include <span>
#include <vector>

#include "shared/geometry_push.h"
#include "shared/material.h"
#include "sieve/geometry_pass.h"
#include "sieve/graphics_pipeline.h"

namespace sieve::geometry {

// The pipeline state both default paths share (fragment shader, push block, attachments, depth test, face
// culling); the caller names the first stage and its inputs.
GraphicsPipelineDesc defaultPassDesc(VkFormat colorFormat, VkFormat depthFormat, const GeometryOptions& options);

void beginRendering(VkCommandBuffer cmd, const GeometryAttachments& attachments, VkExtent2D extent, bool reverseZ);
void endRendering(VkCommandBuffer cmd);

// recordWithRendering of either default path: `record(inputs, bin)` for each draw with inputs, in one
// rendering scope.
template <typename BinDraw, typename Record>
void recordInRendering(VkCommandBuffer cmd, std::span<const BinDraw> draws, const GeometryAttachments& attachments,
                       VkExtent2D extent, bool reverseZ, Record record) {
    beginRendering(cmd, attachments, extent, reverseZ);
    for (const BinDraw& d : draws)
        if (d.inputs) record(*d.inputs, d.bin);
    endRendering(cmd);
}

// One draw of `in` per bin.
template <typename BinDraw, typename Inputs>
std::vector<BinDraw> everyBin(const Inputs& in, uint32_t binCount) {
    std::vector<BinDraw> draws;
    for (uint32_t bin = 0; bin < binCount; ++bin) draws.push_back({&in, bin});
    return draws;
}

gpu::GeometryPush makePush(const float viewProj[16], const float lightDir[3]);

// Material mode (shared/material.h): bin = alphaMode * 2 + doubleSided.
constexpr uint32_t alphaModeOf(uint32_t bin) {
    return bin / 2u;
}
constexpr bool doubleSidedBin(uint32_t bin) {
    return (bin & 1u) != 0u;
}
// The specialization constants of a bin's pipeline (SIEVE_MATERIAL_SPEC_*).
std::array<uint32_t, 2> materialSpecialization(uint32_t bin, uint32_t textureSlots);
// The state a bin's pipeline adds to defaultPassDesc, whatever its first stage (material.vert or
// cluster_material.mesh): material.frag, its push block, the texture set as set 1, `spec` (kept alive
// by the caller until the pipeline is created), no culling for double-sided bins, blending without depth
// writes for blend bins.
void applyMaterialBin(GraphicsPipelineDesc& desc, uint32_t bin, const VkDescriptorSetLayout& textures,
                      std::span<const uint32_t> spec);
gpu::MaterialPush makeMaterialPush(const float viewProj[16], const float lightDir[3], const float tint[4],
                                   uint32_t shadowCascades, uint32_t flags);

// Dynamic viewport (the host's, or the whole extent) and scissor.
void setViewport(VkCommandBuffer cmd, const VkViewport* viewport, VkExtent2D extent);

}  // namespace sieve::geometry
