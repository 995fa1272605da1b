#version 460
#extension GL_EXT_samplerless_texture_functions : require
// The overlay's Hi-Z view: one mip of the min/max depth pyramid (RG32F, r = min, g = max; reverse-Z, so 1
// is the near plane and 0 infinitely far) as grey levels in an RGBA8 image ImGui can show. Depth is
// linearised to the distance it stands for (nearPlane / depth) and shown from white at the eye to black
// at `range`, the contrast the overlay's slider sets; texels with nothing (depth 0) are dark blue.
#extension GL_GOOGLE_include_directive : require
#include "shared/ui_push.h"
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0) uniform texture2D pyramid;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D outImage;

layout(push_constant) uniform Push { HiZViewPush pc; };

void main() {
    const uvec2 p = gl_GlobalInvocationID.xy;
    if (any(greaterThanEqual(p, pc.outSize))) return;
    const ivec2 mipSize = textureSize(pyramid, pc.mip);
    // Nearest texel: each output pixel shows the pyramid texel under its centre.
    const ivec2 src = min(ivec2((vec2(p) + 0.5) * vec2(mipSize) / vec2(pc.outSize)), mipSize - 1);
    const vec2 minMax = texelFetch(pyramid, src, pc.mip).rg;
    const float d = pc.channel == 0u ? minMax.r : minMax.g;
    vec3 c = vec3(0.05, 0.08, 0.25);
    if (d > 0.0) {
        const float distance = pc.nearPlane > 0.0 ? pc.nearPlane / d : 1.0 - d;
        const float range = pc.nearPlane > 0.0 ? pc.range : 1.0;
        c = vec3(1.0 - clamp(distance / max(range, 1e-6), 0.0, 1.0));
    }
    imageStore(outImage, ivec2(p), vec4(c, 1.0));
}
