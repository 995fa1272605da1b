// Per-triangle culling of the mesh-shader cluster path (shared/triangle_cull.h): true only when the
// rasterizer would draw no sample of the triangle (a, b, c: clip positions in the order the pipeline
// sees them, so mirrored instances, whose twin meshes carry the reversed winding, are tested as drawn).
// `mode`: the SIEVE_TRIANGLE_CULL_* bits; `viewport`: framebuffer xy = ndc.xy * viewport.xy + viewport.zw
// (a negative-height viewport has viewport.y < 0); `scissor`: the samples are the centres k + 0.5 inside
// [0, scissor). Conservative everywhere the hardware may differ from this arithmetic:
// - a vertex with w <= 0 (or not finite) leaves the triangle to the clipper;
// - every framebuffer position is taken as uncertain by e: the snap to the subpixel grid, plus a relative
//   margin far above the rounding of the divide and of the viewport transform;
// - zero area: only triangles with two identical vertices (they stay degenerate after any snapping);
// - faces: culled only when the area keeps its sign (or is zero, which the rasterizer counts as back
//   facing) for every position within e of the computed ones;
// - no sample: the bounding box widened by e holds no sample centre of the scissor.
#include "shared/triangle_cull.h"

bool triangleCulled(vec4 a, vec4 b, vec4 c, uint mode, vec4 viewport, uvec2 scissor) {
    if ((mode & SIEVE_TRIANGLE_CULL_ON) == 0u) return false;
    if (!(a.w > 0.0 && b.w > 0.0 && c.w > 0.0)) return false;  // also NaN
    if (a == b || b == c || a == c) return true;
    const vec2 pa = a.xy / a.w * viewport.xy + viewport.zw;
    const vec2 pb = b.xy / b.w * viewport.xy + viewport.zw;
    const vec2 pc = c.xy / c.w * viewport.xy + viewport.zw;
    const vec2 lo = min(pa, min(pb, pc));
    const vec2 hi = max(pa, max(pb, pc));
    if (any(isinf(lo)) || any(isinf(hi)) || any(isnan(lo)) || any(isnan(hi))) return false;
    // The viewport terms too: ndc * scale + offset may cancel to a small result.
    const float magnitude = max(max(abs(lo.x), abs(lo.y)), max(abs(hi.x), abs(hi.y))) +
                            max(abs(viewport.x), abs(viewport.y)) + max(abs(viewport.z), abs(viewport.w));
    const uint bits = (mode >> SIEVE_TRIANGLE_CULL_SUBPIXEL_SHIFT) & 255u;
    const float e = exp2(-float(bits)) + magnitude * exp2(-18.0);
    // Sample centres k + 0.5, k in [0, scissor): the first at or after lo - e, the last at or before hi + e.
    const vec2 first = max(ceil(lo - e - 0.5), vec2(0.0));
    const vec2 last = min(floor(hi + e - 0.5), vec2(scissor) - 1.0);
    if (any(lessThan(last, first))) return true;
    if ((mode & (SIEVE_TRIANGLE_CULL_FRONT | SIEVE_TRIANGLE_CULL_BACK)) == 0u) return false;
    // Vulkan's area a = -(1/2) cross(pb - pa, pc - pa) in framebuffer coordinates; front facing where a > 0
    // (counter-clockwise) or a < 0 (clockwise). `front` is 2a signed so that > 0 is front facing.
    const vec2 u = pb - pa;
    const vec2 v = pc - pa;
    const float cross = u.x * v.y - u.y * v.x;
    const float front = (mode & SIEVE_TRIANGLE_CULL_CLOCKWISE) != 0u ? cross : -cross;
    // Each edge vector may be off by 2e per coordinate: |d cross| <= 2e (|u| + |v|)_1 + 8e^2, plus the
    // rounding of the products.
    const float slack = 2.0 * e * (abs(u.x) + abs(u.y) + abs(v.x) + abs(v.y)) + 8.0 * e * e +
                        exp2(-20.0) * (abs(u.x * v.y) + abs(u.y * v.x));
    if ((mode & SIEVE_TRIANGLE_CULL_BACK) != 0u && front + slack <= 0.0) return true;
    if ((mode & SIEVE_TRIANGLE_CULL_FRONT) != 0u && front - slack > 0.0) return true;
    return false;
}
