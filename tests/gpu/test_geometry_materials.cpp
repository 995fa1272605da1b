// The default geometry pass's material mode, its refusals: textures in plain mode, too many or null
// views, textureSlots outside 1..SIEVE_MAX_TEXTURES, a pipeline whose shaders use set 1 without its
// layout; and the GpuMaterials upload (white texture first, one full mip chain per texture).
#include <gtest/gtest.h>

#include "assets/materials.h"
#include "engine/scene/gpu_materials.h"
#include "engine/target/target.h"
#include "gpu_fixture.h"
#include "shared/material.h"
#include "sieve/geometry_pass.h"
#include "sieve/graphics_pipeline.h"

using testing_gpu::GpuTest;

namespace {

constexpr VkFormat kColor = VK_FORMAT_R8G8B8A8_UNORM;

sieve::assets::SceneData texturedTriangle(uint32_t width, uint32_t height) {
    sieve::assets::SceneData s;
    s.vertices = {{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}};
    s.uvs = {{0, 0}, {1, 0}, {0, 1}};
    sieve::assets::Texture t;
    t.width = width;
    t.height = height;
    t.rgba.assign(size_t(width) * height * 4, 200);
    s.textures.push_back(t);
    s.materials = sieve::assets::paletteMaterials(1);
    s.materials[0].baseColorTexture = 1;
    return s;
}

}  // namespace

TEST_F(GpuTest, GeometryPassRefusesTexturesItCannotBind) {
    auto plain = sieve::GeometryPass::create(ctx().info(), kColor, engine::kDepthFormat);
    ASSERT_TRUE(plain) << plain.error().message;
    EXPECT_EQ(plain->binCount(), 1u);
    const VkImageView none[] = {VK_NULL_HANDLE};
    auto r = plain->setTextures(none);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("not in material mode"), std::string::npos) << r.error().message;

    sieve::GeometryOptions options;
    options.materials = true;
    options.textureSlots = 0;
    auto zero = sieve::GeometryPass::create(ctx().info(), kColor, engine::kDepthFormat, options);
    ASSERT_FALSE(zero);
    EXPECT_NE(zero.error().message.find("textureSlots 0 outside 1..120"), std::string::npos) << zero.error().message;

    options.textureSlots = 2;
    auto pass = sieve::GeometryPass::create(ctx().info(), kColor, engine::kDepthFormat, options);
    ASSERT_TRUE(pass) << pass.error().message;
    EXPECT_EQ(pass->binCount(), sieve::gpu::SIEVE_MATERIAL_BIN_COUNT);
    for (uint32_t bin = 0; bin < pass->binCount(); ++bin)
        EXPECT_EQ(sieve::GeometryPass::isBlendBin(bin), bin >= 4) << bin;
    auto nullView = pass->setTextures(none);
    ASSERT_FALSE(nullView);
    EXPECT_NE(nullView.error().message.find("view 0 is null"), std::string::npos) << nullView.error().message;
    auto scene = texturedTriangle(4, 4);
    auto materials = engine::GpuMaterials::upload(ctx(), scene);
    ASSERT_TRUE(materials) << materials.error().message;
    const std::vector<VkImageView> views = materials->views();
    ASSERT_EQ(views.size(), 2u);
    EXPECT_TRUE(pass->setTextures(views));
    const std::vector<VkImageView> three = {views[0], views[1], views[1]};
    auto tooMany = pass->setTextures(three);
    ASSERT_FALSE(tooMany);
    EXPECT_NE(tooMany.error().message.find("3 textures given, 1 to 2 fit"), std::string::npos)
        << tooMany.error().message;
}

TEST_F(GpuTest, MaterialShadersNeedTheTextureSetLayout) {
    sieve::GraphicsPipelineDesc desc;
    desc.vertexShader = "geometry/material.vert";
    desc.fragmentShader = "geometry/material.frag";
    desc.pushConstantBytes = sizeof(sieve::gpu::MaterialPush);
    desc.colorFormat = kColor;
    auto p = sieve::GraphicsPipeline::create(ctx().info(), desc);
    ASSERT_FALSE(p);
    EXPECT_NE(p.error().message.find("is in set 1, for which no layout was given"), std::string::npos)
        << p.error().message;
}

TEST_F(GpuTest, MaterialUploadMakesWhiteFirstAndFullMipChains) {
    auto scene = texturedTriangle(37, 6);  // odd, non-square: 6 levels (37, 18, 9, 4, 2, 1)
    auto m = engine::GpuMaterials::upload(ctx(), scene);
    ASSERT_TRUE(m) << m.error().message;
    ASSERT_EQ(m->textures.size(), 2u);
    EXPECT_EQ(m->textures[0].extent().width, 1u);
    EXPECT_EQ(m->textures[1].mipLevels(), 6u);
    EXPECT_EQ(m->textures[1].format(), VK_FORMAT_R8G8B8A8_SRGB);
    EXPECT_EQ(m->materialCount, 1u);
    EXPECT_EQ(engine::fullMipCount({1, 1}), 1u);
    EXPECT_EQ(engine::fullMipCount({1920, 1080}), 11u);
    // A scene without a table gets the palette for every material index it uses.
    scene.materials.clear();
    scene.textures.clear();
    scene.primitives.resize(1);
    scene.primitives[0].material = 4;
    auto palette = engine::GpuMaterials::upload(ctx(), scene);
    ASSERT_TRUE(palette) << palette.error().message;
    EXPECT_EQ(palette->materialCount, 5u);
}
