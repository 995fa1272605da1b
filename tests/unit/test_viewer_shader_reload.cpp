// Shader hot reload without a GPU: libshaderc compiles with includes resolved below the shader root, errors
// name the file and line, the reloader compiles only what changed, installs SPIR-V overrides that
// sieve::embeddedSpirv() returns, and puts the previous ones back when the host's rebuild fails.
#include <gtest/gtest.h>

#ifndef SIEVE_HAVE_SHADERC
TEST(ViewerShaderReload, NeedsShaderc) {
    GTEST_SKIP() << "built without libshaderc (samples off)";
}
#else

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/shader_reload/shader_compiler.h"
#include "engine/shader_reload/shader_reloader.h"
#include "sieve/spirv.h"

namespace {

namespace fs = std::filesystem;
constexpr uint32_t kSpirvMagic = 0x07230203u;

// A throw-away shader tree: a/main.comp includes "inc.glsl" (next to it) and "shared/value.h" (root).
class ViewerShaderTree : public ::testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() / ("sieve_shader_reload_" + std::to_string(::getpid()) + "_" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root_);
        write("shared/value.h", "const uint kValue = 7u;\n");
        write("a/inc.glsl", "#include \"shared/value.h\"\nuint twice(uint v) { return 2u * v; }\n");
        write("a/main.comp", mainSource(1));
        write("b/frag.frag", "#version 460\nlayout(location = 0) out vec4 c;\nvoid main() { c = vec4(1.0); }\n");
        write("b/notes.txt", "not a shader\n");
    }
    void TearDown() override { fs::remove_all(root_); }

    static std::string mainSource(int variant) {
        return "#version 460\n#extension GL_GOOGLE_include_directive : require\n#include \"inc.glsl\"\n"
               "layout(local_size_x = 1) in;\nlayout(set = 0, binding = 0) buffer B { uint v[]; } b;\n"
               "void main() { b.v[0] = twice(kValue) + " +
               std::to_string(variant) + "u; }\n";
    }
    void write(const std::string& rel, const std::string& text) {
        fs::create_directories((root_ / rel).parent_path());
        std::ofstream(root_ / rel, std::ios::binary) << text;
    }
    fs::path root_;
};

TEST(ViewerShaderReload, CompilesTheRealTreeWithIncludes) {
    engine::ShaderCompiler c(SIEVE_SHADER_SOURCE_DIR);
    auto names = c.list();
    ASSERT_TRUE(names) << names.error().message;
    ASSERT_FALSE(names->empty());
    auto r = c.compile("cull/flag_early.comp");
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_GT(r->words.size(), 5u);
    EXPECT_EQ(r->words[0], kSpirvMagic);
    EXPECT_GT(r->sources.size(), 1u);  // the shader and what it includes
}

TEST_F(ViewerShaderTree, ListsShadersOnly) {
    engine::ShaderCompiler c(root_);
    auto names = c.list();
    ASSERT_TRUE(names) << names.error().message;
    EXPECT_EQ(*names, (std::vector<std::string>{"a/main.comp", "b/frag.frag"}));
}

TEST_F(ViewerShaderTree, ResolvesRelativeThenRootIncludes) {
    engine::ShaderCompiler c(root_);
    auto r = c.compile("a/main.comp");
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->words.at(0), kSpirvMagic);
    std::vector<std::string> files;
    for (const auto& [path, text] : r->sources) files.push_back(path);
    EXPECT_EQ(files, (std::vector<std::string>{"a/inc.glsl", "a/main.comp", "shared/value.h"}));
}

TEST_F(ViewerShaderTree, ErrorsNameFileAndLine) {
    engine::ShaderCompiler c(root_);
    const std::string broken = "#version 460\nlayout(local_size_x = 1) in;\nvoid main() { nope(); }\n";
    auto r = c.compile("a/main.comp", &broken);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("a/main.comp:3: error"), std::string::npos) << r.error().message;

    write("a/main.comp",
          "#version 460\n#extension GL_GOOGLE_include_directive : require\n"
          "#include \"missing.glsl\"\nlayout(local_size_x = 1) in;\nvoid main() {}\n");
    auto m = c.compile("a/main.comp");
    ASSERT_FALSE(m);
    EXPECT_NE(m.error().message.find("missing.glsl"), std::string::npos) << m.error().message;

    EXPECT_FALSE(c.compile("b/notes.txt"));
    EXPECT_FALSE(c.compile("a/none.comp"));
}

TEST_F(ViewerShaderTree, ReloadsWhatChangedAndRollsBack) {
    engine::ShaderReloader reloader(root_);
    int rebuilds = 0;
    std::vector<uint32_t> seen;
    auto rebuild = [&]() -> sieve::Result<void> {
        ++rebuilds;
        auto words = sieve::embeddedSpirv("a/main.comp");
        seen.assign(words.begin(), words.end());
        return {};
    };
    auto first = reloader.reload(rebuild);
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_EQ(first->shaders, 2u);
    EXPECT_EQ(first->compiled, 2u);
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen[0], kSpirvMagic);
    const std::vector<uint32_t> v1 = seen;

    auto again = reloader.reload(rebuild);  // nothing changed: nothing compiled, same words
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(again->compiled, 0u);
    EXPECT_EQ(seen, v1);

    write("shared/value.h", "const uint kValue = 9u;\n");  // an include two levels down changed
    auto changed = reloader.reload(rebuild);
    ASSERT_TRUE(changed) << changed.error().message;
    EXPECT_EQ(changed->compiled, 1u);
    EXPECT_NE(seen, v1);
    const std::vector<uint32_t> v2 = seen;

    // A compile error: no rebuild, the overrides stay.
    write("a/inc.glsl", "uint twice(uint v) { return 2u * v }\n");
    const int before = rebuilds;
    auto bad = reloader.reload(rebuild);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("a/inc.glsl:"), std::string::npos) << bad.error().message;
    EXPECT_EQ(rebuilds, before);
    auto now = sieve::embeddedSpirv("a/main.comp");
    EXPECT_EQ(std::vector<uint32_t>(now.begin(), now.end()), v2);

    // The host's rebuild fails: the previous overrides come back.
    write("a/inc.glsl", "#include \"shared/value.h\"\nuint twice(uint v) { return 3u * v; }\n");
    auto refused = reloader.reload([&]() -> sieve::Result<void> {
        auto words = sieve::embeddedSpirv("a/main.comp");
        EXPECT_NE(std::vector<uint32_t>(words.begin(), words.end()), v2);  // it saw the new code
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "pipeline refused");
    });
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().message, "pipeline refused");
    now = sieve::embeddedSpirv("a/main.comp");
    EXPECT_EQ(std::vector<uint32_t>(now.begin(), now.end()), v2);

    // A substituted source is used instead of the file, and unknown names are refused.
    auto sub = reloader.reload(rebuild, {{"a/main.comp", mainSource(5)}});
    ASSERT_TRUE(sub) << sub.error().message;
    EXPECT_NE(seen, v2);
    EXPECT_FALSE(reloader.reload(rebuild, {{"a/nothing.comp", mainSource(5)}}));
}

TEST_F(ViewerShaderTree, OverridesGoWithTheReloader) {
    {
        engine::ShaderReloader reloader(root_);
        ASSERT_TRUE(reloader.reload([] { return sieve::Result<void>(); }));
        EXPECT_FALSE(sieve::embeddedSpirv("b/frag.frag").empty());
    }
    EXPECT_TRUE(sieve::embeddedSpirv("b/frag.frag").empty());
}

}  // namespace

#endif
