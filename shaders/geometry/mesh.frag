#version 460
// Flat-coloured Lambert shading; the material picks a base colour, the instance a small variation.
// Debug views: the push constants tint it (the phase that drew it) or colour it by the draw's LOD
// (shared/lod_colours.h, as material.frag).
#extension GL_GOOGLE_include_directive : require
#include "shared/geometry_push.h"
#include "shared/lod_colours.h"
layout(location = 0) in vec3 inNormal;
layout(location = 1) flat in uint inMaterial;
layout(location = 2) flat in uint inInstance;
layout(location = 3) flat in uint inLod;
layout(location = 4) in vec3 inWorld;
layout(location = 5) flat in uint inKey;
layout(push_constant) uniform Push { GeometryPush pc; };
layout(location = 0) out vec4 outColor;
#include "geometry/shadow.glsl"
#include "geometry/debug_colour.glsl"

const vec3 kPalette[8] = vec3[8](vec3(0.55, 0.55, 0.58), vec3(0.70, 0.45, 0.35), vec3(0.35, 0.55, 0.30),
                                 vec3(0.45, 0.32, 0.20), vec3(0.80, 0.75, 0.55), vec3(0.30, 0.40, 0.65),
                                 vec3(0.75, 0.20, 0.20), vec3(0.25, 0.25, 0.27));

void main() {
    uint h = inInstance * 2654435761u;
    float jitter = 0.9 + 0.2 * float((h >> 24) & 255u) / 255.0;
    vec3 base = pc.options.x != 0u ? sieveLodColour(inLod) : kPalette[inMaterial & 7u] * jitter;
    if (pc.options.y != 0u) base = sieveKeyColour(inKey);
    base *= pc.tint.rgb;
    float lambert = max(dot(normalize(inNormal), normalize(pc.lightDir.xyz)), 0.0);
    lambert *= sieveShadow(inWorld, uint(pc.lightDir.w));
    outColor = vec4(base * (0.35 + 0.65 * lambert), 1.0);
}
