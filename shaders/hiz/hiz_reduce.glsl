// GLSL helpers of the Hi-Z builders (included by the .comp files of this folder).
// Identity of the (min, max) reduction: texels outside a mip's extent hold it, so they never change
// a result, and every texel inside an extent has at least one child inside the child mip's extent.
const vec2 kHizIdentity = vec2(1.0 / 0.0, -1.0 / 0.0);  // (+inf, -inf)

vec2 hizCombine(vec2 a, vec2 b) { return vec2(min(a.x, b.x), max(a.y, b.y)); }

// min/max of the depth pixels covered by pyramid mip-0 texel p (1x1 to 3x3 of them).
vec2 hizReduceDepth(sampler2D depth, uvec2 p, uvec2 depthExtent, uvec2 extent) {
    uvec2 sx = hizSpan(p.x, depthExtent.x, extent.x);
    uvec2 sy = hizSpan(p.y, depthExtent.y, extent.y);
    vec2 r = kHizIdentity;
    for (uint y = sy.x; y < sy.y; ++y)
        for (uint x = sx.x; x < sx.y; ++x) {
            float d = texelFetch(depth, ivec2(x, y), 0).r;
            r = hizCombine(r, vec2(d));
        }
    return r;
}
