#pragma once
// Shader hot reload, step one: GLSL from the shader source tree to SPIR-V at run time with libshaderc,
// with the build's options (glslc --target-env=vulkan1.3 -O -g -I <root>), so that a reloaded shader
// behaves like the embedded one. Includes resolve as glslc resolves them: #include "x" against the
// including file's folder first, then the root; #include <x> against the root.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sieve/result.h"

namespace engine {

struct ShaderBinary {
    std::vector<uint32_t> words;
    // Every file the compile read (the shader and its includes): path below the root -> its text then.
    std::map<std::string, std::string> sources;
};

class ShaderCompiler {
public:
    // root: the folder the embedded shaders were compiled from (names are paths below it).
    explicit ShaderCompiler(std::filesystem::path root) : root_(std::move(root)) {}

    const std::filesystem::path& root() const { return root_; }
    // Names of the shaders below the root ("geometry/mesh.frag"; .comp, .vert, .frag, .mesh), sorted.
    sieve::Result<std::vector<std::string>> list() const;
    // Compiles the shader `name` from its file, or from `source` when given (includes still resolve
    // below the root). The error message is the compiler's ("geometry/mesh.frag:12: error: ...").
    // Safe to call from several threads at once.
    sieve::Result<ShaderBinary> compile(std::string_view name, const std::string* source = nullptr) const;

private:
    std::filesystem::path root_;
};

// Reads a whole text file; the error names the path.
sieve::Result<std::string> readTextFile(const std::filesystem::path& path);

}  // namespace engine
