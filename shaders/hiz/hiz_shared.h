#ifndef SIEVE_HIZ_SHARED_H
#define SIEVE_HIZ_SHARED_H
// Hi-Z pyramid layout, shared by the GLSL builders and the C++ builder/reference so both use the same
// integer arithmetic. See passes/include/sieve/hiz.h for the full semantics.
//
// Depth convention: reverse-Z with an infinite far plane (near plane = 1.0, infinity = 0.0).
// Pyramid: RG32F, r = min (the farthest depth: what occlusion compares against), g = max (the nearest).
// Mip 0 of the pyramid is W0 x H0 = the previous power of two of the depth extent in each dimension;
// mip m is max(1, W0 >> m) x max(1, H0 >> m); mip count = floor(log2(max(W0, H0))) + 1.
// Mip-0 texel x covers the source pixels [floor(x*W/W0), ceil((x+1)*W/W0)) (1 to 3 of them, because
// W/W0 is in [1, 2)), the same in y; a texel of mip m covers its 2x2 (or 2x1 / 1x2 where a dimension is
// already 1) children of mip m-1. Every texel therefore covers every source pixel whose area overlaps
// the texel's area in normalized [0,1]^2 screen coordinates: min/max over it is conservative.
#include "shared/common.h"

SIEVE_NS_BEGIN

SIEVE_CONST(uint, SIEVE_HIZ_TILE, 64u)      // single-pass builder: mip-0 texels per tile side
SIEVE_CONST(uint, SIEVE_HIZ_TILE_MIPS, 7u)  // mips a tile reduces on its own (64 -> 1: mips 0..6)
SIEVE_CONST(uint, SIEVE_HIZ_MAX_MIPS, 16u)  // single-pass builder bindings (pyramid up to 32768)
// Shared memory of hiz/single_pass.comp (its sMip1, sTile and sBand arrays of vec2, and a flag) and its
// workgroup size: the builder is created only where the device's limits hold both.
SIEVE_CONST(uint, SIEVE_HIZ_SINGLE_SHARED_BYTES, (32u * 32u + 256u + 64u * 16u) * 8u + 4u)
SIEVE_CONST(uint, SIEVE_HIZ_SINGLE_THREADS, 256u)

// Push constants of hiz/depth_to_mip0.comp and hiz/reduce_mip.comp: source and destination extents.
struct HiZReducePush {
    uint srcWidth;
    uint srcHeight;
    uint dstWidth;
    uint dstHeight;
};

// Push constants of hiz/single_pass.comp.
struct HiZSinglePush {
    uint depthWidth;
    uint depthHeight;
    uint width;  // pyramid mip 0
    uint height;
    uint mipCount;
    uint tileCount;  // workgroups in the dispatch
    uint pad0;
    uint pad1;
};

SIEVE_NS_END

#ifdef __cplusplus
namespace sieve::gpu {
// First source index and one past the last one covered by mip-0 texel x, for a source of `src` texels
// and a mip 0 of `dst` texels (dst = previous power of two of src).
inline uvec2 hizSpan(uint x, uint src, uint dst) {
    return uvec2(uint(uint64_t(x) * src / dst), uint((uint64_t(x + 1) * src + dst - 1) / dst));
}
}  // namespace sieve::gpu
#else
uvec2 hizSpan(uint x, uint src, uint dst) {
    // x*src < 2^32 for sources up to 65535: the extents Vulkan allows fit.
    return uvec2((x * src) / dst, ((x + 1u) * src + dst - 1u) / dst);
}
#endif

#endif
