#version 460
// Per-mip Hi-Z builder, later steps: mip m from mip m-1, one thread per texel of mip m, each combining
// its 2x2 children (2x1 or 1x2 where mip m-1 is already one texel wide or high).
#extension GL_GOOGLE_include_directive : require
#include "hiz/hiz_shared.h"
#include "shared/hiz_bindings.h"
#include "hiz/hiz_reduce.glsl"
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = SIEVE_HIZ_REDUCE_SRC, rg32f) uniform readonly image2D src;
layout(set = 0, binding = SIEVE_HIZ_REDUCE_DST, rg32f) uniform writeonly image2D dst;
layout(push_constant) uniform Push { HiZReducePush pc; };

void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= pc.dstWidth || p.y >= pc.dstHeight) return;
    vec2 r = kHizIdentity;
    for (uint j = 0; j < 2; ++j)
        for (uint i = 0; i < 2; ++i) {
            uvec2 c = 2 * p + uvec2(i, j);
            if (c.x < pc.srcWidth && c.y < pc.srcHeight) r = hizCombine(r, imageLoad(src, ivec2(c)).xy);
        }
    imageStore(dst, ivec2(p), vec4(r, 0, 0));
}
