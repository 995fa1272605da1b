#include "engine/scene/scene_geometry.h"

#include "engine/target/target.h"

namespace engine {

sieve::Result<sieve::GeometryPass> createSceneGeometry(Context& ctx, VkFormat colorFormat, const GpuScene& scene) {
    sieve::GeometryOptions options;
    options.materials = true;
    options.maxAnisotropy = ctx.samplerAnisotropy() ? 16.0f : 1.0f;
    auto pass = sieve::GeometryPass::create(ctx.info(), colorFormat, kDepthFormat, options);
    if (!pass) return pass.error();
    const std::vector<VkImageView> views = scene.materials.views();
    if (auto r = pass->setTextures(views); !r) return r.error();
    return pass;
}

std::vector<sieve::GeometryBinDraw> drawOrder(const sieve::GeometryPass& pass, bool late,
                                              const sieve::GeometryInputs& early, const sieve::GeometryInputs& lateIn) {
    std::vector<sieve::GeometryBinDraw> order;
    for (uint32_t bin = 0; bin < pass.binCount(); ++bin)
        if (!sieve::GeometryPass::isBlendBin(bin)) order.push_back({late ? &lateIn : &early, bin});
    if (!late) return order;
    for (const sieve::GeometryInputs* list : {&early, &lateIn})
        for (uint32_t bin = 0; bin < pass.binCount(); ++bin)
            if (sieve::GeometryPass::isBlendBin(bin)) order.push_back({list, bin});
    return order;
}

}  // namespace engine
