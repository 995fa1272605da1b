#pragma once
// SPIR-V compiled by glslc at build time and embedded in the library, looked up by the shader's path
// below shaders/ (for example "prim/scan_block.comp").
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace sieve {
// The override of `name` if one is set, else the embedded words; empty when unknown.
std::span<const uint32_t> embeddedSpirv(std::string_view name);

// Shader hot reload: pipelines created after this call use `words` for `name` instead of the embedded
// SPIR-V (pipelines that exist keep theirs; the host recreates them). A span embeddedSpirv returned for
// `name` earlier is invalid after the override of `name` changes or is cleared.
void setSpirvOverride(std::string_view name, std::vector<uint32_t> words);
void clearSpirvOverrides();
}  // namespace sieve
