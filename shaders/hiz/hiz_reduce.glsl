// GLSL helpers of the Hi-Z builders (included by the .comp files of this folder).
// Identity of the (min, max) reduction: texels outside a mip's extent hold it, so they never change
// a result, and every texel inside an extent has at least one child inside the child mip's extent.
const vec2 kHizIdentity = vec2(1.0 / 0.0, -1.0 / 0.0);  // (+inf, -inf)

vec2 hizCombine(vec2 a, vec2 b) { return vec2(min(a.x, b.x), max(a.y, b.y)); }

#include "hiz/depth_sample.glsl"

// min/max of the depth pixels covered by pyramid mip-0 texel p (1x1 to 3x3 of them), every sample.
vec2 hizReduceDepth(SIEVE_DEPTH_SAMPLER depth, uvec2 p, uvec2 depthExtent, uvec2 extent) {
    uvec2 sx = hizSpan(p.x, depthExtent.x, extent.x);
    uvec2 sy = hizSpan(p.y, depthExtent.y, extent.y);
    const int samples = depthSampleCount(depth);
    vec2 r = kHizIdentity;
    for (uint y = sy.x; y < sy.y; ++y)
        for (uint x = sx.x; x < sx.y; ++x)
            for (int s = 0; s < samples; ++s) r = hizCombine(r, vec2(depthSample(depth, ivec2(x, y), s)));
    return r;
}
