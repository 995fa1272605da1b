#include "engine/scene/scene_geometry.h"

#include <bit>
#include <cstdlib>

#include "engine/target/target.h"

namespace engine {

float maxAnisotropy() {
    if (const char* v = std::getenv("SIEVE_MAX_ANISOTROPY")) {
        char* end = nullptr;
        const float f = std::strtof(v, &end);
        if (end != v && *end == 0 && f >= 1.0f && f <= 16.0f) return f;
    }
    return 16.0f;
}

sieve::Result<sieve::GeometryPass> createSceneGeometry(Context& ctx, VkFormat colorFormat, const GpuScene& scene) {
    sieve::GeometryOptions options;
    options.materials = true;
    options.maxAnisotropy = ctx.samplerAnisotropy() ? maxAnisotropy() : 1.0f;
    options.textureSlots = uint32_t(scene.materials.textures.size());
    auto pass = sieve::GeometryPass::create(ctx.info(), colorFormat, kDepthFormat, options);
    if (!pass) return pass.error();
    const std::vector<VkImageView> views = scene.materials.views();
    if (auto r = pass->setTextures(views); !r) return r.error();
    return pass;
}

std::vector<sieve::GeometryBinDraw> drawOrder(const sieve::GeometryPass& pass, bool late, uint32_t binMask,
                                              sieve::GeometryInputs& early, sieve::GeometryInputs& lateIn) {
    early.mixedBins = lateIn.mixedBins = !std::has_single_bit(binMask);
    std::vector<sieve::GeometryBinDraw> order;
    auto present = [&](uint32_t bin) { return bin < 32 && (binMask >> bin & 1u) != 0; };
    for (uint32_t bin = 0; bin < pass.binCount(); ++bin)
        if (present(bin) && !sieve::GeometryPass::isBlendBin(bin)) order.push_back({late ? &lateIn : &early, bin});
    if (!late) return order;
    for (sieve::GeometryInputs* list : {&early, &lateIn})
        for (uint32_t bin = 0; bin < pass.binCount(); ++bin)
            if (present(bin) && sieve::GeometryPass::isBlendBin(bin)) order.push_back({list, bin});
    return order;
}

}  // namespace engine
