// The Hi-Z footprint: exactly the source pixels whose area overlaps the texel's area on screen.
#include <gtest/gtest.h>

#include <random>

#include "sieve/hiz.h"

using sieve::HiZBuilder;

namespace {
// Pixel p of a W-pixel row overlaps texel x (each texel spans s mip-0 texels of a W0 row) when their
// open intervals [p/W, (p+1)/W) and [x*s/W0, (x+1)*s/W0) intersect.
bool overlaps(uint64_t p, uint64_t W, uint64_t x, uint64_t s, uint64_t W0) {
    return p * W0 < (x + 1) * s * W && (p + 1) * W0 > x * s * W;
}
}  // namespace

TEST(HiZReference, FootprintIsExactlyTheOverlappingPixels) {
    std::mt19937 rng(5);
    std::vector<VkExtent2D> sizes = {{1, 1}, {2, 2}, {3, 5}, {64, 64}, {200, 113}, {1919, 1079}, {7, 1}, {1, 9}};
    for (int i = 0; i < 20; ++i) sizes.push_back({uint32_t(1 + rng() % 300), uint32_t(1 + rng() % 300)});
    for (VkExtent2D e : sizes) {
        const VkExtent2D base = HiZBuilder::pyramidExtent(e);
        for (uint32_t m = 0; m < HiZBuilder::mipCount(base); ++m) {
            const VkExtent2D me = HiZBuilder::mipExtent(base, m);
            const uint32_t sx = base.width / me.width, sy = base.height / me.height;
            for (uint32_t x = 0; x < me.width; ++x) {
                const sieve::HiZFootprint f = sieve::hizFootprint(e, m, x, 0);
                for (uint32_t p = 0; p < e.width; ++p)
                    ASSERT_EQ(p >= f.x0 && p < f.x1, overlaps(p, e.width, x, sx, base.width))
                        << e.width << "x" << e.height << " mip " << m << " x " << x << " pixel " << p;
            }
            for (uint32_t y = 0; y < me.height; ++y) {
                const sieve::HiZFootprint f = sieve::hizFootprint(e, m, 0, y);
                for (uint32_t p = 0; p < e.height; ++p)
                    ASSERT_EQ(p >= f.y0 && p < f.y1, overlaps(p, e.height, y, sy, base.height))
                        << e.width << "x" << e.height << " mip " << m << " y " << y << " pixel " << p;
            }
        }
    }
}

TEST(HiZReference, Mip0FoldsOddSizes) {
    // 3 pixels onto 2 texels: texel 0 covers pixels 0-1, texel 1 covers pixels 1-2.
    auto f0 = sieve::hizFootprint({3, 1}, 0, 0, 0), f1 = sieve::hizFootprint({3, 1}, 0, 1, 0);
    EXPECT_EQ(f0.x0, 0u);
    EXPECT_EQ(f0.x1, 2u);
    EXPECT_EQ(f1.x0, 1u);
    EXPECT_EQ(f1.x1, 3u);
    // 7 pixels onto 4: the middle texels cover 3 pixels (the 3x3 footprint case in 2-D).
    auto g = sieve::hizFootprint({7, 7}, 0, 1, 1);
    EXPECT_EQ(g.x1 - g.x0, 3u);
    EXPECT_EQ(g.y1 - g.y0, 3u);
    // The top mip covers everything.
    auto top = sieve::hizFootprint({1919, 1079}, 10, 0, 0);
    EXPECT_EQ(top.x0, 0u);
    EXPECT_EQ(top.y0, 0u);
    EXPECT_EQ(top.x1, 1919u);
    EXPECT_EQ(top.y1, 1079u);
}

TEST(HiZReference, PyramidHoldsMinAndMaxOfTheFootprint) {
    const VkExtent2D e{3, 5};
    std::vector<float> depth(15);
    for (size_t i = 0; i < depth.size(); ++i) depth[i] = float(i) / 16.0f;
    const sieve::HiZPyramidCpu p = sieve::hizReference(e, depth);
    ASSERT_EQ(p.mipCount(), 3u);  // 2x4, 1x2, 1x1
    EXPECT_EQ(p.levels[0].extent.width, 2u);
    EXPECT_EQ(p.levels[0].extent.height, 4u);
    // Mip 0 texel (1, 3): pixels x 1..2, y (3*5)/4 = 3 .. ceil(20/4) = 5 -> rows 3, 4.
    EXPECT_EQ(p.minAt(0, 1, 3), depth[3 * 3 + 1]);
    EXPECT_EQ(p.levels[0].max[3 * 2 + 1], depth[4 * 3 + 2]);
    EXPECT_EQ(p.minAt(2, 0, 0), 0.0f);
    EXPECT_EQ(p.levels[2].max[0], 14.0f / 16.0f);
    EXPECT_TRUE(sieve::hizReference({0, 4}, {}).levels.empty());
}
