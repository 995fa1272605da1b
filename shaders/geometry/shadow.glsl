// Cascaded shadow lookup of the default geometry pass (shared/shadow.h). cascades = 0: lit everywhere,
// and the buffer is not read (the pass then binds any buffer there).
#include "shared/shadow.h"

// The binding: 2 in the plain pass (after instances and draws), SIEVE_SHADOW_BINDING where the includer
// has more buffers before it (the material pass).
#ifndef SIEVE_SHADOW_BINDING
#define SIEVE_SHADOW_BINDING 2
#endif
layout(set = 0, binding = SIEVE_SHADOW_BINDING, std430) readonly buffer ShadowData {
    ShadowCascades shadowInfo;
    float shadowTexels[];
};

// 1 where the light reaches `world`, 0 where a caster nearer the light covers it.
float sieveShadow(vec3 world, uint cascades) {
    if (cascades == 0u) return 1.0;
    const float dist = dot(shadowInfo.cameraForward.xyz, world) + shadowInfo.cameraForward.w;
    uint k = 0u;
    while (k + 1u < cascades && dist > shadowInfo.splitFar[k]) ++k;
    if (dist > shadowInfo.splitFar[k]) return 1.0;  // beyond the last cascade
    const vec4 c = shadowInfo.lightViewProj[k] * vec4(world, 1.0);
    const vec2 uv = c.xy * 0.5 + 0.5;
    if (any(lessThan(uv, vec2(0.0))) || any(greaterThanEqual(uv, vec2(1.0)))) return 1.0;
    const uint size = shadowInfo.mapSize;
    const uvec2 t = min(uvec2(uv * float(size)), uvec2(size - 1u));
    const float nearest = shadowTexels[t.y * (size * cascades) + k * size + t.x];
    return c.z + shadowInfo.bias[k] >= nearest ? 1.0 : 0.0;
}
