// Per-mip Hi-Z builder, first step: pyramid mip 0 from the depth image. One thread per mip-0 texel;
// each reduces the 1x1..3x3 depth pixels of its footprint (hiz_shared.h), every sample of each.
// Included by depth_to_mip0.comp (single-sample depth) and depth_to_mip0_ms.comp (multisampled).
#include "hiz/hiz_shared.h"
#include "shared/hiz_bindings.h"
#include "hiz/hiz_reduce.glsl"
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = SIEVE_HIZ_MIP0_DEPTH) uniform SIEVE_DEPTH_SAMPLER depth;
layout(set = 0, binding = SIEVE_HIZ_MIP0_DST, rg32f) uniform writeonly image2D dst;
layout(push_constant) uniform Push { HiZReducePush pc; };

void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= pc.dstWidth || p.y >= pc.dstHeight) return;
    vec2 r = hizReduceDepth(depth, p, uvec2(pc.srcWidth, pc.srcHeight), uvec2(pc.dstWidth, pc.dstHeight));
    imageStore(dst, ivec2(p), vec4(r, 0, 0));
}
