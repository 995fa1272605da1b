#include "engine/scene/scene_geometry.h"

#include <bit>
#include <cstdlib>

#include "engine/target/target.h"

namespace engine {

namespace {

uint32_t blendMask(uint32_t binCount) {
    uint32_t mask = 0;
    for (uint32_t bin = 0; bin < binCount && bin < 32; ++bin)
        if (sieve::GeometryPass::isBlendBin(bin)) mask |= 1u << bin;
    return mask;
}

// The bins of `mask` drawn from list `list`, in bin order. A plain pass (one pipeline) draws the list once.
void appendBins(uint32_t binCount, uint32_t mask, uint32_t list, std::vector<ListBin>& order) {
    if (binCount == 1) {
        if (mask != 0) order.push_back({list, 0});
        return;
    }
    for (uint32_t bin = 0; bin < binCount && bin < 32; ++bin)
        if ((mask >> bin & 1u) != 0) order.push_back({list, bin});
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

sieve::GeometryOptions sceneGeometryOptions(Context& ctx, const GpuScene& scene, bool materials) {
    sieve::GeometryOptions options;
    options.materials = materials;
    if (!materials) return options;
    options.maxAnisotropy = ctx.samplerAnisotropy() ? maxAnisotropy() : 1.0f;
    options.textureSlots = uint32_t(scene.materials.textures.size());
    return options;
}

sieve::Result<sieve::GeometryPass> createSceneGeometry(Context& ctx, VkFormat colorFormat, const GpuScene& scene,
                                                       bool materials, VkFormat depthFormat) {
    const sieve::GeometryOptions options = sceneGeometryOptions(ctx, scene, materials);
    auto pass = sieve::GeometryPass::create(ctx.info(), colorFormat, depthFormat, options);
    if (!pass || !materials) return pass;
    const std::vector<VkImageView> views = scene.materials.views();
    if (auto r = pass->setTextures(views); !r) return r.error();
    return pass;
}

std::vector<ListBin> phaseOrder(uint32_t binCount, bool late, uint32_t binMask) {
    const uint32_t blend = blendMask(binCount);
    std::vector<ListBin> order;
    appendBins(binCount, binMask & ~blend, late ? 1u : 0u, order);
    if (late)
        for (uint32_t list : {0u, 1u}) appendBins(binCount, binMask & blend, list, order);
    return order;
}

std::vector<sieve::GeometryBinDraw> drawOrder(const sieve::GeometryPass& pass, bool late, uint32_t binMask,
                                              sieve::GeometryInputs& early, sieve::GeometryInputs& lateIn) {
    // A list of one bin needs no filtering by bin.
    early.mixedBins = lateIn.mixedBins = !std::has_single_bit(binMask);
    std::vector<sieve::GeometryBinDraw> order;
    for (const ListBin& d : phaseOrder(pass.binCount(), late, binMask))
        order.push_back({d.list ? &lateIn : &early, d.bin});
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
    std::vector<ListBin> bins;
    appendBins(pass.binCount(), binMask, 0, bins);
    std::vector<sieve::GeometryBinDraw> order;
    for (const ListBin& d : bins) order.push_back({&in, d.bin});
    return order;
}

}  // namespace engine
