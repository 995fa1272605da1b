#ifndef SIEVE_SHARED_LOD_COLOURS_H
#define SIEVE_SHARED_LOD_COLOURS_H
// The LOD debug view's colours (geometry/material.frag, geometry/mesh.frag, the viewer's legend): one per
// level, LOD 0 green, then yellow, orange, red, purple, blue, cyan; the last, white, for every level
// from SIEVE_LOD_COLOUR_COUNT - 1 on. Linear RGB.
#include "shared/common.h"

SIEVE_NS_BEGIN

SIEVE_CONST(uint, SIEVE_LOD_COLOUR_COUNT, 8u)

#define SIEVE_LOD_COLOUR_LIST                                                                       \
    vec3(0.20, 0.75, 0.25), vec3(0.95, 0.85, 0.20), vec3(0.95, 0.50, 0.15), vec3(0.90, 0.20, 0.20), \
        vec3(0.75, 0.25, 0.80), vec3(0.30, 0.40, 0.95), vec3(0.25, 0.80, 0.85), vec3(0.95, 0.95, 0.95)

#ifdef __cplusplus
inline constexpr vec3 kLodColours[SIEVE_LOD_COLOUR_COUNT] = {SIEVE_LOD_COLOUR_LIST};
#else
const vec3 kSieveLodColours[SIEVE_LOD_COLOUR_COUNT] = vec3[SIEVE_LOD_COLOUR_COUNT](SIEVE_LOD_COLOUR_LIST);
vec3 sieveLodColour(uint lod) {
    return kSieveLodColours[min(lod, SIEVE_LOD_COLOUR_COUNT - 1u)];
}
#endif

SIEVE_NS_END

#endif
