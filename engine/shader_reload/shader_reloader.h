#pragma once
// Shader hot reload, step two: compiles every shader of the source tree, installs the SPIR-V as overrides
// of the embedded code (sieve::setSpirvOverride) and asks the host to rebuild its pipelines. All or
// nothing: on a compile error nothing changes; when the rebuild fails the previous overrides come back
// (the rebuild itself must leave the host's pipelines as they were). Either way the host keeps running.
// Shaders whose sources (the file and every include) are unchanged since their last compile are not
// compiled again; the others compile on several threads. Before its first compile, an embedded shader
// counts as unchanged when every source it includes reads as it did when the reloader was made and none
// was written after the running program was built: its embedded SPIR-V stays (no override).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "engine/shader_reload/shader_compiler.h"

namespace engine {

struct ReloadReport {
    size_t total = 0;     // shaders below the root
    size_t shaders = 0;   // installed as overrides (the others' embedded SPIR-V is as built)
    size_t compiled = 0;  // of those, compiled this time (the others' sources had not changed)
    double compileMs = 0;
    double rebuildMs = 0;
};

class ShaderReloader {
public:
    // Reads every file below root (the baseline of "unchanged").
    explicit ShaderReloader(std::filesystem::path root);
    ~ShaderReloader();  // removes the overrides it installed
    ShaderReloader(const ShaderReloader&) = delete;
    ShaderReloader& operator=(const ShaderReloader&) = delete;

    // `rebuild` recreates the host's pipelines (they read sieve::embeddedSpirv). `substitutes` maps shader
    // names to source text used instead of their files this time (tests). The error lists the first
    // failing shaders' compiler messages.
    sieve::Result<ReloadReport> reload(const std::function<sieve::Result<void>()>& rebuild,
                                       const std::map<std::string, std::string>& substitutes = {});
    const ShaderCompiler& compiler() const { return compiler_; }

private:
    void install(const std::map<std::string, std::vector<uint32_t>>& overrides) const;
    // True when every source `cached` was compiled from reads the same now (`substitute`: the text that
    // stands for the shader `name` itself).
    bool upToDate(const std::string& name, const ShaderBinary& cached, const std::string* substitute) const;

    // True when `name` is embedded and it and its includes (found by scanning #include lines) are as
    // in the baseline and not newer than the program.
    bool asBuilt(const std::string& name) const;

    ShaderCompiler compiler_;
    std::map<std::string, std::string> baseline_;          // path below the root -> text when constructed
    std::filesystem::file_time_type builtAt_{};            // the running program's modification time
    std::map<std::string, ShaderBinary> cache_;            // last successful compile of each shader
    std::map<std::string, std::vector<uint32_t>> active_;  // the overrides in effect
};

}  // namespace engine
