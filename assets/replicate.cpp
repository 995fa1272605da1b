#include "assets/replicate.h"

#include <charconv>
#include <cmath>
#include <new>

namespace sieve::assets {

Expected<SceneData> replicateGrid(const SceneData& scene, uint32_t a, uint32_t b, float spacing) {
    if (a == 0 || b == 0) return Unexpected{"replicateGrid: grid factors must be at least 1"};
    if (scene.instances.empty()) return Unexpected{"replicateGrid: the scene has no instances"};
    uint64_t copies = uint64_t(a) * b, n = scene.instances.size();
    if (n > 0xffffffffull / copies)
        return Unexpected{"replicateGrid: " + std::to_string(n) + " x " + std::to_string(copies) +
                          " instances exceed 2^32 - 1"};
    if (!(spacing > 0.0f) || !std::isfinite(spacing)) {
        glm::vec3 extent = scene.boundsMax - scene.boundsMin;
        spacing = extent.x >= 0.0f ? std::max(extent.x, extent.z) * 1.1f : 1.0f;
        if (!(spacing > 0.0f)) spacing = 1.0f;
    }
    try {
        SceneData out;
        out.vertices = scene.vertices;
        out.indices = scene.indices;
        out.primitives = scene.primitives;
        out.meshes = scene.meshes;
        out.uvs = scene.uvs;
        out.materials = scene.materials;
        out.textures = scene.textures;
        out.meshNames = scene.meshNames;
        out.warnings = scene.warnings;
        out.instances.reserve(n * copies);
        out.bounds.reserve(n * copies);
        for (uint32_t j = 0; j < b; ++j)
            for (uint32_t i = 0; i < a; ++i) {
                glm::vec3 offset((float(i) - float(a - 1) * 0.5f) * spacing, 0.0f,
                                 (float(j) - float(b - 1) * 0.5f) * spacing);
                for (size_t k = 0; k < scene.instances.size(); ++k) {
                    PlacedInstance p{scene.instances[k], scene.bounds[k]};
                    p.instance.rows[0].w += offset.x;
                    p.instance.rows[2].w += offset.z;
                    p.bounds.sphere.x += offset.x;
                    p.bounds.sphere.z += offset.z;
                    out.addInstance(p);
                }
            }
        out.updateBounds();
        return out;
    } catch (const std::bad_alloc&) {
        return Unexpected{"replicateGrid: out of memory"};
    }
}

std::optional<std::pair<uint32_t, uint32_t>> parseGridSpec(std::string_view text) {
    size_t x = text.find_first_of("xX");
    if (x == std::string_view::npos) return std::nullopt;
    auto number = [](std::string_view s) -> std::optional<uint32_t> {
        uint32_t v = 0;
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc() || end != s.data() + s.size() || s.empty() || v == 0) return std::nullopt;
        return v;
    };
    auto a = number(text.substr(0, x)), b = number(text.substr(x + 1));
    if (!a || !b) return std::nullopt;
    return std::make_pair(*a, *b);
}

}  // namespace sieve::assets
