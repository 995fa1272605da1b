#include "sieve/spirv.h"

#include <cstddef>
#include <map>
#include <mutex>
#include <string>

namespace sieve::detail {
struct EmbeddedShader {
    const char* name;
    const uint32_t* words;
    size_t count;
};
const EmbeddedShader* embeddedShaderTable();
}  // namespace sieve::detail

namespace sieve {

namespace {
// Overrides from shader hot reload; a host sets them between frames, pipelines read them while created.
struct Overrides {
    std::mutex mutex;
    std::map<std::string, std::vector<uint32_t>, std::less<>> words;
};
Overrides& overrides() {
    static Overrides o;
    return o;
}
}  // namespace

std::span<const uint32_t> embeddedSpirv(std::string_view name) {
    {
        Overrides& o = overrides();
        std::lock_guard lock(o.mutex);
        if (auto it = o.words.find(name); it != o.words.end()) return it->second;
    }
    for (const detail::EmbeddedShader* s = detail::embeddedShaderTable(); s->name; ++s)
        if (name == s->name) return {s->words, s->count};
    return {};
}

void setSpirvOverride(std::string_view name, std::vector<uint32_t> words) {
    Overrides& o = overrides();
    std::lock_guard lock(o.mutex);
    o.words.insert_or_assign(std::string(name), std::move(words));
}

void clearSpirvOverrides() {
    Overrides& o = overrides();
    std::lock_guard lock(o.mutex);
    o.words.clear();
}

}  // namespace sieve
