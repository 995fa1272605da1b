#include "engine/scene/scene_geometry.h"

#include <bit>
#include <cstdlib>

#include "engine/target/target.h"

namespace engine {

namespace {

uint32_t blendMask(const sieve::GeometryPass& pass) {
    uint32_t mask = 0;
    for (uint32_t bin = 0; bin < pass.binCount() && bin < 32; ++bin)
        if (sieve::GeometryPass::isBlendBin(bin)) mask |= 1u << bin;
    return mask;
}

// The bins of `mask` drawn from `list`, in bin order. A plain pass (one pipeline) draws the list once.
void appendBins(const sieve::GeometryPass& pass, uint32_t mask, const sieve::GeometryInputs& list,
                std::vector<sieve::GeometryBinDraw>& order) {
    if (pass.binCount() == 1) {
        if (mask != 0) order.push_back({&list, 0});
        return;
    }
    for (uint32_t bin = 0; bin < pass.binCount() && bin < 32; ++bin)
        if ((mask >> bin & 1u) != 0) order.push_back({&list, bin});
}

}  // namespace

float maxAnisotropy() {
    if (const char* v = std::getenv("SIEVE_MAX_ANISOTROPY")) {
        char* end = nullptr;
        const float f = std::strtof(v, &end);
        if (end != v && *end == 0 && f >= 1.0f && f <= 16.0f) return f;
    }
    return 16.0f;
}

sieve::Result<sieve::GeometryPass> createSceneGeometry(Context& ctx, VkFormat colorFormat, const GpuScene& scene,
                                                       bool materials, VkFormat depthFormat) {
    sieve::GeometryOptions options;
    options.materials = materials;
    if (!materials) return sieve::GeometryPass::create(ctx.info(), colorFormat, depthFormat, options);
    options.maxAnisotropy = ctx.samplerAnisotropy() ? maxAnisotropy() : 1.0f;
    options.textureSlots = uint32_t(scene.materials.textures.size());
    auto pass = sieve::GeometryPass::create(ctx.info(), colorFormat, depthFormat, options);
    if (!pass) return pass.error();
    const std::vector<VkImageView> views = scene.materials.views();
    if (auto r = pass->setTextures(views); !r) return r.error();
    return pass;
}

std::vector<sieve::GeometryBinDraw> drawOrder(const sieve::GeometryPass& pass, bool late, uint32_t binMask,
                                              sieve::GeometryInputs& early, sieve::GeometryInputs& lateIn) {
    // A list of one bin needs no filtering by bin.
    early.mixedBins = lateIn.mixedBins = !std::has_single_bit(binMask);
    std::vector<sieve::GeometryBinDraw> order;
    appendBins(pass, binMask & ~blendMask(pass), late ? lateIn : early, order);
    if (late)
        for (const sieve::GeometryInputs* list : {&early, &lateIn})
            appendBins(pass, binMask & blendMask(pass), *list, order);
    return order;
}

std::vector<sieve::GeometryBinDraw> streamOrder(const sieve::GeometryPass& pass, bool late,
                                                std::span<const uint32_t> streamBins,
                                                std::span<const sieve::GeometryInputs> streams) {
    const size_t count = streams.size() / 2;
    std::vector<sieve::GeometryBinDraw> order;
    // A plain pass has one pipeline: every stream is drawn with it.
    const bool plain = pass.binCount() == 1;
    auto add = [&](size_t phase, bool blend) {
        for (size_t k = 0; k < count && k < streamBins.size(); ++k) {
            const uint32_t bin = streamBins[k];
            if (bin < pass.binCount() || plain)
                if ((!plain && sieve::GeometryPass::isBlendBin(bin)) == blend)
                    order.push_back({&streams[phase * count + k], plain ? 0u : bin});
        }
    };
    add(late ? 1 : 0, false);
    if (late) {
        add(0, true);
        add(1, true);
    }
    return order;
}

std::vector<sieve::GeometryBinDraw> listOrder(const sieve::GeometryPass& pass, uint32_t binMask,
                                              sieve::GeometryInputs& in) {
    in.mixedBins = !std::has_single_bit(binMask);
    std::vector<sieve::GeometryBinDraw> order;
    appendBins(pass, binMask, in, order);
    return order;
}

}  // namespace engine
