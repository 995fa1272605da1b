#version 460
// Default geometry pass, material mode: base colour factor x base colour texture (sRGB, sampled through
// the pass's one sampler), alpha MASK (discard under the cutoff: such fragments write no depth, which keeps
// the Hi-Z conservative) and BLEND (alpha out; the pipeline blends), double-sided back faces lit with the
// flipped normal, an optional tangent-space normal map, Lambert lighting as the plain pass plus the emissive
// factor times the emissive texture (sRGB, the base colour's UVs).
#extension GL_GOOGLE_include_directive : require
#include "shared/lod_colours.h"
#include "shared/material.h"
#include "geometry/texture_array.h"

layout(location = 0) in vec3 inNormal;
layout(location = 1) in vec2 inUv;
layout(location = 2) flat in vec4 inBaseColor;
layout(location = 3) flat in uvec4 inParams;
layout(location = 4) flat in vec4 inEmissive;  // factor, emissive texture index (bits)
layout(location = 5) in vec3 inWorld;
layout(location = 6) flat in vec2 inNormalMap;
layout(location = 7) flat in uint inKey;
layout(push_constant) uniform Push { MaterialPush pc; };
layout(constant_id = 1) const uint kBin = 0u;  // SIEVE_MATERIAL_SPEC_BIN: bin = alpha mode * 2 + double-sided
const uint kAlphaMode = kBin / 2u;
layout(location = 0) out vec4 outColor;
#define SIEVE_SHADOW_BINDING 4  // after instances, draws, materials, primitives
#include "geometry/shadow.glsl"
#include "geometry/debug_colour.glsl"


// Tangent-space normal map without a tangent stream, as the Khronos glTF sample viewer does: the tangent is
// dP/du from the screen-space derivatives of the world position and the UVs (independent of the screen's
// orientation), the bitangent cross(n, t) (the map's +Y is up in the image, against glTF's v), all three
// negated on back faces. `n` is the interpolated normal, not flipped. The map's index is the same for the
// whole draw, so the branch around this is uniform.
vec3 perturbNormal(vec3 n, uint map, float scale) {
    vec3 dp1 = dFdx(inWorld), dp2 = dFdy(inWorld);
    vec2 duv1 = dFdx(inUv), duv2 = dFdy(inUv);
    float det = duv1.x * duv2.y - duv2.x * duv1.y;
    vec3 t = (dp1 * duv2.y - dp2 * duv1.y) * sign(det);
    t -= n * dot(n, t);
    if (!(dot(t, t) > 0.0)) return gl_FrontFacing ? n : -n;  // no UV variation here: the vertex normal
    t = normalize(t);
    vec3 b = cross(n, t);
    if (!gl_FrontFacing) t = -t, b = -b, n = -n;
    vec3 m = sampleTexture(map, inUv).xyz * 2.0 - 1.0;
    m.xy *= scale;
    return normalize(mat3(t, b, n) * m);
}

void main() {
    vec4 base = inBaseColor * sampleTexture(inParams.x, inUv);
    // The emissive texture's index is the same for the whole draw (a uniform branch), sampled before the
    // discard below like every derivative.
    const uint emissiveMap = floatBitsToUint(inEmissive.w);
    vec3 emissiveTexel = vec3(1.0);
    if (emissiveMap != SIEVE_TEXTURE_WHITE) emissiveTexel = sampleTexture(emissiveMap, inUv).rgb;
    vec3 n = normalize(inNormal);
    const uint normalMap = floatBitsToUint(inNormalMap.x);
    // Back faces reach here only from double-sided pipelines (the others cull them): the flipped normal.
    if (normalMap != SIEVE_TEXTURE_WHITE)
        n = perturbNormal(n, normalMap, inNormalMap.y);
    else if (!gl_FrontFacing)
        n = -n;
    // After every derivative (a discarded invocation leaves its quad's derivatives undefined). The
    // pipeline's alpha mode is a constant: opaque pipelines have no discard and keep early depth tests.
    if (kAlphaMode == SIEVE_ALPHA_MASK && base.a < uintBitsToFloat(inParams.z)) discard;
    float lambert = max(dot(n, normalize(pc.lightDir.xyz)), 0.0);
    lambert *= sieveShadow(inWorld, uint(pc.lightDir.w));
    const bool byLod = (pc.flags & SIEVE_MATERIAL_PUSH_TINT_BY_LOD) != 0u;
    const bool byDraw = (pc.flags & SIEVE_MATERIAL_PUSH_TINT_BY_DRAW) != 0u;
    vec3 albedo = byLod ? sieveLodColour(inParams.w) : byDraw ? sieveKeyColour(inKey) : base.rgb;
    vec3 emitted = byLod || byDraw ? vec3(0.0) : inEmissive.rgb * emissiveTexel;
    vec4 colour = vec4(albedo * (0.35 + 0.65 * lambert) + emitted, kAlphaMode == SIEVE_ALPHA_BLEND ? base.a : 1.0);
    outColor = colour * pc.tint;
}
