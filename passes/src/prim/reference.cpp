#include "sieve/prim/reference.h"

#include <limits>

namespace sieve::prim::reference {

uint32_t sum(std::span<const uint32_t> values) {
    uint32_t s = 0;
    for (uint32_t v : values) s += v;
    return s;
}

float min(std::span<const float> values) {
    float m = std::numeric_limits<float>::infinity();
    for (float v : values) m = v < m ? v : m;
    return m;
}

float max(std::span<const float> values) {
    float m = -std::numeric_limits<float>::infinity();
    for (float v : values) m = v > m ? v : m;
    return m;
}

namespace {
// The seed's loop: offset[i] = running; running += term(values[i]); the total after the last.
std::vector<uint32_t> scanWithTotal(std::span<const uint32_t> values, auto&& term) {
    std::vector<uint32_t> out(values.size() + 1);
    uint32_t running = 0;
    for (size_t i = 0; i < values.size(); ++i) {
        out[i] = running;
        running += term(values[i]);
    }
    out[values.size()] = running;
    return out;
}
}  // namespace

std::vector<uint32_t> exclusiveScanWithTotal(std::span<const uint32_t> values) {
    return scanWithTotal(values, [](uint32_t v) { return v; });
}

std::vector<uint32_t> flagScanWithTotal(std::span<const uint32_t> flags) {
    return scanWithTotal(flags, [](uint32_t f) { return f != 0 ? 1u : 0u; });
}

namespace {
Compacted compactWords(std::span<const uint32_t> flags, uint32_t capacity, auto&& emit) {
    Compacted c;
    uint32_t kept = 0;
    for (size_t i = 0; i < flags.size(); ++i) {
        if (flags[i] == 0) continue;
        if (kept < capacity) emit(c.records, uint32_t(i));
        ++kept;
    }
    c.count = kept < capacity ? kept : capacity;
    c.overflow = kept - c.count;
    return c;
}
}  // namespace

Compacted compact(std::span<const uint32_t> flags, std::span<const uint32_t> payload, uint32_t capacity) {
    return compactWords(flags, capacity, [&](std::vector<uint32_t>& out, uint32_t i) {
        out.push_back(payload.empty() ? i : payload[i]);
    });
}

Compacted compactDraws(std::span<const uint32_t> flags, std::span<const uint32_t> templates, uint32_t capacity) {
    return compactWords(flags, capacity, [&](std::vector<uint32_t>& out, uint32_t i) {
        for (uint32_t w = 0; w < 4; ++w) out.push_back(templates[size_t(i) * 5 + w]);
        out.push_back(i);
    });
}

}  // namespace sieve::prim::reference
