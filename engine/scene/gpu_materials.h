#pragma once
// What the default geometry pass's material mode reads besides the scene tables: the UV stream (one
// VertexUv per vertex), the material table and the base colour textures (index 0: 1x1 white, then
// SceneData::textures), sRGB (normal maps UNORM), mipmapped by blits where the format allows linear blits
// (else one level).
#include <vector>

#include "assets/scene.h"
#include "engine/vk/resources.h"

namespace engine {

struct GpuMaterials {
    Buffer uvs;
    Buffer materials;
    std::vector<Image> textures;  // in SHADER_READ_ONLY_OPTIMAL after upload
    uint32_t materialCount = 0;

    // A scene without UVs gets zeros, one without a material table the palette (assets::paletteMaterials)
    // for every material index it uses.
    static sieve::Result<GpuMaterials> upload(Context& ctx, const sieve::assets::SceneData& scene);
    // The views for GeometryPass::setTextures.
    std::vector<VkImageView> views() const;
};

// Mip levels of a full chain for `extent` (1 for 1x1).
uint32_t fullMipCount(VkExtent2D extent);

}  // namespace engine
