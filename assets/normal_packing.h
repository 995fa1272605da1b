#pragma once
// Vertex normal packing for gpu::Vertex::normal: signed normalized 10-10-10-2, the bit layout of
// VK_FORMAT_A2B10G10R10_SNORM_PACK32, so the same word can be read as a vertex attribute or pulled
// from a storage buffer:
//   bits  0..9  : x, two's complement, value = round(clamp(x, -1, 1) * 511)
//   bits 10..19 : y, same encoding
//   bits 20..29 : z, same encoding
//   bits 30..31 : 0
// GLSL decode (vertex pulling):
//   ivec3 q = ivec3(uvec3(n) << uvec3(22, 12, 2)) >> 22;   // sign-extend each 10-bit field
//   vec3 normal = max(vec3(q) / 511.0, -1.0);             // then normalize() if needed
#include <cmath>
#include <cstdint>
#include <glm/glm.hpp>

namespace sieve::assets {

inline uint32_t packSnorm10(float v) {
    // NaN is mapped to 0 so that a bad normal can never set bits outside its field.
    float c = std::isnan(v) ? 0.0f : (v < -1.0f ? -1.0f : (v > 1.0f ? 1.0f : v));
    int32_t q = static_cast<int32_t>(std::lround(c * 511.0f));
    return static_cast<uint32_t>(q) & 0x3ffu;
}

inline float unpackSnorm10(uint32_t bits) {
    int32_t q = static_cast<int32_t>(bits << 22) >> 22;  // sign-extend the low 10 bits
    float v = static_cast<float>(q) / 511.0f;
    return v < -1.0f ? -1.0f : v;
}

// Packs a (unit) normal; the input is not renormalized, callers pass normalized vectors.
inline uint32_t packNormal(glm::vec3 n) {
    return packSnorm10(n.x) | (packSnorm10(n.y) << 10) | (packSnorm10(n.z) << 20);
}

inline glm::vec3 unpackNormal(uint32_t packed) {
    return {unpackSnorm10(packed), unpackSnorm10(packed >> 10), unpackSnorm10(packed >> 20)};
}

}  // namespace sieve::assets
