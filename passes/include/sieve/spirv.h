#pragma once
// SPIR-V compiled by glslc at build time and embedded in the library, looked up by the shader's path
// below shaders/ (for example "prim/scan_block.comp").
#include <cstdint>
#include <span>
#include <string_view>

namespace sieve {
std::span<const uint32_t> embeddedSpirv(std::string_view name);  // empty when unknown
}
