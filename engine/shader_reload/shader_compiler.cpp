#include "engine/shader_reload/shader_compiler.h"

#include <algorithm>
#include <fstream>
#include <memory>
#include <shaderc/shaderc.hpp>
#include <sstream>
#include <system_error>

namespace engine {

namespace fs = std::filesystem;

namespace {

bool shaderKind(const fs::path& path, shaderc_shader_kind& kind) {
    const std::string ext = path.extension().string();
    if (ext == ".comp") return kind = shaderc_glsl_compute_shader, true;
    if (ext == ".vert") return kind = shaderc_glsl_vertex_shader, true;
    if (ext == ".frag") return kind = shaderc_glsl_fragment_shader, true;
    if (ext == ".mesh") return kind = shaderc_glsl_mesh_shader, true;
    return false;
}

// Resolves includes below the shader root. Names handed back to shaderc are paths relative to the root,
// so that error messages read like the build's and relative includes of an include resolve again.
class Includer final : public shaderc::CompileOptions::IncluderInterface {
public:
    Includer(fs::path root, std::map<std::string, std::string>& sources) : root_(std::move(root)), sources_(sources) {}

    shaderc_include_result* GetInclude(const char* requested, shaderc_include_type type, const char* requesting,
                                       size_t) override {
        auto result = std::make_unique<Result>();
        std::vector<fs::path> candidates;
        if (type == shaderc_include_type_relative) candidates.push_back(fs::path(requesting).parent_path() / requested);
        candidates.push_back(fs::path(requested));
        for (const fs::path& c : candidates) {
            const fs::path rel = c.lexically_normal();
            auto text = readTextFile(root_ / rel);
            if (!text) continue;
            result->name = rel.generic_string();
            result->content = std::move(text).value();
            sources_[result->name] = result->content;
            break;
        }
        if (result->name.empty())
            result->content = "cannot find \"" + std::string(requested) + "\" below " + root_.string();
        result->info = {result->name.c_str(), result->name.size(), result->content.c_str(), result->content.size(),
                        result.get()};
        return &result.release()->info;
    }

    void ReleaseInclude(shaderc_include_result* data) override { delete static_cast<Result*>(data->user_data); }

private:
    struct Result {
        shaderc_include_result info{};
        std::string name;
        std::string content;
    };
    fs::path root_;
    std::map<std::string, std::string>& sources_;
};

}  // namespace

sieve::Result<std::string> readTextFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "cannot read " + path.string());
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "error reading " + path.string());
    return text.str();
}

sieve::Result<std::vector<std::string>> ShaderCompiler::list() const {
    std::error_code ec;
    std::vector<std::string> names;
    shaderc_shader_kind kind;
    for (fs::recursive_directory_iterator it(root_, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec) && shaderKind(it->path(), kind))
            names.push_back(it->path().lexically_relative(root_).generic_string());
    if (ec)
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "cannot list " + root_.string() + ": " + ec.message());
    std::sort(names.begin(), names.end());
    return names;
}

sieve::Result<ShaderBinary> ShaderCompiler::compile(std::string_view name, const std::string* source) const {
    const std::string shaderName(name);
    shaderc_shader_kind kind;
    if (!shaderKind(fs::path(shaderName), kind))
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED,
                                shaderName + ": not a .comp, .vert, .frag or .mesh shader");
    std::string text;
    if (source) {
        text = *source;
    } else {
        auto file = readTextFile(root_ / shaderName);
        if (!file) return file.error();
        text = std::move(file).value();
    }
    shaderc::CompileOptions options;
    options.SetSourceLanguage(shaderc_source_language_glsl);
    options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_2);
    options.SetOptimizationLevel(shaderc_optimization_level_performance);
    options.SetGenerateDebugInfo();
    ShaderBinary binary;
    binary.sources[shaderName] = text;
    options.SetIncluder(std::make_unique<Includer>(root_, binary.sources));
    shaderc::Compiler compiler;
    if (!compiler.IsValid()) return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "libshaderc: no compiler");
    shaderc::SpvCompilationResult r = compiler.CompileGlslToSpv(text, kind, shaderName.c_str(), options);
    if (r.GetCompilationStatus() != shaderc_compilation_status_success) {
        std::string message = r.GetErrorMessage();
        while (!message.empty() && message.back() == '\n') message.pop_back();
        if (message.empty()) message = shaderName + ": compilation failed";
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, message);
    }
    binary.words.assign(r.cbegin(), r.cend());
    return binary;
}

}  // namespace engine
