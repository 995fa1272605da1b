#include "geometry/triangle_cull.h"

#include <algorithm>

#include "shared/triangle_cull.h"

namespace sieve::geometry {

uint32_t triangleCullMode(bool on, const GraphicsPipelineDesc& desc, const DeviceInfo& dev) {
    // The no-sample test knows only the single-sample centres.
    if (!on || desc.samples != VK_SAMPLE_COUNT_1_BIT) return 0;
    uint32_t mode = gpu::SIEVE_TRIANGLE_CULL_ON;
    if (desc.cullMode & VK_CULL_MODE_FRONT_BIT) mode |= gpu::SIEVE_TRIANGLE_CULL_FRONT;
    if (desc.cullMode & VK_CULL_MODE_BACK_BIT) mode |= gpu::SIEVE_TRIANGLE_CULL_BACK;
    if (desc.frontFace == VK_FRONT_FACE_CLOCKWISE) mode |= gpu::SIEVE_TRIANGLE_CULL_CLOCKWISE;
    // Vulkan guarantees at least 4 bits; more than 16 would not widen the test's margin usefully.
    const uint32_t bits = std::clamp(dev.limits.subPixelPrecisionBits, 4u, 16u);
    return mode | (bits << gpu::SIEVE_TRIANGLE_CULL_SUBPIXEL_SHIFT);
}

gpu::vec4 viewportTransform(const VkViewport* viewport, VkExtent2D extent) {
    const VkViewport whole{0.0f, 0.0f, float(extent.width), float(extent.height), 0.0f, 1.0f};
    const VkViewport& v = viewport ? *viewport : whole;
    return {0.5f * v.width, 0.5f * v.height, v.x + 0.5f * v.width, v.y + 0.5f * v.height};
}

}  // namespace sieve::geometry
