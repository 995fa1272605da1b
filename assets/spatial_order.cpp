#include "assets/spatial_order.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace sieve::assets {

namespace {

constexpr uint32_t kBits = 10;  // per axis
constexpr uint32_t kCells = 1u << kBits;

// The 10 low bits of x, two zero bits between each.
uint32_t spread(uint32_t x) {
    uint32_t r = 0;
    for (uint32_t b = 0; b < kBits; ++b) r |= ((x >> b) & 1u) << (3 * b);
    return r;
}

uint32_t cell(float v, float lo, float hi) {
    if (!(hi > lo)) return 0;
    const float t = (v - lo) / (hi - lo) * float(kCells);
    return uint32_t(std::clamp(t, 0.0f, float(kCells - 1)));
}

bool finiteCentre(const gpu::vec4& s) {
    return std::isfinite(s.x) && std::isfinite(s.y) && std::isfinite(s.z);
}

}  // namespace

uint32_t mortonCode(const gpu::vec4& c, const gpu::vec4& lo, const gpu::vec4& hi) {
    return spread(cell(c.x, lo.x, hi.x)) | spread(cell(c.y, lo.y, hi.y)) << 1 | spread(cell(c.z, lo.z, hi.z)) << 2;
}

bool sortInstancesSpatially(std::span<gpu::Instance> instances, std::span<gpu::InstanceBounds> bounds) {
    if (bounds.size() != instances.size()) return false;
    constexpr float inf = std::numeric_limits<float>::infinity();
    gpu::vec4 lo{inf, inf, inf, 0.0f}, hi{-inf, -inf, -inf, 0.0f};
    for (const gpu::InstanceBounds& b : bounds) {
        const gpu::vec4& c = b.sphere;
        if (!finiteCentre(c)) continue;
        lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z), 0.0f};
        hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z), 0.0f};
    }
    // (key, index) pairs: one code computation per instance, then a stable order of the table.
    std::vector<std::pair<uint64_t, uint32_t>> keys(instances.size());
    for (size_t i = 0; i < instances.size(); ++i) {
        const gpu::vec4& s = bounds[i].sphere;
        const uint64_t code = finiteCentre(s) ? mortonCode(s, lo, hi) : uint64_t(1) << 32;
        keys[i] = {code, uint32_t(i)};
    }
    std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<gpu::Instance> sorted;
    std::vector<gpu::InstanceBounds> sortedBounds;
    sorted.reserve(instances.size());
    sortedBounds.reserve(instances.size());
    for (const auto& k : keys) {
        sorted.push_back(instances[k.second]);
        sortedBounds.push_back(bounds[k.second]);
    }
    std::copy(sorted.begin(), sorted.end(), instances.begin());
    std::copy(sortedBounds.begin(), sortedBounds.end(), bounds.begin());
    return true;
}

}  // namespace sieve::assets
