#include "sieve/spirv.h"

#include <cstddef>

namespace sieve::detail {
struct EmbeddedShader {
    const char* name;
    const uint32_t* words;
    size_t count;
};
const EmbeddedShader* embeddedShaderTable();
}  // namespace sieve::detail

namespace sieve {
std::span<const uint32_t> embeddedSpirv(std::string_view name) {
    for (const detail::EmbeddedShader* s = detail::embeddedShaderTable(); s->name; ++s)
        if (name == s->name) return {s->words, s->count};
    return {};
}
}  // namespace sieve
