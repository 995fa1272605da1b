// The culling plugin on every depth format a host renders (CullingConfig::depthFormat): the reference
// host draws the city into a D16, X8_D24, D24S8 or D32S8 depth, and culling keeps the picture (culling on
// equals culling off, pixel for pixel), occludes something and is never falsely culled by the check.
// create() refuses a format that is not depth and a sample count the device cannot sample.
#include <string>

#include "assets/glm_interop.h"
#include "assets/procedural_city.h"
#include "engine/scene/scene_renderer.h"
#include "engine/target/headless_target.h"
#include "gpu/gpu_fixture.h"
#include "gpu/test_render_frames.h"
#include "sieve/cull_flags.h"

using testing_gpu::GpuTest;

namespace {

using testing_gpu::Picture;

class CullingDepthFormatTest : public testing_gpu::CityGpuTest, public testing::WithParamInterface<VkFormat> {
protected:
    bool renders(VkFormat format) {
        VkFormatProperties props{};
        vkGetPhysicalDeviceFormatProperties(ctx().info().physical, format, &props);
        const VkFormatFeatureFlags need =
            VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
        return (props.optimalTilingFeatures & need) == need;
    }

    // Frames at the street camera (LOD off, so that culling alone can change the picture); the last
    // frame's pixels and the plugin's stats.
    Picture render(VkFormat format, bool cull) {
        Picture out;
        const VkExtent2D extent{193, 107};
        auto target = engine::HeadlessTarget::create(ctx(), {extent, VK_FORMAT_R8G8B8A8_UNORM, 2, format});
        EXPECT_TRUE(target) << target.error().message;
        if (!target) return out;
        auto renderer = engine::SceneRenderer::create(ctx(), scene_, target.value()->colorFormat(), extent,
                                                      {.depthFormat = format});
        EXPECT_TRUE(renderer) << renderer.error().message;
        if (!renderer) return out;
        sieve::CullingToggles& t = renderer.value()->plugin().toggles();
        t.lod = false;
        t.frustum = t.occlusion = cull;
        t.checkCulling = cull;
        testing_gpu::renderFrames(*target.value(), *renderer.value(), sieve::assets::defaultCityCamera(), 6);
        return testing_gpu::capturePicture(*target.value(), *renderer.value());
    }
};

}  // namespace

TEST_P(CullingDepthFormatTest, CullingKeepsThePictureAndOccludes) {
    const VkFormat format = GetParam();
    if (!renders(format)) GTEST_SKIP() << "the device cannot render and sample format " << format;
    const Picture off = render(format, false);
    const Picture on = render(format, true);
    ASSERT_FALSE(off.pixels.empty());
    ASSERT_EQ(on.pixels.size(), off.pixels.size());
    EXPECT_EQ(testing_gpu::differingPixels(on.pixels, off.pixels), 0u) << "pixels that culling changed";
    const sieve::CullingStats& s = on.stats;
    ASSERT_TRUE(s.valid && s.falselyCulledValid);
    EXPECT_EQ(s.falselyCulled, 0u);
    EXPECT_LT(s.lateVisible, s.frustumVisible) << "the pyramid of this depth occluded nothing";
}

INSTANTIATE_TEST_SUITE_P(Formats, CullingDepthFormatTest,
                         testing::Values(VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32,
                                         VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT),
                         [](const testing::TestParamInfo<VkFormat>& info) {
                             switch (info.param) {
                                 case VK_FORMAT_D16_UNORM: return std::string("D16");
                                 case VK_FORMAT_X8_D24_UNORM_PACK32: return std::string("X8D24");
                                 case VK_FORMAT_D24_UNORM_S8_UINT: return std::string("D24S8");
                                 default: return std::string("D32S8");
                             }
                         });

TEST_F(GpuTest, CullingPluginRefusesDepthItCannotRead) {
    sieve::CullingConfig config;
    config.maxInstances = 16;
    config.viewport = {64, 32};
    config.depthFormat = VK_FORMAT_R32_SFLOAT;
    auto colour = sieve::CullingPlugin::create(ctx().info(), config);
    ASSERT_FALSE(colour);
    EXPECT_NE(colour.error().message.find("not a depth format"), std::string::npos) << colour.error().message;
    config.depthFormat = VK_FORMAT_D32_SFLOAT;
    config.depthSamples = VkSampleCountFlagBits(3);
    auto three = sieve::CullingPlugin::create(ctx().info(), config);
    ASSERT_FALSE(three);
    EXPECT_NE(three.error().message.find("depthSamples 3"), std::string::npos) << three.error().message;
    // A count the device samples depth at: created, and the pyramid is built per mip.
    const VkSampleCountFlags counts = ctx().info().limits.sampledImageDepthSampleCounts & ~VK_SAMPLE_COUNT_1_BIT;
    if (!counts) return;
    config.depthSamples = VkSampleCountFlagBits(counts & ~(counts - 1));
    auto ms = sieve::CullingPlugin::create(ctx().info(), config);
    ASSERT_TRUE(ms) << ms.error().message;
    EXPECT_FALSE(ms.value()->paths().singleDispatchHiZ);
    const auto slots = ms.value()->slots();
    bool declared = false;
    for (const sieve::SlotDesc& d : slots)
        if (d.name == sieve::CullingPlugin::kDepth) declared = d.samples == config.depthSamples;
    EXPECT_TRUE(declared) << "the depth slot declares the sample count";
}
