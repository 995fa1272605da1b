#pragma once
// The host side of the mesh path's per-triangle culling (shared/triangle_cull.h): the specialization
// constant from a pipeline's rasterization state, and the viewport transform its push blocks carry.
#include <vulkan/vulkan.h>

#include "shared/common.h"
#include "sieve/device.h"
#include "sieve/graphics_pipeline.h"

namespace sieve::geometry {

// SIEVE_MESH_SPEC_TRIANGLE_CULL of a pipeline created from `desc` (its cullMode and frontFace, so that the
// shader's face test is the rasterizer's) on `dev` (its subPixelPrecisionBits); 0 when `on` is false.
uint32_t triangleCullMode(bool on, const GraphicsPipelineDesc& desc, const DeviceInfo& dev);

// framebuffer xy = ndc.xy * result.xy + result.zw for the viewport the pass draws with (null: the whole
// extent), negative heights included.
gpu::vec4 viewportTransform(const VkViewport* viewport, VkExtent2D extent);

}  // namespace sieve::geometry
