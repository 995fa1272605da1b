// Both Hi-Z builders against the CPU reference (the spec), texel by texel, bit for bit.
#include <algorithm>
#include <random>
#include <string>

#include "gpu/test_hiz_util.h"

using testing_gpu::GpuTest;

namespace {

std::vector<float> randomDepth(VkExtent2D e, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(0.0f, 1.0f);
    std::vector<float> v(size_t(e.width) * e.height);
    for (float& x : v) x = dist(rng);
    // The extremes of the range too: the far plane (0) and the near plane (1).
    if (v.size() > 2) v[v.size() / 3] = 0.0f, v[v.size() / 2] = 1.0f;
    return v;
}

// Single: the default single-dispatch variant (gathered mip 0, banded stores); SinglePrevious: the
// previous builder (fetched mip 0, direct stores); SingleDirect: gathered, direct stores.
enum class Builder { PerMip, Single, SinglePrevious, SingleDirect };
constexpr sieve::HiZSingleVariant kDirect{sieve::HiZMip0::Gather, sieve::HiZStop::Never, sieve::HiZStore0::Direct};

sieve::HiZSingleVariant variantOf(Builder b) {
    return b == Builder::SinglePrevious ? sieve::kHiZSinglePrevious
           : b == Builder::SingleDirect ? kDirect
                                        : sieve::kHiZSingleDefault;
}
const char* nameOf(Builder b) {
    return b == Builder::SinglePrevious ? " previous" : b == Builder::SingleDirect ? " direct" : " default";
}

class HiZTest : public GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        const sieve::HiZSingleVariant extra[] = {kDirect};
        auto b = sieve::HiZBuilder::create(ctx().info(), extra);
        ASSERT_TRUE(b) << b.error().message;
        builder = std::move(b).value();
        counter = makeEmpty(sieve::HiZBuilder::counterBytes(), 0, "hiz counter");
        auto r =
            ctx().submitNow([&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, counter.handle(), 0, VK_WHOLE_SIZE, 0); });
        ASSERT_TRUE(r) << r.error().message;
    }

    void record(VkCommandBuffer cmd, Builder which, const testing_gpu::DepthPyramidImages& images) {
        auto r = which == Builder::PerMip
                     ? builder.recordPerMip(cmd, images.source(), images.target())
                     : builder.recordSingle(cmd, images.source(), images.target(), counter.range(), variantOf(which));
        EXPECT_TRUE(r) << r.error().message;
    }

    // tolerance: 0 (bit for bit) except for unorm depth, whose decoding to float may round either way.
    void expectMatchesReference(VkExtent2D extent, const std::vector<float>& depth,
                                const testing_gpu::DepthPyramidImages& images, float tolerance = 0.0f) {
        const sieve::HiZPyramidCpu ref = sieve::hizReference(extent, depth, images.samples);
        auto got = testing_gpu::readPyramid(ctx(), images);
        ASSERT_EQ(got.size(), ref.mipCount());
        for (uint32_t m = 0; m < ref.mipCount(); ++m) {
            const sieve::HiZLevel& level = ref.levels[m];
            ASSERT_EQ(got[m].size(), level.min.size() * 2);
            for (size_t i = 0; i < level.min.size(); ++i) {
                ASSERT_NEAR(got[m][2 * i], level.min[i], tolerance)
                    << "min, mip " << m << " texel (" << i % level.extent.width << ", " << i / level.extent.width
                    << ")";
                ASSERT_NEAR(got[m][2 * i + 1], level.max[i], tolerance)
                    << "max, mip " << m << " texel (" << i % level.extent.width << ", " << i / level.extent.width
                    << ")";
            }
        }
    }

    void buildAndCompare(VkExtent2D extent, Builder which, uint32_t seed) {
        const std::vector<float> depth = randomDepth(extent, seed);
        auto images = testing_gpu::makeDepthAndPyramid(ctx(), extent, depth);
        ASSERT_TRUE(images.pyramid);
        auto r = ctx().submitNow([&](VkCommandBuffer cmd) { record(cmd, which, images); });
        ASSERT_TRUE(r) << r.error().message;
        expectMatchesReference(extent, depth, images);
        EXPECT_EQ(read<uint32_t>(counter, 1)[0], 0u) << "the single-pass builder must leave its counter at zero";
    }

    sieve::HiZBuilder builder;
    engine::Buffer counter;
};

}  // namespace

TEST(HiZLayout, PyramidExtentAndMipCount) {
    using B = sieve::HiZBuilder;
    EXPECT_EQ(B::pyramidExtent({1919, 1079}).width, 1024u);
    EXPECT_EQ(B::pyramidExtent({1919, 1079}).height, 1024u);
    EXPECT_EQ(B::pyramidExtent({3, 5}).width, 2u);
    EXPECT_EQ(B::pyramidExtent({3, 5}).height, 4u);
    EXPECT_EQ(B::mipCount({1, 1}), 1u);
    EXPECT_EQ(B::mipCount({2, 4}), 3u);
    EXPECT_EQ(B::mipCount({1024, 512}), 11u);
    EXPECT_EQ(B::mipExtent({1024, 4}, 5).width, 32u);
    EXPECT_EQ(B::mipExtent({1024, 4}, 5).height, 1u);
}

TEST_F(HiZTest, PerMipMatchesReferenceAtEdgeSizes) {
    uint32_t seed = 1;
    for (VkExtent2D e : {VkExtent2D{1, 1}, {2, 2}, {3, 5}, {64, 64}, {200, 113}, {5, 300}, {130, 1}}) {
        SCOPED_TRACE(std::to_string(e.width) + "x" + std::to_string(e.height));
        buildAndCompare(e, Builder::PerMip, seed++);
        if (HasFatalFailure()) return;
    }
}

// Every single-dispatch variant. 1023 and 511 (ratio to the pyramid just under 2) give the widest windows
// the gathered stage reads (5 pixels per 2 mip-0 texels); 96x48 (ratio 1.5) the widest it reads with 2
// gathers per axis, 97x49 the narrowest with 3.
TEST_F(HiZTest, SinglePassMatchesReferenceAtEdgeSizes) {
    if (!builder.singlePassSupported()) GTEST_SKIP() << "no single-pass builder on this device (per mip only)";
    for (Builder which : {Builder::Single, Builder::SinglePrevious, Builder::SingleDirect}) {
        uint32_t seed = 100;
        for (VkExtent2D e : {VkExtent2D{1, 1},
                             {2, 2},
                             {3, 5},
                             {64, 64},
                             {65, 65},
                             {200, 113},
                             {5, 300},
                             {130, 1},
                             {1, 130},
                             {520, 260},
                             {1023, 511},
                             {127, 255},
                             {96, 48},
                             {97, 49}}) {
            SCOPED_TRACE(std::to_string(e.width) + "x" + std::to_string(e.height) + nameOf(which));
            buildAndCompare(e, which, seed++);
            if (HasFatalFailure()) return;
        }
    }
}

TEST_F(HiZTest, AllBuildersMatchReferenceAt1919x1079) {
    buildAndCompare({1919, 1079}, Builder::PerMip, 7);
    if (HasFatalFailure()) return;
    if (!builder.singlePassSupported()) GTEST_SKIP() << "no single-pass builder on this device (per mip only)";
    buildAndCompare({1919, 1079}, Builder::Single, 8);
    if (HasFatalFailure()) return;
    buildAndCompare({1919, 1079}, Builder::SinglePrevious, 9);
    if (HasFatalFailure()) return;
    buildAndCompare({1919, 1079}, Builder::SingleDirect, 10);
}

// Pyramids past 2048 texels a side (mip 6 larger than the last workgroup's 32x32 frame) take the
// tail through the image.
TEST_F(HiZTest, SinglePassMatchesReferenceAboveTheSharedTail) {
    if (!builder.singlePassSupported()) GTEST_SKIP() << "no single-pass builder on this device (per mip only)";
    buildAndCompare({4100, 40}, Builder::Single, 11);
}

TEST_F(HiZTest, SinglePassVariantNotCreatedIsAnError) {
    if (!builder.singlePassSupported()) GTEST_SKIP() << "no single-pass builder on this device (per mip only)";
    const VkExtent2D extent{16, 16};
    auto images = testing_gpu::makeDepthAndPyramid(ctx(), extent, randomDepth(extent, 4));
    ASSERT_TRUE(images.pyramid);
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        auto rec = builder.recordSingle(cmd, images.source(), images.target(), counter.range(),
                                        {sieve::HiZMip0::Gather, sieve::HiZStop::AfterMip1});
        EXPECT_FALSE(rec);
        EXPECT_NE(rec.error().message.find("not created"), std::string::npos);
    });
    ASSERT_TRUE(r) << r.error().message;
}

// Two single-pass builds in a row (two frames): the counter the first one leaves must let the second
// find its own last workgroup.
TEST_F(HiZTest, SinglePassRebuildsWithTheCounterItReset) {
    if (!builder.singlePassSupported()) GTEST_SKIP() << "no single-pass builder on this device (per mip only)";
    const VkExtent2D extent{300, 200};
    std::vector<float> first = randomDepth(extent, 21), second = randomDepth(extent, 22);
    auto images = testing_gpu::makeDepthAndPyramid(ctx(), extent, first);
    ASSERT_TRUE(images.pyramid);
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) { record(cmd, Builder::Single, images); });
    ASSERT_TRUE(r) << r.error().message;
    expectMatchesReference(extent, first, images);
    testing_gpu::uploadDepth(ctx(), images, second);
    r = ctx().submitNow([&](VkCommandBuffer cmd) { record(cmd, Builder::Single, images); });
    ASSERT_TRUE(r) << r.error().message;
    expectMatchesReference(extent, second, images);
    EXPECT_EQ(read<uint32_t>(counter, 1)[0], 0u);
}

TEST_F(HiZTest, WrongMipViewCountIsAnError) {
    const VkExtent2D extent{16, 16};
    auto images = testing_gpu::makeDepthAndPyramid(ctx(), extent, randomDepth(extent, 3));
    ASSERT_TRUE(images.pyramid);
    sieve::HiZTarget target = images.target();
    target.mipViews = target.mipViews.subspan(0, 2);
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        auto rec = builder.recordPerMip(cmd, images.source(), target);
        EXPECT_FALSE(rec);
        EXPECT_NE(rec.error().message.find("mip views"), std::string::npos);
    });
    ASSERT_TRUE(r) << r.error().message;
}

// ---- Depth formats and multisampled depth ----

namespace {

bool canSample(const sieve::DeviceInfo& dev, VkFormat format) {
    VkFormatProperties props{};
    vkGetPhysicalDeviceFormatProperties(dev.physical, format, &props);
    return props.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
}

// Values on the format's grid (D24: every 256th code, so that neighbours differ by far more than the
// decoding's rounding), the near and far planes among them.
std::vector<float> gridDepth(VkFormat format, size_t count, uint32_t seed) {
    const uint32_t codeMax = testing_gpu::depthCodeMax(format);
    if (codeMax == 0) return randomDepth({uint32_t(count), 1}, seed);
    const uint32_t step = codeMax > 0xFFFFu ? 256u : 1u;
    std::mt19937 rng(seed);
    std::uniform_int_distribution<uint32_t> code(0, codeMax / step);
    std::vector<float> v(count);
    for (float& x : v) x = testing_gpu::depthGrid(format, std::min(code(rng) * step, codeMax));
    if (count > 2) v[count / 3] = 0.0f, v[count / 2] = 1.0f;
    return v;
}

class HiZDepthFormatTest : public HiZTest, public testing::WithParamInterface<VkFormat> {};

}  // namespace

// Every depth format a host renders (sieve/depth_format.h) is read through its depth aspect as a float:
// both builders equal the reference on the decoded values (unorm decoding within 1e-6, far below the
// 1.5e-5 between neighbouring test values; float formats bit for bit).
TEST_P(HiZDepthFormatTest, BuildersMatchReference) {
    const VkFormat format = GetParam();
    if (!canSample(ctx().info(), format)) GTEST_SKIP() << "the device cannot sample format " << format;
    const float tolerance = testing_gpu::depthCodeMax(format) ? 1e-6f : 0.0f;
    uint32_t seed = 300;
    for (Builder which : {Builder::PerMip, Builder::Single}) {
        if (which == Builder::Single && !builder.singlePassSupported()) continue;
        for (VkExtent2D e : {VkExtent2D{1, 1}, {3, 5}, {67, 33}, {130, 257}}) {
            SCOPED_TRACE(std::to_string(e.width) + "x" + std::to_string(e.height) + nameOf(which));
            const std::vector<float> depth = gridDepth(format, size_t(e.width) * e.height, seed++);
            auto images = testing_gpu::makeDepthAndPyramid(ctx(), e, depth, format, 1);
            ASSERT_TRUE(images.pyramid);
            auto r = ctx().submitNow([&](VkCommandBuffer cmd) { record(cmd, which, images); });
            ASSERT_TRUE(r) << r.error().message;
            expectMatchesReference(e, depth, images, tolerance);
            if (HasFatalFailure()) return;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Formats, HiZDepthFormatTest,
                         testing::Values(VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32,
                                         VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT,
                                         VK_FORMAT_D32_SFLOAT_S8_UINT),
                         [](const testing::TestParamInfo<VkFormat>& info) {
                             switch (info.param) {
                                 case VK_FORMAT_D16_UNORM: return std::string("D16");
                                 case VK_FORMAT_X8_D24_UNORM_PACK32: return std::string("X8D24");
                                 case VK_FORMAT_D24_UNORM_S8_UINT: return std::string("D24S8");
                                 case VK_FORMAT_D32_SFLOAT: return std::string("D32");
                                 default: return std::string("D32S8");
                             }
                         });

// A multisampled depth is reduced over every sample: a pixel's min is its farthest sample. Sample 0 is
// the nearest of its pixel in every other pixel, so a builder that read sample 0 alone (what a
// sampler2D view of a resolve would give) differs from the reference; the single-pass builder refuses.
TEST_F(HiZTest, MultisampledDepthIsReducedOverEverySample) {
    const VkSampleCountFlags counts = ctx().info().limits.sampledImageDepthSampleCounts &
                                      ctx().info().limits.framebufferDepthSampleCounts & ~VK_SAMPLE_COUNT_1_BIT;
    if (!counts) GTEST_SKIP() << "the device samples no multisampled depth";
    uint32_t seed = 400;
    for (VkFormat format : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D32_SFLOAT_S8_UINT}) {
        if (!canSample(ctx().info(), format)) continue;
        for (uint32_t samples = 2; samples <= 64; samples *= 2) {
            if (!(counts & samples)) continue;
            for (VkExtent2D e : {VkExtent2D{1, 1}, {3, 5}, {67, 33}}) {
                SCOPED_TRACE(std::to_string(e.width) + "x" + std::to_string(e.height) + " format " +
                             std::to_string(format) + " x" + std::to_string(samples));
                std::vector<float> depth = randomDepth({e.width * samples, e.height}, seed++);
                for (size_t p = 0; p < size_t(e.width) * e.height; p += 2) {
                    float* px = &depth[p * samples];
                    std::swap(px[0], *std::max_element(px, px + samples));
                }
                auto images = testing_gpu::makeDepthAndPyramid(ctx(), e, depth, format, samples);
                ASSERT_TRUE(images.pyramid);
                EXPECT_FALSE(builder.singlePassServes(e, samples));
                auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
                    ASSERT_TRUE(builder.recordPerMip(cmd, images.source(), images.target()));
                    if (builder.singlePassSupported()) {
                        auto single = builder.recordSingle(cmd, images.source(), images.target(), counter.range());
                        EXPECT_FALSE(single);
                    }
                });
                ASSERT_TRUE(r) << r.error().message;
                expectMatchesReference(e, depth, images);
                if (HasFatalFailure()) return;
                // The test can fail: sample 0 alone gives another mip 0 wherever a pixel has 2+ samples.
                std::vector<float> sample0(size_t(e.width) * e.height);
                for (size_t p = 0; p < sample0.size(); ++p) sample0[p] = depth[p * samples];
                EXPECT_NE(sieve::hizReference(e, sample0).levels[0].min,
                          sieve::hizReference(e, depth, samples).levels[0].min);
            }
        }
    }
}
