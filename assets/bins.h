#pragma once
// The bins of the sample hosts (MeshPrimitive::bin): one pipeline class each in the default geometry
// pass. The plugin knows only their number (CullingConfig::binCount); what a bin means is the host's.
#include <cstdint>

namespace sieve::assets {

enum Bin : uint32_t {
    kBinOpaque,             // glTF alphaMode OPAQUE, back faces culled
    kBinOpaqueDoubleSided,  // OPAQUE, doubleSided: no face culling, back faces lit with the flipped normal
    kBinMasked,             // alphaMode MASK: fragments under the cutoff are discarded (and write no depth)
    kBinMaskedDoubleSided,
    kBinBlend,              // alphaMode BLEND: drawn after every opaque draw, no depth writes
    kBinBlendDoubleSided,
    kBinCount
};

enum class AlphaMode : uint32_t { Opaque, Mask, Blend };

inline constexpr uint32_t binOf(AlphaMode mode, bool doubleSided) {
    return uint32_t(mode) * 2u + (doubleSided ? 1u : 0u);
}

inline constexpr const char* binName(uint32_t bin) {
    constexpr const char* names[kBinCount] = {"opaque", "opaque-2s", "masked", "masked-2s", "blend", "blend-2s"};
    return bin < kBinCount ? names[bin] : "?";
}

}  // namespace sieve::assets
