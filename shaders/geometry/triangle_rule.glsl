// The rule of the mesh path's per-triangle culling (shared/triangle_cull.h) as plain functions: used by the
// mesh shaders' culling variants (geometry/triangle_cull.glsl) and by test/triangle_cull.comp, whose GPU test
// checks it against a rasterizer on the host. A triangle is culled only when the rasterizer would draw no
// sample of it.
// Conservative everywhere the hardware may differ from this arithmetic:
// - a vertex with w <= 0 (or a position that is not finite) leaves the triangle to the clipper;
// - every framebuffer position is taken as uncertain by e: the snap to the subpixel grid, plus a relative
//   margin far above the rounding of the divide and of the viewport transform;
// - zero area: only triangles that name one vertex twice (they stay degenerate after any snapping);
// - faces: culled only when the area keeps its sign (or is zero, which the rasterizer counts as back
//   facing) for every position within e of the computed ones; the clip positions are in the order the
//   pipeline sees them, so mirrored instances, whose twin meshes carry the reversed winding, are tested
//   as drawn;
// - no sample: the bounding box widened by e holds no sample centre of the scissor.
#include "shared/triangle_cull.h"

// What the triangle test needs of a vertex: its framebuffer xy, and z = 1 where the test may use it (w > 0,
// finite), 0 where not. `viewport`: framebuffer xy = ndc.xy * viewport.xy + viewport.zw (a negative-height
// viewport has viewport.y < 0).
vec3 triangleCullVertex(vec4 clip, vec4 viewport) {
    vec3 kept = vec3(0.0);
    if (clip.w > 0.0) {  // false for NaN too
        const vec2 p = clip.xy / clip.w * viewport.xy + viewport.zw;
        if (!any(isinf(p)) && !any(isnan(p))) kept = vec3(p, 1.0);
    }
    return kept;
}

// Framebuffer positions pa, pb, pc (usable ones); `mode`: the SIEVE_TRIANGLE_CULL_* bits; `scissor`: the
// samples are the centres k + 0.5 inside [0, scissor).
bool triangleCulled(vec2 pa, vec2 pb, vec2 pc, uint mode, vec4 viewport, uvec2 scissor) {
    const vec2 lo = min(pa, min(pb, pc));
    const vec2 hi = max(pa, max(pb, pc));
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

// Whether the triangle of vertices a, b, c (triangleCullVertex) whose local indices are `tri` is culled.
bool triangleCulledAt(vec3 a, vec3 b, vec3 c, uvec3 tri, uint mode, vec4 viewport, uvec2 scissor) {
    if (a.z == 0.0 || b.z == 0.0 || c.z == 0.0) return false;
    if (tri.x == tri.y || tri.y == tri.z || tri.x == tri.z) return true;
    return triangleCulled(a.xy, b.xy, c.xy, mode, viewport, scissor);
}
