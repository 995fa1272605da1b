#pragma once
// The bins of the sample hosts (MeshPrimitive::bin): one pipeline class each in the default geometry
// pass. The plugin knows only their number (CullingConfig::binCount); what a bin means is the host's.
#include <cstdint>

#include "shared/material.h"

namespace sieve::assets {

enum Bin : uint32_t {
    kBinOpaque,             // glTF alphaMode OPAQUE, back faces culled
    kBinOpaqueDoubleSided,  // OPAQUE, doubleSided: no face culling, back faces lit with the flipped normal
    kBinMasked,             // alphaMode MASK: fragments under the cutoff are discarded (and write no depth)
    kBinMaskedDoubleSided,
    kBinBlend,  // alphaMode BLEND: drawn after every opaque draw, no depth writes
    kBinBlendDoubleSided,
    kBinCount
};

enum class AlphaMode : uint32_t { Opaque, Mask, Blend };

inline constexpr uint32_t binOf(AlphaMode mode, bool doubleSided) {
    return uint32_t(mode) * 2u + (doubleSided ? 1u : 0u);
}

// The default geometry pass's pipelines use the same numbers (shared/material.h).
static_assert(binOf(AlphaMode::Blend, true) + 1 == gpu::SIEVE_MATERIAL_BIN_COUNT &&
              uint32_t(AlphaMode::Mask) == gpu::SIEVE_ALPHA_MASK &&
              uint32_t(AlphaMode::Blend) == gpu::SIEVE_ALPHA_BLEND);

inline constexpr const char* binName(uint32_t bin) {
    constexpr const char* names[kBinCount] = {"opaque", "opaque-2s", "masked", "masked-2s", "blend", "blend-2s"};
    return bin < kBinCount ? names[bin] : "?";
}

}  // namespace sieve::assets
