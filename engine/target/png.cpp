// The one translation unit with stb_image_write's implementation. Static linkage: libstb (pulled in by
// ImGui's pkg-config) exports the same names, and ours must not interpose on theirs or vice versa.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

#include <vector>

#include "engine/target/target.h"

namespace engine {

sieve::Result<void> writePng(const std::string& path, const uint8_t* pixels, VkExtent2D extent, VkFormat format) {
    const bool bgra = format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB;
    const bool rgba = format == VK_FORMAT_R8G8B8A8_UNORM || format == VK_FORMAT_R8G8B8A8_SRGB;
    if (!bgra && !rgba)
        return sieve::makeError(VK_ERROR_FORMAT_NOT_SUPPORTED,
                                "writePng: colour format " + std::to_string(int(format)) + " is not 8-bit RGBA/BGRA");
    if (!pixels || extent.width == 0 || extent.height == 0)
        return sieve::makeError(VK_ERROR_UNKNOWN, "writePng: no pixels for " + path);
    const size_t count = size_t(extent.width) * extent.height;
    std::vector<uint8_t> rgbaPixels(count * 4);
    for (size_t i = 0; i < count; ++i) {
        const uint8_t* p = pixels + i * 4;
        uint8_t* o = rgbaPixels.data() + i * 4;
        o[0] = bgra ? p[2] : p[0];
        o[1] = p[1];
        o[2] = bgra ? p[0] : p[2];
        o[3] = 255;  // swapchain alpha is meaningless; keep screenshots opaque
    }
    if (!stbi_write_png(path.c_str(), int(extent.width), int(extent.height), 4, rgbaPixels.data(),
                        int(extent.width * 4)))
        return sieve::makeError(VK_ERROR_UNKNOWN, "could not write PNG " + path);
    return {};
}

}  // namespace engine
