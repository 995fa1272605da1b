#pragma once
// The default passes' rendering scope: colour and depth attachments, cleared by the early pass (sky colour,
// the far depth of the convention) and loaded by the late one.
#include <vulkan/vulkan.h>

#include "shared/geometry_push.h"
#include "sieve/geometry_pass.h"
#include "sieve/graphics_pipeline.h"

namespace sieve::geometry {

// The pipeline state both default paths share (fragment shader, push block, attachments, depth test, face
// culling); the caller names the first stage and its inputs.
GraphicsPipelineDesc defaultPassDesc(VkFormat colorFormat, VkFormat depthFormat, const GeometryOptions& options);

void beginRendering(VkCommandBuffer cmd, const GeometryAttachments& attachments, VkExtent2D extent, bool reverseZ);

gpu::GeometryPush makePush(const float viewProj[16], const float lightDir[3]);

// Dynamic viewport (the host's, or the whole extent) and scissor.
void setViewport(VkCommandBuffer cmd, const VkViewport* viewport, VkExtent2D extent);

}  // namespace sieve::geometry
