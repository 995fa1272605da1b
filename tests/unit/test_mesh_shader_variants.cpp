// The mesh path's two shader variants, read from their embedded SPIR-V: only the culling variants declare
// the cull output, and no geometry shader declares the primitive shading rate, whose capability
// (FragmentShadingRateKHR) the device is never created with (validation reported it on the H200 when the
// implicit per-primitive block brought it in).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/spirv_reflect.h"
#include "sieve/spirv.h"

namespace {

// SPIR-V 1.6 specification, section 3 (spirv.h: SpvCapability*, SpvBuiltIn*).
constexpr uint32_t kCapabilityShader = 1;
constexpr uint32_t kCapabilityFragmentShadingRate = 4422;  // FragmentShadingRateKHR
constexpr uint32_t kCapabilityMeshShading = 5283;          // MeshShadingEXT
constexpr uint32_t kBuiltInPosition = 0;
constexpr uint32_t kBuiltInPrimitiveShadingRate = 4432;  // PrimitiveShadingRateKHR
constexpr uint32_t kBuiltInShadingRate = 4444;           // ShadingRateKHR
constexpr uint32_t kBuiltInCullPrimitive = 5299;         // CullPrimitiveEXT

sieve::spirv::ShaderInfo reflectEmbedded(const char* name) {
    auto words = sieve::embeddedSpirv(name);
    EXPECT_FALSE(words.empty()) << name;
    auto info = sieve::spirv::reflect(words);
    EXPECT_TRUE(info) << name << ": " << info.error().message;
    return info ? std::move(info).value() : sieve::spirv::ShaderInfo{};
}

bool has(const std::vector<uint32_t>& list, uint32_t value) {
    return std::find(list.begin(), list.end(), value) != list.end();
}

TEST(MeshShaderVariants, ReflectionListsCapabilitiesAndBuiltIns) {
    const auto fill = reflectEmbedded("test/fill.comp");
    EXPECT_TRUE(has(fill.capabilities, kCapabilityShader));
    EXPECT_FALSE(has(fill.capabilities, kCapabilityMeshShading));
    const auto mesh = reflectEmbedded("geometry/cluster.mesh");
    EXPECT_TRUE(has(mesh.capabilities, kCapabilityMeshShading));
    EXPECT_TRUE(has(mesh.builtIns, kBuiltInPosition));  // a member of the per-vertex block
    const auto vert = reflectEmbedded("geometry/mesh.vert");
    EXPECT_TRUE(has(vert.builtIns, kBuiltInPosition));
}

TEST(MeshShaderVariants, OnlyTheCullingVariantsDeclareTheCullOutput) {
    for (const char* plain : {"geometry/cluster.mesh", "geometry/cluster_material.mesh"}) {
        const auto s = reflectEmbedded(plain);
        EXPECT_EQ(s.stage, VK_SHADER_STAGE_MESH_BIT_EXT) << plain;
        EXPECT_FALSE(has(s.builtIns, kBuiltInCullPrimitive)) << plain;
    }
    for (const char* cull : {"geometry/cluster_cull.mesh", "geometry/cluster_material_cull.mesh"}) {
        const auto s = reflectEmbedded(cull);
        EXPECT_EQ(s.stage, VK_SHADER_STAGE_MESH_BIT_EXT) << cull;
        EXPECT_TRUE(has(s.builtIns, kBuiltInCullPrimitive)) << cull;
    }
}

TEST(MeshShaderVariants, NoGraphicsShaderDeclaresTheShadingRate) {
    const char* shaders[] = {"geometry/cluster.mesh",
                             "geometry/cluster_cull.mesh",
                             "geometry/cluster_material.mesh",
                             "geometry/cluster_material_cull.mesh",
                             "geometry/mesh.vert",
                             "geometry/mesh.frag",
                             "geometry/material.vert",
                             "geometry/material.frag",
                             "geometry/shadow_depth.frag",
                             "test/depth_write.vert",
                             "test/depth_write.frag",
                             "ui/cull_bounds.vert",
                             "ui/debug_line.frag",
                             "ui/frustum_lines.vert",
                             "ui/imgui.vert",
                             "ui/imgui.frag"};
    for (const char* name : shaders) {
        const auto s = reflectEmbedded(name);
        EXPECT_FALSE(has(s.capabilities, kCapabilityFragmentShadingRate)) << name;
        EXPECT_FALSE(has(s.builtIns, kBuiltInPrimitiveShadingRate)) << name;
        EXPECT_FALSE(has(s.builtIns, kBuiltInShadingRate)) << name;
    }
}

}  // namespace
