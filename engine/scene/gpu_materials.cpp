#include "engine/scene/gpu_materials.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "assets/materials.h"
#include "engine/vk/context.h"
#include "sieve/barriers.h"

namespace engine {

namespace {

VkFormat formatOf(const sieve::assets::Texture& t) {
    return t.srgb ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM;
}

bool canBlitMips(Context& ctx, VkFormat format) {
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(ctx.physical(), format, &props);
    const VkFormatFeatureFlags need = VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT |
                                      VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
    return (props.optimalTilingFeatures & need) == need;
}

// Mip 0 from `rgba`, the others by successive linear blits; every level ends in SHADER_READ_ONLY_OPTIMAL
// for fragment shaders.
sieve::Result<Image> uploadTexture(Context& ctx, const sieve::assets::Texture& t, const std::string& name) {
    const VkExtent2D extent{t.width, t.height};
    ImageDesc desc;
    desc.format = formatOf(t);
    desc.extent = extent;
    desc.mipLevels = canBlitMips(ctx, desc.format) ? fullMipCount(extent) : 1;
    desc.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    desc.name = name.c_str();
    auto image = Image::create(ctx, desc);
    if (!image) return image.error();
    auto staging =
        Buffer::create(ctx, t.rgba.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUsage::Upload, "texture staging");
    if (!staging) return staging.error();
    std::memcpy(staging->mapped(), t.rgba.data(), t.rgba.size());
    const VkImage img = image->handle();
    const uint32_t levels = desc.mipLevels;
    constexpr VkImageAspectFlags color = VK_IMAGE_ASPECT_COLOR_BIT;
    auto r = ctx.submitNow([&](VkCommandBuffer cmd) {
        // Every level: mip 0 is the copy's destination, the others the blits'.
        sieve::imageBarrier(cmd, img, color, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_UNDEFINED,
                            VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        VkBufferImageCopy copy{};
        copy.imageSubresource = {color, 0, 0, 1};
        copy.imageExtent = {t.width, t.height, 1};
        vkCmdCopyBufferToImage(cmd, staging->handle(), img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
        int32_t w = int32_t(t.width), h = int32_t(t.height);
        for (uint32_t m = 1; m < levels; ++m) {
            // Level m - 1 was written (copy or blit): read it as the blit's source.
            sieve::imageBarrier(cmd, img, color, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT,
                                VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
                                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, m - 1, 1);
            const int32_t nw = std::max(w / 2, 1), nh = std::max(h / 2, 1);
            VkImageBlit blit{};
            blit.srcSubresource = {color, m - 1, 0, 1};
            blit.srcOffsets[1] = {w, h, 1};
            blit.dstSubresource = {color, m, 0, 1};
            blit.dstOffsets[1] = {nw, nh, 1};
            vkCmdBlitImage(cmd, img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                           &blit, VK_FILTER_LINEAR);
            w = nw, h = nh;
        }
        if (levels > 1)
            sieve::imageBarrier(cmd, img, color, VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_NONE,
                                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                                VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, 0,
                                levels - 1);
        sieve::imageBarrier(cmd, img, color, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT,
                            VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                            VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                            VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, levels - 1, 1);
    });
    if (!r) return r.error();
    return image;
}

template <typename T>
sieve::Result<Buffer> storageTable(Context& ctx, const std::vector<T>& data, VkBufferUsageFlags usage,
                                   const char* name) {
    auto b = Buffer::create(ctx, std::max<VkDeviceSize>(data.size() * sizeof(T), 16),
                            usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                            MemoryUsage::DeviceLocal, name);
    if (!b) return b.error();
    if (auto r = uploadBuffer(ctx, b.value(), data.data(), data.size() * sizeof(T)); !r) return r.error();
    return b;
}

}  // namespace

uint32_t fullMipCount(VkExtent2D extent) {
    return uint32_t(std::bit_width(std::max(std::max(extent.width, extent.height), 1u)));
}

sieve::Result<GpuMaterials> GpuMaterials::upload(Context& ctx, const sieve::assets::SceneData& scene) {
    GpuMaterials g;
    std::vector<sieve::gpu::VertexUv> zeros;
    if (scene.uvs.empty()) zeros.assign(scene.vertices.size(), sieve::gpu::VertexUv{0.0f, 0.0f});
    // (Storage: the mesh-shader path reads them by index.)
    auto uvs = storageTable(ctx, scene.uvs.empty() ? zeros : scene.uvs,
                            VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "scene uvs");
    if (!uvs) return uvs.error();
    g.uvs = std::move(uvs).value();
    std::vector<sieve::gpu::Material> palette;
    if (scene.materials.empty()) {
        uint32_t used = 1;
        for (const auto& p : scene.primitives) used = std::max(used, p.material + 1);
        palette = sieve::assets::paletteMaterials(used);
    }
    const auto& table = scene.materials.empty() ? palette : scene.materials;
    auto materials = storageTable(ctx, table, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "scene materials");
    if (!materials) return materials.error();
    g.materials = std::move(materials).value();
    g.materialCount = uint32_t(table.size());
    sieve::assets::Texture white;
    white.width = white.height = 1;
    white.rgba = {255, 255, 255, 255};
    auto first = uploadTexture(ctx, white, "texture white");
    if (!first) return first.error();
    g.textures.push_back(std::move(first).value());
    const uint32_t maxSide = ctx.properties().limits.maxImageDimension2D;
    for (size_t t = 0; t < scene.textures.size(); ++t) {
        const std::string name = "texture " + std::to_string(t + 1) + " " + scene.textures[t].name;
        if (scene.textures[t].width > maxSide || scene.textures[t].height > maxSide)
            return sieve::makeError(VK_ERROR_FORMAT_NOT_SUPPORTED,
                                    name + ": " + std::to_string(scene.textures[t].width) + "x" +
                                        std::to_string(scene.textures[t].height) +
                                        " exceeds the device's maxImageDimension2D (" + std::to_string(maxSide) + ")");
        auto image = uploadTexture(ctx, scene.textures[t], name);
        if (!image) return sieve::makeError(image.error().code, name + ": " + image.error().message);
        g.textures.push_back(std::move(image).value());
    }
    return g;
}

std::vector<VkImageView> GpuMaterials::views() const {
    std::vector<VkImageView> out;
    for (const Image& t : textures) out.push_back(t.view());
    return out;
}

}  // namespace engine
