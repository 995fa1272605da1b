// CPU reference of the Hi-Z pyramid: the footprint definition of sieve/hiz.h, evaluated literally.
#include <algorithm>
#include <limits>

#include "hiz/hiz_shared.h"
#include "sieve/hiz.h"

namespace sieve {

HiZFootprint hizFootprint(VkExtent2D depth, uint32_t mip, uint32_t x, uint32_t y) {
    const VkExtent2D base = HiZBuilder::pyramidExtent(depth);
    const VkExtent2D level = HiZBuilder::mipExtent(base, mip);
    // Mip-0 texels [a, b) covered by texel x of this mip, then the source span of that mip-0 range:
    // the spans of consecutive mip-0 texels overlap or touch, so the union is one interval.
    const uint32_t sx = base.width / level.width, sy = base.height / level.height;
    const gpu::uvec2 fx0 = gpu::hizSpan(x * sx, depth.width, base.width);
    const gpu::uvec2 fx1 = gpu::hizSpan((x + 1) * sx - 1, depth.width, base.width);
    const gpu::uvec2 fy0 = gpu::hizSpan(y * sy, depth.height, base.height);
    const gpu::uvec2 fy1 = gpu::hizSpan((y + 1) * sy - 1, depth.height, base.height);
    return {fx0.x, fy0.x, fx1.y, fy1.y};
}

HiZPyramidCpu hizReference(VkExtent2D extent, std::span<const float> depth, uint32_t samples) {
    HiZPyramidCpu out;
    if (extent.width == 0 || extent.height == 0 || samples == 0 ||
        depth.size() < size_t(extent.width) * extent.height * samples)
        return out;
    const VkExtent2D base = HiZBuilder::pyramidExtent(extent);
    const uint32_t mips = HiZBuilder::mipCount(base);
    for (uint32_t m = 0; m < mips; ++m) {
        HiZLevel level;
        level.extent = HiZBuilder::mipExtent(base, m);
        level.min.resize(size_t(level.extent.width) * level.extent.height);
        level.max.resize(level.min.size());
        for (uint32_t y = 0; y < level.extent.height; ++y)
            for (uint32_t x = 0; x < level.extent.width; ++x) {
                const HiZFootprint f = hizFootprint(extent, m, x, y);
                float lo = std::numeric_limits<float>::infinity(), hi = -lo;
                for (uint32_t py = f.y0; py < f.y1; ++py)
                    for (uint32_t px = f.x0; px < f.x1; ++px)
                        for (uint32_t s = 0; s < samples; ++s) {
                            const float d = depth[(size_t(py) * extent.width + px) * samples + s];
                            lo = std::min(lo, d);
                            hi = std::max(hi, d);
                        }
                level.min[size_t(y) * level.extent.width + x] = lo;
                level.max[size_t(y) * level.extent.width + x] = hi;
            }
        out.levels.push_back(std::move(level));
    }
    return out;
}

}  // namespace sieve
