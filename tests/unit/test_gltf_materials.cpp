// glTF materials as the default geometry pass draws them (assets/gltf_materials.h): the material table,
// bins, UVs and decoded base colour textures of tests/data/gltf/materials.gltf
// (scripts/make_gltf_test_data.py), the UV stream through the mesh builder, and the checks of
// SceneData::validate on the new tables.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "assets/bins.h"
#include "assets/gltf_loader.h"
#include "assets/materials.h"
#include "assets/mesh_builder.h"
#include "assets/procedural_city.h"
#include "gltf_test_data.h"

using namespace sieve::assets;
using sieve::test::loadGltfData;
namespace gpu = sieve::gpu;

namespace {

// The primitive of the instance placed by the node named `mesh` (meshNames are the glTF mesh names).
const gpu::MeshPrimitive& primitiveOf(const SceneData& s, const std::string& mesh) {
    for (size_t m = 0; m < s.meshes.size(); ++m)
        if (s.meshNames[m] == mesh) return s.primitives[s.meshes[m].firstPrimitive];
    ADD_FAILURE() << "no mesh " << mesh;
    return s.primitives[0];
}

}  // namespace

TEST(GltfMaterials, TableBinsUvsAndTexturesOfTheTestScene) {
    const SceneData s = loadGltfData("materials.gltf");
    ASSERT_FALSE(s.meshes.empty());
    EXPECT_EQ(s.validate(), "");
    EXPECT_TRUE(s.warnings.empty()) << s.warnings[0];
    // 10 glTF materials and the default after them; three images (checker, hole, normal map) decoded once
    // each.
    ASSERT_EQ(s.materials.size(), 11u);
    ASSERT_EQ(s.textures.size(), 3u);
    EXPECT_EQ(s.uvs.size(), s.vertices.size());

    const gpu::MeshPrimitive& checker = primitiveOf(s, "checker quad");
    const gpu::Material& checkerMat = s.materials[checker.material];
    EXPECT_EQ(checker.bin, uint32_t(kBinOpaque));
    ASSERT_EQ(checkerMat.baseColorTexture, 1u);  // slot 0 is the white texture
    const Texture& t = s.textures[0];
    ASSERT_EQ(t.width, 8u);
    ASSERT_EQ(t.height, 8u);
    EXPECT_EQ(std::vector<uint8_t>(t.rgba.begin(), t.rgba.begin() + 8),
              (std::vector<uint8_t>{230, 40, 40, 255, 240, 240, 240, 255}));

    const gpu::MeshPrimitive& masked = primitiveOf(s, "masked card");
    EXPECT_EQ(masked.bin, uint32_t(kBinMasked));
    EXPECT_EQ(s.materials[masked.material].alphaMode, gpu::SIEVE_ALPHA_MASK);
    EXPECT_FLOAT_EQ(s.materials[masked.material].alphaCutoff, 0.5f);
    EXPECT_EQ(s.materials[masked.material].baseColorTexture, 2u);
    EXPECT_EQ(s.textures[1].rgba[3], 0u);  // the transparent border

    const gpu::MeshPrimitive& twoSided = primitiveOf(s, "double-sided card");
    EXPECT_EQ(twoSided.bin, uint32_t(kBinOpaqueDoubleSided));
    EXPECT_EQ(s.materials[twoSided.material].doubleSided, 1u);
    EXPECT_EQ(s.materials[twoSided.material].baseColorTexture, gpu::SIEVE_TEXTURE_WHITE);
    EXPECT_FLOAT_EQ(s.materials[twoSided.material].baseColorFactor.x, 0.9f);

    const gpu::Material& bumped = s.materials[primitiveOf(s, "normal-mapped card").material];
    ASSERT_EQ(bumped.normalTexture, 3u);
    EXPECT_EQ(bumped.baseColorTexture, gpu::SIEVE_TEXTURE_WHITE);
    EXPECT_FLOAT_EQ(bumped.normalScale, 1.0f);
    EXPECT_FALSE(s.textures[2].srgb);  // normal maps are linear
    EXPECT_TRUE(s.textures[0].srgb);
    EXPECT_EQ(s.materials[checker.material].normalTexture, gpu::SIEVE_TEXTURE_WHITE);

    const gpu::MeshPrimitive& glow = primitiveOf(s, "emissive card");
    EXPECT_EQ(s.materials[glow.material].emissive, gpu::vec4(0.5f, 0.3f, 0.0f, 0.0f));
    EXPECT_EQ(s.materials[checker.material].emissive, gpu::vec4(0, 0, 0, 0));

    const gpu::MeshPrimitive& blend = primitiveOf(s, "blended card");
    EXPECT_EQ(blend.bin, uint32_t(kBinBlend));
    EXPECT_FLOAT_EQ(s.materials[blend.material].baseColorFactor.w, 0.5f);

    // The quad's UVs survive deduplication and vertex reordering: each corner keeps its own UV.
    for (int i = 0; i < 4; ++i) {
        const gpu::Vertex& v = s.vertices[size_t(checker.vertexOffset + i)];
        const gpu::VertexUv& uv = s.uvs[size_t(checker.vertexOffset + i)];
        EXPECT_FLOAT_EQ(uv.u, v.px > 0 ? 1.0f : 0.0f);
        EXPECT_FLOAT_EQ(uv.v, v.py > 0 ? 0.0f : 1.0f);
    }

    // The mirrored wedge's twin keeps the material and bin, and shares the vertices (and so the UVs).
    const gpu::MeshPrimitive& wedge = primitiveOf(s, "wedge");
    const gpu::MeshPrimitive& mirrored = primitiveOf(s, "wedge (mirrored)");
    EXPECT_EQ(mirrored.material, wedge.material);
    EXPECT_EQ(mirrored.bin, wedge.bin);
    EXPECT_EQ(mirrored.vertexOffset, wedge.vertexOffset);
}

TEST(GltfMaterials, DefaultsAndNotes) {
    // No material: glTF's default after the (empty) table. A base colour texture on TEXCOORD_1 and an
    // image that does not decode are noted and drawn untextured.
    const std::string buffer =
        R"("buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],
        "bufferViews":[{"buffer":0,"byteLength":36}],
        "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],)";
    auto load = [&](const std::string& materials, int material) {
        const std::string prim = material >= 0 ? R"(,"material":)" + std::to_string(material) : "";
        const std::string json = R"({"asset":{"version":"2.0"},)" + buffer + materials +
                                 R"("meshes":[{"primitives":[{"attributes":{"POSITION":0})" + prim +
                                 R"(}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]})";
        auto r = loadGltfFromMemory({reinterpret_cast<const uint8_t*>(json.data()), json.size()}, "test.gltf");
        EXPECT_TRUE(r) << r.error();
        return r ? std::move(r).value() : SceneData{};
    };
    SceneData plain = load("", -1);
    ASSERT_EQ(plain.materials.size(), 1u);
    EXPECT_EQ(plain.primitives[0].material, 0u);
    EXPECT_FLOAT_EQ(plain.materials[0].baseColorFactor.y, 1.0f);
    EXPECT_EQ(plain.primitives[0].bin, uint32_t(kBinOpaque));

    SceneData noted = load(
        R"("images":[{"uri":"data:image/png;base64,AAAA"}],"textures":[{"source":0}],
        "materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0,"texCoord":1}}},
                     {"pbrMetallicRoughness":{"baseColorTexture":{"index":0}},"alphaMode":"BLEND","doubleSided":true}],)",
        1);
    ASSERT_EQ(noted.materials.size(), 3u);
    EXPECT_EQ(noted.materials[0].baseColorTexture, gpu::SIEVE_TEXTURE_WHITE);
    EXPECT_EQ(noted.materials[1].baseColorTexture, gpu::SIEVE_TEXTURE_WHITE);
    EXPECT_EQ(noted.primitives[0].bin, uint32_t(kBinBlendDoubleSided));
    EXPECT_TRUE(noted.textures.empty());
    std::string all;
    for (const std::string& w : noted.warnings) all += w + "\n";
    EXPECT_NE(all.find("TEXCOORD_1"), std::string::npos) << all;
    EXPECT_NE(all.find("could not be decoded"), std::string::npos) << all;
}

TEST(GltfMaterials, TextureTransformBecomesTheMaterialsUvRows) {
    // offset (0.5, 0.25), rotation pi/2, scale (2, 3): uv' = T R S uv with the extension's matrices.
    const std::string json =
        R"({"asset":{"version":"2.0"},"extensionsUsed":["KHR_texture_transform"],
        "buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],
        "bufferViews":[{"buffer":0,"byteLength":36}],
        "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
        "images":[{"uri":"data:image/png;base64,AAAA"}],"textures":[{"source":0}],
        "materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0,"extensions":{"KHR_texture_transform":
            {"offset":[0.5,0.25],"rotation":1.5707963267948966,"scale":[2,3]}}}}}],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],"nodes":[{"mesh":0}],
        "scenes":[{"nodes":[0]}]})";
    auto r = loadGltfFromMemory({reinterpret_cast<const uint8_t*>(json.data()), json.size()}, "test.gltf");
    ASSERT_TRUE(r) << r.error();
    const gpu::Material& m = r->materials[0];
    EXPECT_NEAR(m.uvRow0.x, 0.0f, 1e-6f);
    EXPECT_NEAR(m.uvRow0.y, -3.0f, 1e-6f);
    EXPECT_NEAR(m.uvRow0.z, 0.5f, 1e-6f);
    EXPECT_NEAR(m.uvRow1.x, 2.0f, 1e-6f);
    EXPECT_NEAR(m.uvRow1.y, 0.0f, 1e-6f);
    EXPECT_NEAR(m.uvRow1.z, 0.25f, 1e-6f);
    for (const std::string& w : r->warnings) EXPECT_EQ(w.find("KHR_texture_transform"), std::string::npos) << w;
    // Without the extension: the identity.
    EXPECT_EQ(r->materials[1].uvRow0, gpu::vec4(1, 0, 0, 0));
    EXPECT_EQ(r->materials[1].uvRow1, gpu::vec4(0, 1, 0, 0));
}

TEST(GltfMaterials, MeshBuilderKeepsUvSeamsAndChecksCounts) {
    // Two triangles sharing an edge whose UVs differ on one side: those vertices stay apart.
    const glm::vec3 p[] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    const glm::vec2 seam[] = {{0, 0}, {1, 0}, {0, 1}, {0.5f, 0}, {1, 1}, {0, 1}};
    SceneData scene;
    MeshBuilder b;
    ASSERT_TRUE(b.addPrimitive(PrimitiveInput{p, {}, {}, 3, uint32_t(kBinMasked), seam}));
    ASSERT_TRUE(b.finish(scene, "seam"));
    EXPECT_EQ(scene.vertices.size(), 5u);  // (1, 0, 0) twice: UV (1, 0) and (0.5, 0)
    EXPECT_EQ(scene.uvs.size(), 5u);
    EXPECT_EQ(scene.primitives[0].material, 3u);
    EXPECT_EQ(scene.primitives[0].bin, uint32_t(kBinMasked));
    // A mesh without UVs after one with: zeros keep the stream parallel.
    ASSERT_TRUE(b.addPrimitive(PrimitiveInput{p}));
    ASSERT_TRUE(b.finish(scene, "plain"));
    EXPECT_EQ(scene.uvs.size(), scene.vertices.size());
    EXPECT_FLOAT_EQ(scene.uvs.back().u, 0.0f);
    const glm::vec2 few[] = {{0, 0}};
    auto bad = b.addPrimitive(PrimitiveInput{p, {}, {}, 0, 0, few});
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().find("1 UVs for 6 positions"), std::string::npos) << bad.error();
}

TEST(GltfMaterials, ValidateRefusesBrokenMaterialTables) {
    SceneData s = loadGltfData("materials.gltf");
    ASSERT_EQ(s.validate(), "");
    SceneData t = s;
    t.primitives[0].material = uint32_t(t.materials.size());
    EXPECT_NE(t.validate().find("outside the material table"), std::string::npos) << t.validate();
    t = s;
    t.uvs.pop_back();
    EXPECT_NE(t.validate().find("uvs has"), std::string::npos) << t.validate();
    t = s;
    t.materials[0].baseColorTexture = uint32_t(t.textures.size() + 1);
    EXPECT_NE(t.validate().find("outside the texture table"), std::string::npos) << t.validate();
    t = s;
    t.materials[0].alphaMode = 3;
    EXPECT_NE(t.validate().find("alpha mode"), std::string::npos) << t.validate();
    t = s;
    t.textures[0].rgba.pop_back();
    EXPECT_NE(t.validate().find("does not match"), std::string::npos) << t.validate();
}

TEST(GltfMaterials, TheCityGetsItsPaletteAsMaterials) {
    auto city = makeCity(200, 1);
    ASSERT_TRUE(city) << city.error();
    ASSERT_EQ(city->materials.size(), size_t(kMaterialCount));
    EXPECT_FLOAT_EQ(city->materials[kBrick].baseColorFactor.x, kMaterialPalette[kBrick].x);
    EXPECT_EQ(city->validate(), "");
    for (const auto& p : city->primitives) EXPECT_EQ(p.bin, uint32_t(kBinOpaque));
}
