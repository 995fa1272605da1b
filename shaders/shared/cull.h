#ifndef SIEVE_SHARED_CULL_H
#define SIEVE_SHARED_CULL_H
// Culling parameters and the visibility math, shared by GLSL (shaders/cull/) and C++ (the CPU
// reference in passes/src/cull/): the same source, the same float operations in the same order, no
// contraction into FMAs (`precise` in GLSL; see SIEVE_CULL_MATH_BEGIN for C++), so GPU flags can be
// compared with the reference exactly.
//
// Conventions
// - World space: any right-handed space. View space: right-handed, the camera looks down -Z
//   (glm::lookAt); d = -z_view is the distance along the view axis.
// - Projection: symmetric perspective, reverse-Z, infinite far plane: clip = (P00*x, P11*y, znear, d),
//   so depth = znear / d (near plane 1.0, infinity 0.0). P11 may be negative (y flipped so that the
//   image is upright with a positive Vulkan viewport). ndc -> screen: u = ndc.x*0.5+0.5, v =
//   ndc.y*0.5+0.5, (u, v) = (0, 0) at pixel (0, 0).
// - Frustum planes: world space, xyz = unit normal pointing inside, w = offset; a point p is inside
//   when dot(xyz, p) + w >= 0; a sphere is in the frustum when dot(xyz, c) + w >= -r for all six.
//   Spheres crossing the near plane therefore pass it. With an infinite far plane the sixth plane is
//   (0, 0, 0, 1): always passes.
// - Hi-Z pyramid: sieve/hiz.h (r = min = farthest depth per texel).
#include "shared/common.h"
#include "shared/scene.h"

SIEVE_NS_BEGIN

// CullParams::toggles
SIEVE_CONST(uint, SIEVE_CULL_FRUSTUM, 1u)
SIEVE_CONST(uint, SIEVE_CULL_OCCLUSION, 2u)
SIEVE_CONST(uint, SIEVE_CULL_LOD, 4u)
SIEVE_CONST(uint, SIEVE_CULL_TWO_PHASE, 8u)
SIEVE_CONST(uint, SIEVE_CULL_ALL, 15u)

// The occlusion test inflates the radius to absorb float rounding of the view transform and of the
// projection: r' = r * (1 + REL) + ABS * (|c_world|_1 + |c_view|_1).
SIEVE_CONST(float, SIEVE_CULL_RADIUS_REL_EPS, 0.0009765625)  // 2^-10
SIEVE_CONST(float, SIEVE_CULL_RADIUS_ABS_EPS, 0.00000095367431640625)  // 2^-20

// Per-frame parameters: a uniform buffer, std140 (every member sits at its C++ offset; 272 bytes).
struct CullParams {
    mat4 viewProj;        //   0 world -> clip (for hosts and debugging; the tests below use view/P00/P11)
    mat4 view;            //  64 world -> view
    vec4 planes[6];       // 128 world-space frustum planes, see above
    float P00;            // 224 projection[0][0]
    float P11;            // 228 projection[1][1]
    float znear;          // 232
    float lodThreshold;   // 236 screen-space error threshold, pixels
    uint pyramidWidth;    // 240 Hi-Z mip 0 extent
    uint pyramidHeight;   // 244
    uint pyramidMips;     // 248
    uint instanceCount;   // 252
    uint toggles;         // 256 SIEVE_CULL_* bits
    float viewportHeight; // 260 pixels (LOD projection)
    int lodBias;          // 264 levels added to the selected LOD (positive: coarser), then clamped
    uint pad0;            // 268
};

// Per-frame statistics, accumulated with atomics (the host zeroes the buffer before the early pass).
struct CullCounters {
    uint frustumVisible;  // late pass: instances in the frustum
    uint earlyDrawn;      // early pass: instances flagged (visible last frame and in the frustum)
    uint lateVisible;     // late pass: in the frustum and not occluded
    uint lateDrawn;       // late pass: flagged (visible and not drawn by the early pass)
};

// Where the occlusion test reads the pyramid: texels [x0, x1] x [y0, y1] (at most 2x2) of `mip`.
struct CullOcclusionQuery {
    uint mip;
    uint x0;
    uint y0;
    uint x1;
    uint y1;
    float depth;  // nearest depth of the (inflated) sphere: znear / (d - r')
};

SIEVE_NS_END

#ifdef __cplusplus
#define SIEVE_FN inline
#define SIEVE_PRECISE
#define SIEVE_IN(T) const T&
#define SIEVE_OUT(T) T&
#if defined(__clang__)
#define SIEVE_CULL_MATH_BEGIN _Pragma("clang fp contract(off)")
#define SIEVE_CULL_MATH_END
#elif defined(__GNUC__)
#define SIEVE_CULL_MATH_BEGIN _Pragma("GCC push_options") _Pragma("GCC optimize(\"fp-contract=off\")")
#define SIEVE_CULL_MATH_END _Pragma("GCC pop_options")
#else
#define SIEVE_CULL_MATH_BEGIN
#define SIEVE_CULL_MATH_END
#endif
namespace sieve::gpu {
#else
#define SIEVE_FN
#define SIEVE_PRECISE precise
#define SIEVE_IN(T) in T
#define SIEVE_OUT(T) out T
#define SIEVE_CULL_MATH_BEGIN
#define SIEVE_CULL_MATH_END
#endif

SIEVE_CULL_MATH_BEGIN

SIEVE_FN bool sieveFinite(float x) { return (floatBitsToUint(x) & 0x7f800000u) != 0x7f800000u; }

SIEVE_FN bool sieveSphereFinite(vec4 s) {
    return sieveFinite(s.x) && sieveFinite(s.y) && sieveFinite(s.z) && sieveFinite(s.w);
}

// Frustum test of a world-space sphere. Non-finite bounds are visible (conservative).
SIEVE_FN bool sieveInFrustum(vec4 s, SIEVE_IN(CullParams) p) {
    if (!sieveSphereFinite(s)) return true;
    bool inside = true;
    for (int i = 0; i < 6; ++i) {
        vec4 pl = p.planes[i];
        SIEVE_PRECISE float dist = ((pl.x * s.x + pl.y * s.y) + pl.z * s.z) + pl.w;
        inside = inside && dist >= -s.w;
    }
    return inside;
}

SIEVE_FN vec3 sieveViewCentre(vec4 s, SIEVE_IN(CullParams) p) {
    SIEVE_PRECISE float x = ((p.view[0][0] * s.x + p.view[1][0] * s.y) + p.view[2][0] * s.z) + p.view[3][0];
    SIEVE_PRECISE float y = ((p.view[0][1] * s.x + p.view[1][1] * s.y) + p.view[2][1] * s.z) + p.view[3][1];
    SIEVE_PRECISE float z = ((p.view[0][2] * s.x + p.view[1][2] * s.y) + p.view[2][2] * s.z) + p.view[3][2];
    return vec3(x, y, z);
}

// Prepares the occlusion test of a world-space sphere. Returns false when the sphere is visible
// without looking at the pyramid: non-finite bounds, crossing or in front of the near plane, projected
// rectangle off screen (the frustum test's business) or degenerate. Otherwise fills q: the sphere is
// occluded iff q.depth < min over q's texels of the pyramid's min channel (sieveOccluded).
//
// The screen rectangle bounds the sphere's projection exactly (tangent planes through the eye
// containing the x or the y axis), is computed with the inflated radius, clamped to the screen and
// mapped to mip-0 texels by floor(u * width); the mip is the finest one where it spans at most 2x2
// texels (integer shifts of the mip-0 texel range, so every covered texel is read).
SIEVE_FN bool sieveOcclusionQuery(vec4 s, SIEVE_IN(CullParams) p, SIEVE_OUT(CullOcclusionQuery) q) {
    q.mip = 0u;
    q.x0 = 0u;
    q.y0 = 0u;
    q.x1 = 0u;
    q.y1 = 0u;
    q.depth = 0.0f;
    if (!sieveSphereFinite(s) || p.pyramidWidth == 0u || p.pyramidHeight == 0u || p.pyramidMips == 0u) return false;
    vec3 c = sieveViewCentre(s, p);
    SIEVE_PRECISE float mag = (((abs(c.x) + abs(c.y)) + abs(c.z)) + ((abs(s.x) + abs(s.y)) + abs(s.z)));
    SIEVE_PRECISE float r = s.w * (1.0f + SIEVE_CULL_RADIUS_REL_EPS) + mag * SIEVE_CULL_RADIUS_ABS_EPS;
    SIEVE_PRECISE float d = -c.z;
    SIEVE_PRECISE float gap = d - r;
    if (!(gap > p.znear)) return false;

    SIEVE_PRECISE float czr2 = d * d - r * r;
    SIEVE_PRECISE float tx = sqrt(c.x * c.x + czr2);
    SIEVE_PRECISE float ty = sqrt(c.y * c.y + czr2);
    SIEVE_PRECISE float dx0 = tx * d + r * c.x;
    SIEVE_PRECISE float dx1 = tx * d - r * c.x;
    SIEVE_PRECISE float dy0 = ty * d + r * c.y;
    SIEVE_PRECISE float dy1 = ty * d - r * c.y;
    if (!(dx0 > 0.0f && dx1 > 0.0f && dy0 > 0.0f && dy1 > 0.0f)) return false;
    // Slopes x/d (y/d) of the two tangent planes, then ndc.
    SIEVE_PRECISE float ax = ((tx * c.x - r * d) / dx0) * p.P00;
    SIEVE_PRECISE float bx = ((tx * c.x + r * d) / dx1) * p.P00;
    SIEVE_PRECISE float ay = ((ty * c.y - r * d) / dy0) * p.P11;
    SIEVE_PRECISE float by = ((ty * c.y + r * d) / dy1) * p.P11;
    SIEVE_PRECISE float u0 = min(ax, bx) * 0.5f + 0.5f;
    SIEVE_PRECISE float u1 = max(ax, bx) * 0.5f + 0.5f;
    SIEVE_PRECISE float v0 = min(ay, by) * 0.5f + 0.5f;
    SIEVE_PRECISE float v1 = max(ay, by) * 0.5f + 0.5f;
    if (!(sieveFinite(u0) && sieveFinite(u1) && sieveFinite(v0) && sieveFinite(v1))) return false;
    if (u1 < 0.0f || u0 > 1.0f || v1 < 0.0f || v0 > 1.0f) return false;

    // Powers of two: u * width is exact, floor gives the mip-0 texel.
    float w = float(p.pyramidWidth);
    float h = float(p.pyramidHeight);
    uint x0 = min(uint(floor(max(u0, 0.0f) * w)), p.pyramidWidth - 1u);
    uint x1 = min(uint(floor(min(u1, 1.0f) * w)), p.pyramidWidth - 1u);
    uint y0 = min(uint(floor(max(v0, 0.0f) * h)), p.pyramidHeight - 1u);
    uint y1 = min(uint(floor(min(v1, 1.0f) * h)), p.pyramidHeight - 1u);
    uint m = 0u;
    while (m + 1u < p.pyramidMips && ((x1 >> m) - (x0 >> m) > 1u || (y1 >> m) - (y0 >> m) > 1u)) ++m;
    q.mip = m;
    q.x0 = x0 >> m;
    q.y0 = y0 >> m;
    q.x1 = x1 >> m;
    q.y1 = y1 >> m;
    SIEVE_PRECISE float depth = p.znear / gap;
    q.depth = depth;
    return true;
}

// `farthest`: min over the query's texels of the pyramid's min channel.
SIEVE_FN bool sieveOccluded(SIEVE_IN(CullOcclusionQuery) q, float farthest) { return q.depth < farthest; }

// Distance used for LOD selection: from the eye to the sphere's nearest point, at least znear.
SIEVE_FN float sieveLodDistance(vec4 s, SIEVE_IN(CullParams) p) {
    vec3 c = sieveViewCentre(s, p);
    SIEVE_PRECISE float len = sqrt((c.x * c.x + c.y * c.y) + c.z * c.z);
    SIEVE_PRECISE float dist = len - s.w;
    return max(dist, p.znear);
}

// Whether an object-space error, scaled by the instance's scale, projects to at most lodThreshold
// pixels at distance `dist`: error*scale*|P11|*viewportHeight/2 / dist <= threshold, without division.
SIEVE_FN bool sieveLodAcceptable(float error, float scale, float dist, SIEVE_IN(CullParams) p) {
    SIEVE_PRECISE float pixelsAtUnit = (abs(p.P11) * p.viewportHeight) * 0.5f;
    SIEVE_PRECISE float projected = (error * scale) * pixelsAtUnit;
    SIEVE_PRECISE float limit = p.lodThreshold * dist;
    return projected <= limit;
}

// The coarsest LOD l of a primitive such that LODs 1..l all project under the threshold (LOD 0 always
// qualifies). For simplification chains, whose error grows with the level, this is simply the coarsest
// LOD under the threshold; walking up from 0 keeps every level up to l acceptable even if it does not.
SIEVE_FN uint sievePrimitiveLod(SIEVE_IN(MeshPrimitive) prim, float scale, float dist, SIEVE_IN(CullParams) p) {
    uint count = min(max(prim.lodCount, 1u), SIEVE_MAX_LODS);
    uint l = 0u;
    while (l + 1u < count && sieveLodAcceptable(prim.lods[l + 1u].error, scale, dist, p)) ++l;
    return l;
}

// An instance's LOD: the minimum over its mesh's primitives of sievePrimitiveLod (so that primitive p
// drawn at min(lod, lodCount_p - 1) is acceptable for every p), plus lodBias, clamped to
// [0, SIEVE_MAX_LODS - 1]. Consumers clamp it to each primitive's lodCount - 1.
SIEVE_FN uint sieveApplyLodBias(uint lod, SIEVE_IN(CullParams) p) {
    int l = int(lod) + p.lodBias;
    return uint(min(max(l, 0), int(SIEVE_MAX_LODS) - 1));
}

SIEVE_CULL_MATH_END

#ifdef __cplusplus
}  // namespace sieve::gpu
#endif

#endif
