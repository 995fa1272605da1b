// SPIR-V reflection on the embedded shaders (what the GLSL declares) and on malformed modules.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/spirv_reflect.h"
#include "hiz/hiz_shared.h"
#include "shared/cull.h"
#include "shared/draw_push.h"
#include "shared/geometry_push.h"
#include "shared/material.h"
#include "shared/prim_push.h"
#include "shared/test_push.h"
#include "shared/ui_push.h"
#include "sieve/spirv.h"

namespace {

using sieve::spirv::DescriptorBinding;
using sieve::spirv::ShaderInfo;

ShaderInfo reflectEmbedded(const char* name) {
    auto words = sieve::embeddedSpirv(name);
    EXPECT_FALSE(words.empty()) << name;
    auto info = sieve::spirv::reflect(words);
    EXPECT_TRUE(info) << name << ": " << info.error().message;
    return info ? std::move(info).value() : ShaderInfo{};
}

std::vector<VkDescriptorType> types(const ShaderInfo& s) {
    std::vector<VkDescriptorType> t;
    for (const DescriptorBinding& b : s.bindings) {
        EXPECT_EQ(b.set, 0u);
        EXPECT_EQ(b.binding, t.size()) << "bindings are dense and sorted";
        EXPECT_EQ(b.count, 1u);
        t.push_back(b.type);
    }
    return t;
}

constexpr VkDescriptorType kS = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
constexpr VkDescriptorType kU = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
constexpr VkDescriptorType kCis = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
constexpr VkDescriptorType kSi = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
constexpr VkDescriptorType kSampled = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;

std::array<uint32_t, 3> literalSize(const ShaderInfo& s) {
    return s.resolveLocalSize({});
}

TEST(SpirvReflect, FlagShadersBindStorageAndPyramid) {
    const ShaderInfo early = reflectEmbedded("cull/flag_early.comp");
    EXPECT_EQ(early.stage, VK_SHADER_STAGE_COMPUTE_BIT);
    EXPECT_EQ(types(early), (std::vector{kU, kS, kS, kS, kS, kS, kS, kS, kS, kS, kS}));  // ..., counters, draw marks
    EXPECT_EQ(literalSize(early), (std::array<uint32_t, 3>{128, 1, 1}));
    EXPECT_EQ(early.pushConstantBytes, sizeof(sieve::gpu::CullFlagPush));
    const ShaderInfo late = reflectEmbedded("cull/flag_late.comp");
    const std::vector lateTypes{kU, kS, kS, kS, kS, kS, kS, kS, kS, kS, kS, kCis, kS, kS, kU};
    EXPECT_EQ(types(late), lateTypes);
    // The split late pass's two dispatches bind the late shader's resources and the candidate lists after them.
    std::vector splitTypes = lateTypes;
    splitTypes.push_back(kS);
    EXPECT_EQ(types(reflectEmbedded("cull/flag_defer.comp")), splitTypes);
    EXPECT_EQ(types(reflectEmbedded("cull/flag_candidates.comp")), splitTypes);
    EXPECT_EQ(types(reflectEmbedded("cull/check.comp")), (std::vector{kS, kS, kS, kCis, kS}));
    EXPECT_EQ(late.bindings[0].stages, VkShaderStageFlags(VK_SHADER_STAGE_COMPUTE_BIT));
}

TEST(SpirvReflect, HiZShadersImagesAndTwoDimensionalGroups) {
    const ShaderInfo toMip0 = reflectEmbedded("hiz/depth_to_mip0.comp");
    EXPECT_EQ(types(toMip0), (std::vector{kCis, kSi}));
    EXPECT_EQ(literalSize(toMip0), (std::array<uint32_t, 3>{8, 8, 1}));
    EXPECT_EQ(toMip0.pushConstantBytes, sizeof(sieve::gpu::HiZReducePush));
    EXPECT_EQ(types(reflectEmbedded("hiz/reduce_mip.comp")), (std::vector{kSi, kSi}));
    const ShaderInfo single = reflectEmbedded("hiz/single_pass.comp");
    std::vector<VkDescriptorType> expect{kCis, kS};
    expect.resize(2 + sieve::gpu::SIEVE_HIZ_MAX_MIPS, kSi);
    EXPECT_EQ(types(single), expect);
    EXPECT_EQ(single.pushConstantBytes, sizeof(sieve::gpu::HiZSinglePush));
    const ShaderInfo view = reflectEmbedded("ui/hiz_view.comp");
    EXPECT_EQ(types(view), (std::vector{kSampled, kSi}));
    EXPECT_EQ(view.pushConstantBytes, sizeof(sieve::gpu::HiZViewPush));
}

TEST(SpirvReflect, AliasedBlocksAtOneBindingMerge) {
    // reduce.comp views binding 0 as uint[] and uvec4[].
    const ShaderInfo reduce = reflectEmbedded("prim/reduce.comp");
    EXPECT_EQ(types(reduce), (std::vector{kS, kS}));
    EXPECT_EQ(reduce.pushConstantBytes, sizeof(sieve::gpu::ReducePush));
    EXPECT_EQ(types(reflectEmbedded("prim/scan_single.comp")), (std::vector{kS, kS, kS, kS, kS, kS}));
}

TEST(SpirvReflect, LocalSizeFromSpecializationConstants) {
    // prim shaders: layout(local_size_x_id = 0). glslang gives the WorkgroupSize built-in its own
    // SpecId-0 constant whose default is 1 (not WG's 256): unspecialized, the group is 1 wide.
    const ShaderInfo tile = reflectEmbedded("prim/scan_tile.comp");
    EXPECT_EQ(tile.localSize[0].specId, 0);
    EXPECT_EQ(tile.localSize[1].specId, -1);
    EXPECT_EQ(tile.resolveLocalSize({}), (std::array<uint32_t, 3>{1, 1, 1}));
    const uint32_t spec[] = {128, 4, 0};
    EXPECT_EQ(tile.resolveLocalSize(spec), (std::array<uint32_t, 3>{128, 1, 1}));
    EXPECT_EQ(tile.pushConstantBytes, sizeof(sieve::gpu::ScanTilePush));
}

TEST(SpirvReflect, PushBlocksMatchTheirSharedStructs) {
    struct Case {
        const char* shader;
        size_t bytes;
    };
    const Case cases[] = {
        {"prim/clear.comp", sizeof(sieve::gpu::ClearPush)},
        {"prim/copy.comp", sizeof(sieve::gpu::CopyPush)},
        {"prim/scan_single.comp", sizeof(sieve::gpu::ScanSinglePush)},
        {"prim/scan_single_packed.comp", sizeof(sieve::gpu::ScanSinglePush)},
        {"prim/compact_scatter.comp", sizeof(sieve::gpu::CompactScatterPush)},
        {"prim/compact_gather.comp", sizeof(sieve::gpu::CompactGatherPush)},
        {"prim/compact_append.comp", sizeof(sieve::gpu::CompactAppendPush)},
        {"prim/compact_finish.comp", sizeof(sieve::gpu::CompactFinishPush)},
        {"draw/expand.comp", sizeof(sieve::gpu::DrawExpandPush)},
        {"draw/finish_atomic.comp", sizeof(sieve::gpu::DrawFinishPush)},
        {"cull/check.comp", sizeof(sieve::gpu::CullCheckPush)},
        {"test/fill.comp", sizeof(sieve::gpu::FillPush)},
        {"test/add.comp", sizeof(sieve::gpu::AddPush)},
        {"ui/imgui.vert", sizeof(sieve::gpu::ImGuiPush)},
        {"geometry/mesh.vert", sizeof(sieve::gpu::GeometryPush)},  // mat4 (MatrixStride) + 4 x vec4
        {"geometry/mesh.frag", sizeof(sieve::gpu::GeometryPush)},
        {"geometry/material.vert", sizeof(sieve::gpu::MaterialPush)},
        {"geometry/material.frag", sizeof(sieve::gpu::MaterialPush)},
    };
    for (const Case& c : cases) EXPECT_EQ(reflectEmbedded(c.shader).pushConstantBytes, c.bytes) << c.shader;
    EXPECT_EQ(reflectEmbedded("ui/imgui.frag").pushConstantBytes, 0u);
}

TEST(SpirvReflect, GraphicsStagesAndMergedBindings) {
    const ShaderInfo vs = reflectEmbedded("geometry/mesh.vert");
    const ShaderInfo fs = reflectEmbedded("geometry/mesh.frag");
    EXPECT_EQ(vs.stage, VK_SHADER_STAGE_VERTEX_BIT);
    EXPECT_EQ(fs.stage, VK_SHADER_STAGE_FRAGMENT_BIT);
    EXPECT_EQ(types(vs), (std::vector{kS, kS}));
    // Binding 2: the shadow cascades (geometry/shadow.glsl).
    ASSERT_EQ(fs.bindings.size(), 1u);
    EXPECT_EQ(fs.bindings[0].binding, 2u);
    EXPECT_EQ(fs.bindings[0].type, kS);
    const ShaderInfo* both[] = {&vs, &fs};
    auto merged = sieve::spirv::mergeBindings(both);
    ASSERT_TRUE(merged) << merged.error().message;
    ASSERT_EQ(merged->size(), 3u);
    EXPECT_EQ((*merged)[1].stages, VkShaderStageFlags(VK_SHADER_STAGE_VERTEX_BIT));
    EXPECT_EQ((*merged)[2].stages, VkShaderStageFlags(VK_SHADER_STAGE_FRAGMENT_BIT));

    // The same binding with two types in two stages is refused.
    ShaderInfo a = vs, b = fs;
    b.bindings = {{0, 0, kU, 1, VK_SHADER_STAGE_FRAGMENT_BIT}};
    const ShaderInfo* clash[] = {&a, &b};
    auto bad = sieve::spirv::mergeBindings(clash);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("binding 0"), std::string::npos) << bad.error().message;
}

TEST(SpirvReflect, PushSizeCheckNamesBothSizes) {
    EXPECT_TRUE(sieve::spirv::checkPushSize(8, 8, "x"));
    auto r = sieve::spirv::checkPushSize(8, 12, "test/fill.comp");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("test/fill.comp"), std::string::npos);
    EXPECT_NE(r.error().message.find("8 bytes"), std::string::npos);
    EXPECT_NE(r.error().message.find("12"), std::string::npos);
    const DescriptorBinding otherSet[] = {{1, 0, kS, 1, VK_SHADER_STAGE_COMPUTE_BIT}};
    EXPECT_FALSE(sieve::spirv::setLayoutBindings(otherSet, "x"));
}

// --- malformed input ---------------------------------------------------------------------------------

std::vector<uint32_t> fillWords() {
    auto w = sieve::embeddedSpirv("test/fill.comp");
    return {w.begin(), w.end()};
}

void expectError(std::span<const uint32_t> words, const char* contains) {
    auto r = sieve::spirv::reflect(words);
    ASSERT_FALSE(r) << "accepted a malformed module";
    EXPECT_NE(r.error().message.find(contains), std::string::npos) << r.error().message;
}

TEST(SpirvReflect, RejectsBadHeaders) {
    expectError({}, "header");
    const uint32_t shortHeader[] = {0x07230203u, 0x00010500u, 0};
    expectError(shortHeader, "header");
    std::vector<uint32_t> w = fillWords();
    w[0] = 0x03022307u;  // byte-swapped magic
    expectError(w, "magic");
    w = fillWords();
    w[3] = 0;
    expectError(w, "bound");
    w[3] = 0xffffffffu;
    expectError(w, "bound");
}

TEST(SpirvReflect, RejectsTruncatedAndOverlongInstructions) {
    const std::vector<uint32_t> full = fillWords();
    // Every truncation either ends on an instruction boundary (then the module misses declarations:
    // an error, or fewer facts) or cuts one (an error). None may read past the span: the span is a
    // fresh copy of exactly that length, so ASan or a bounds-checked build would catch a stray read.
    for (size_t n = 0; n < full.size(); ++n) {
        std::vector<uint32_t> cut(full.begin(), full.begin() + n);
        auto r = sieve::spirv::reflect(cut);
        if (r) {
            EXPECT_LE(r->bindings.size(), 1u);
        }
    }
    // An instruction whose word count runs past the end of the module.
    std::vector<uint32_t> w = full;
    w[5] = (0xffffu << 16) | (w[5] & 0xffffu);
    expectError(w, "past the end");
    // A zero word count would loop forever if not caught.
    w = full;
    w[5] = w[5] & 0xffffu;
    expectError(w, "zero-length");
}

TEST(SpirvReflect, RejectsIdsOutOfBoundAndShortOperands) {
    // Minimal module: header, OpDecorate %big Binding 0 with %big >= bound.
    const uint32_t bigId[] = {0x07230203u, 0x00010500u, 0, 4, 0, (4u << 16) | 71u, 100, 33, 0};
    expectError(bigId, "bound");
    // OpDecorate %1 Binding, its literal missing.
    const uint32_t shortDecorate[] = {0x07230203u, 0x00010500u, 0, 4, 0, (3u << 16) | 71u, 1, 33};
    expectError(shortDecorate, "missing operands");
    // A valid header and no entry point.
    const uint32_t noEntry[] = {0x07230203u, 0x00010500u, 0, 4, 0};
    expectError(noEntry, "entry point");
}

TEST(SpirvReflect, RejectsCyclicTypes) {
    // OpTypeArray %1 of element %1 (itself), behind a storage-buffer variable: a cycle bad input can
    // build; the depth limit ends it.
    const uint32_t words[] = {
        0x07230203u,      0x00010500u, 0,  8,  0,
        (3u << 16) | 15u, 5,           7,       // OpEntryPoint GLCompute %7 (name omitted: not read)
        (4u << 16) | 43u, 2,           3,  1,   // %3 = OpConstant %2 1
        (4u << 16) | 28u, 1,           1,  3,   // %1 = OpTypeArray %1 %3
        (4u << 16) | 32u, 4,           12, 1,   // %4 = OpTypePointer StorageBuffer %1
        (4u << 16) | 59u, 4,           5,  12,  // %5 = OpVariable %4 StorageBuffer
        (4u << 16) | 71u, 5,           34, 0,   // OpDecorate %5 DescriptorSet 0
        (4u << 16) | 71u, 5,           33, 0,   // OpDecorate %5 Binding 0
    };
    expectError(words, "too deeply");
}

}  // namespace

// The material pass's texture array (set 1, created by hand in passes/src/geometry/texture_set.cpp) is
// what geometry/texture_array.h declares: one sampler, SIEVE_MAX_TEXTURES sampled images, fragment only.
TEST(SpirvReflect, MaterialShadersTextureSetMatchesTheHandMadeLayout) {
    const ShaderInfo vs = reflectEmbedded("geometry/material.vert");
    const ShaderInfo fs = reflectEmbedded("geometry/material.frag");
    EXPECT_EQ(types(vs), (std::vector{kS, kS, kS, kS}));
    // Set 0: the cascaded shadows (geometry/shadow.glsl at binding 4, after the vertex stage's four).
    std::vector<sieve::spirv::DescriptorBinding> set1;
    for (const auto& b : fs.bindings) {
        if (b.set == 1)
            set1.push_back(b);
        else
            EXPECT_TRUE(b.set == 0 && b.binding == 4 && b.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    }
    ASSERT_EQ(fs.bindings.size(), 3u);
    ASSERT_EQ(set1.size(), 2u);
    std::sort(set1.begin(), set1.end(), [](const auto& a, const auto& b) { return a.binding < b.binding; });
    EXPECT_EQ(set1[0].type, VK_DESCRIPTOR_TYPE_SAMPLER);
    EXPECT_EQ(set1[1].binding, 1u);
    EXPECT_EQ(set1[1].type, kSampled);
    EXPECT_EQ(set1[1].count, sieve::gpu::SIEVE_MAX_TEXTURES);
    // Set 1 is not pushed: setLayoutBindings refuses it, so pipelines must give its layout.
    EXPECT_FALSE(sieve::spirv::setLayoutBindings(fs.bindings, "geometry/material.frag"));
}
