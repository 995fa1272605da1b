#pragma once
// The depth formats the culling plugin and the Hi-Z builders read: the depth aspect, sampled as a float
// whatever its encoding (D16 and D24 are unsigned normalized, D32 a float).
#include <vulkan/vulkan.h>

namespace sieve {

constexpr bool isDepthFormat(VkFormat f) {
    return f == VK_FORMAT_D16_UNORM || f == VK_FORMAT_X8_D24_UNORM_PACK32 || f == VK_FORMAT_D32_SFLOAT ||
           f == VK_FORMAT_D16_UNORM_S8_UINT || f == VK_FORMAT_D24_UNORM_S8_UINT || f == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

constexpr bool hasStencil(VkFormat f) {
    return f == VK_FORMAT_D16_UNORM_S8_UINT || f == VK_FORMAT_D24_UNORM_S8_UINT || f == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

// The aspects of a layout transition that uses `aspects` of an image of format f: a pass declares the
// depth aspect it samples (sieve::use::depthSampled), but without the separateDepthStencilLayouts
// feature Vulkan requires a barrier on a depth/stencil image to name both aspects.
constexpr VkImageAspectFlags transitionAspects(VkFormat f, VkImageAspectFlags aspects) {
    return hasStencil(f) && (aspects & VK_IMAGE_ASPECT_DEPTH_BIT) ? aspects | VK_IMAGE_ASPECT_STENCIL_BIT : aspects;
}

}  // namespace sieve
