// libFuzzer target for the glTF loader (JSON glTF and GLB from memory). Besides "no crash, no sanitizer
// report", it checks the loader's contract: a scene it returns passes SceneData::validate, and an error
// message starts with the input's name. Built by scripts/ci_sanitizers.sh, not by the CMake build.
// External buffer URIs resolve against the working directory: run it in an empty one.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "assets/gltf_loader.h"

namespace {
[[noreturn]] void contractBroken(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_gltf: %s: %s\n", what, detail.c_str());
    std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string name = "fuzz-input";
    auto scene = sieve::assets::loadGltfFromMemory(std::span<const uint8_t>(data, size), name, ".");
    if (scene) {
        if (std::string problem = scene->validate(); !problem.empty())
            contractBroken("loaded scene fails validate()", problem);
        if (scene->instances.empty()) contractBroken("loaded scene has no instances", "");
    } else if (scene.error().rfind(name + ": ", 0) != 0) {
        contractBroken("error does not name the input", scene.error());
    }
    return 0;
}
