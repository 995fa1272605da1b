#ifndef SIEVE_SHARED_CULL_H
#define SIEVE_SHARED_CULL_H
// Culling parameters and the visibility math, shared by GLSL (shaders/cull/) and C++ (the CPU
// reference in passes/src/cull/): the same source, the same float operations in the same order, no
// contraction into FMAs (`precise` in GLSL; see SIEVE_CULL_MATH_BEGIN for C++), so GPU flags can be
// compared with the reference exactly.
//
// Conventions (makeCullParams, passes/src/cull/cull_params.cpp, canonicalises the host's matrices
// and viewport into these fields; sieve/view.h says what it accepts)
// - View space: the host's (CullParams::view, rigid). d = forward * z_view is the distance along the
//   view axis (forward = -1: right-handed, looking down -Z; +1: left-handed perspective).
// - Screen: (u, v) in [0, 1]^2 over the depth attachment, (0, 0) at pixel (0, 0), v down the rows.
//   Perspective: u = (scaleX * x/d + offsetX) * 0.5 + 0.5, v likewise with scaleY, offsetY.
//   Orthographic: u = (scaleX * x + offsetX) * 0.5 + 0.5, v likewise. scaleY and offsetY include the
//   viewport's y orientation (negated for a negative-height viewport), so a flipped viewport with
//   P11 > 0 and a positive one with P11 < 0 give the same fields.
// - Depth as written to the attachment (after the viewport depth range): perspective
//   depth = depthA + depthB / d, orthographic depth = depthA + depthB * d. reverseZ = 1 when depth
//   decreases with d (nearer = larger: a GREATER test, the pyramid's min channel is the farthest),
//   0 when it increases (nearer = smaller: a LESS test, the max channel is the farthest).
//   nearDist: d of the near clip plane (> 0 for perspective; any value for orthographic).
// - Frustum planes: world space, xyz = unit normal pointing inside, w = offset; a point p is inside
//   when dot(xyz, p) + w >= 0; a sphere is in the frustum when dot(xyz, c) + w >= -r for all six.
//   Spheres crossing the near plane therefore pass it. An infinite far plane is (0, 0, 0, 1): always
//   passes.
// - Hi-Z pyramid: sieve/hiz.h (r = min, g = max depth per texel).
#include "shared/common.h"
#include "shared/cull_tests.h"
#include "shared/scene.h"

SIEVE_NS_BEGIN

// CullParams::kind
SIEVE_CONST(uint, SIEVE_PROJ_PERSPECTIVE, 0u)
SIEVE_CONST(uint, SIEVE_PROJ_ORTHOGRAPHIC, 1u)

// The occlusion test inflates the radius to absorb float rounding of the view transform and of the
// projection: r' = r * (1 + REL) + ABS * (|c_world|_1 + |c_view|_1). The screen rectangle is widened
// by ABS * |offset| for the rounding of adding the off-centre offset, and the sphere's nearest depth
// is moved nearer by DEPTH * (|depthA| + |depthB term|) for the rounding of the depth mapping (standard
// Z cancels: depth = 1 - small), which also covers the rasterizer's own depth rounding.
SIEVE_CONST(float, SIEVE_CULL_RADIUS_REL_EPS, 0.0009765625)            // 2^-10
SIEVE_CONST(float, SIEVE_CULL_RADIUS_ABS_EPS, 0.00000095367431640625)  // 2^-20
SIEVE_CONST(float, SIEVE_CULL_DEPTH_EPS, 0.00000095367431640625)       // 2^-20

// Per-frame parameters: a uniform buffer, std140 (every member sits at its C++ offset; 256 bytes).
struct CullParams {
    mat4 view;                //   0 world -> view (rigid)
    vec4 planes[6];           //  64 world-space frustum planes, see above
    float scaleX;             // 160 ndc x per unit of x/d (perspective) or x (orthographic)
    float scaleY;             // 164 the same for y, times the viewport's y sign
    float offsetX;            // 168 ndc x offset (off-centre, jitter)
    float offsetY;            // 172 ndc y offset, times the viewport's y sign
    float depthA;             // 176 depth mapping, see above
    float depthB;             // 180
    float nearDist;           // 184 d of the near plane
    float forward;            // 188 d = forward * z_view (+-1)
    uint kind;                // 192 SIEVE_PROJ_*
    uint reverseZ;            // 196 1: nearer = larger depth (farthest = min channel); 0: the opposite
    float lodThreshold;       // 200 screen-space error threshold, pixels
    float viewportHeight;     // 204 pixels (LOD projection)
    uint pyramidWidth;        // 208 Hi-Z mip 0 extent
    uint pyramidHeight;       // 212
    uint pyramidMips;         // 216
    uint instanceCount;       // 220
    uint toggles;             // 224 SIEVE_CULL_* bits
    int lodBias;              // 228 levels added to the selected LOD (positive: coarser), then clamped
    uint instanceMask;        // 232 the view culls an instance only when (Instance::flags & mask) == mask
    float debugRadiusShrink;  // 236 test only: the occlusion test uses radius * (1 - shrink); 0 normally
    float drawDistance;       // 240 the view's draw distance from its eye (0: no limit)
    uint distanceAlongAxis;   // 244 1: distances are measured along the view axis (d), 0: from the eye
    uint pad1;                // 248
    uint pad2;                // 252
};

// Per-dispatch constants of the flag shaders (cull/flag_*.comp): the views of a frame are
// CullParams[viewCount] in one storage buffer; per-(view, instance) arrays are indexed v * instanceCount
// + i, per-(view, bin, instance) draw counts (v * binCount + b) * instanceCount + i.
struct CullFlagPush {
    uint instanceCount;
    uint viewCount;
    uint binCount;
    uint options;    // SIEVE_FLAG_PUSH_* bits
    uint markEpoch;  // marks set where a draw count is non-zero (shared/draw_push.h SIEVE_DRAW_MARK_KEYS); 0: none
};

// CullFlagPush::options: the late shader writes no flags (its caller reads none; sieve/cull_flags.h
// CullLayout::lateFlags).
SIEVE_CONST(uint, SIEVE_FLAG_PUSH_NO_LATE_FLAGS, 1u)
// CullFlagPush::options: the late shader writes no state (CullLayout::state).
SIEVE_CONST(uint, SIEVE_FLAG_PUSH_NO_STATE, 2u)
// CullFlagPush::options: each invocation of the early shader takes SIEVE_FLAG_EARLY_ROUNDS instances (cull/flag.glsl
// main; sieve/cull_flags.h CullLayout::earlyRounds), 128 apart, the dispatch a quarter of the workgroups.
SIEVE_CONST(uint, SIEVE_FLAG_PUSH_EARLY_ROUNDS, 4u)
SIEVE_CONST(uint, SIEVE_FLAG_EARLY_ROUNDS, 4u)  // cull/flag.glsl holds one load per round in a named variable
// CullFlagPush::options: the early shader writes no flags (CullLayout::earlyFlags; the late shader derives which
// instances the early phase drew from visibleLast, which it reads before it writes it).
SIEVE_CONST(uint, SIEVE_FLAG_PUSH_NO_EARLY_FLAGS, 8u)

// CullFlagPush::options of the split late pass's first dispatch: every instance in view is listed
// (CullLayout::LateSplit::All). Without it a subgroup lists its instances in view only where they are at most a
// quarter of it (sparse: they would hold the whole subgroup through the occlusion test's dependent fetches) and
// decides denser ones in place.
SIEVE_CONST(uint, SIEVE_FLAG_PUSH_DEFER_ALL, 16u)

SIEVE_CONST(uint, SIEVE_FLAG_GROUP_SIZE, 128u)  // invocations per workgroup of the flag shaders (cull/flag.glsl)

// The split late pass (sieve/cull_flags.h CullLateBuffers::candidates): its first dispatch (cull/flag_defer.comp)
// appends view 0's instances in view to candidate lists instead of testing them against the pyramid, its second
// (cull/flag_candidates.comp, dispatched indirectly) tests only those. Workgroup g of the first appends to list
// g % SIEVE_CULL_CANDIDATE_LISTS, so that the lists' counters, each on a 128-byte line of its own, share the
// subgroups' atomics (one counter for all made the late pass 2.6x slower on the H200: bench/RESULTS.md, session
// 13). Words: a VkDispatchIndirectCommand (x = the most workgroups a list needs, at most
// SIEVE_CULL_CANDIDATE_MAX_GROUPS, the Vulkan minimum of maxComputeWorkGroupCount[0]: the second dispatch loops
// over the rest; y = one row of workgroups per list; z = 1), then list l's count at word (l + 1) *
// SIEVE_CULL_CANDIDATE_LINE_WORDS, then from SIEVE_CULL_CANDIDATE_HEADER_WORDS on the lists, each
// sieveCandidateListCapacity(N) instance indices long.
SIEVE_CONST(uint, SIEVE_CULL_CANDIDATE_LISTS, 32u)
SIEVE_CONST(uint, SIEVE_CULL_CANDIDATE_LINE_WORDS, 32u)
SIEVE_CONST(uint, SIEVE_CULL_CANDIDATE_HEADER_WORDS,
            (SIEVE_CULL_CANDIDATE_LISTS + 1u) * SIEVE_CULL_CANDIDATE_LINE_WORDS)
SIEVE_CONST(uint, SIEVE_CULL_CANDIDATE_MAX_GROUPS, 65535u)

// Indices one candidate list holds: every instance of the flag workgroups that append to it.
SIEVE_FN uint sieveCandidateListCapacity(uint instanceCount) {
    const uint groups = (instanceCount + SIEVE_FLAG_GROUP_SIZE - 1u) / SIEVE_FLAG_GROUP_SIZE;
    return (groups + SIEVE_CULL_CANDIDATE_LISTS - 1u) / SIEVE_CULL_CANDIDATE_LISTS * SIEVE_FLAG_GROUP_SIZE;
}

// Per-dispatch constants of the stats record (cull/stats.comp): one frame's record of the readback ring at
// word `recordWord`, word by word: header (frameLo, frameHi, instanceCount, 1), CullCounters[views],
// DrawCounts early[streams] and late[streams], the check's count (4 words).
struct CullStatsPush {
    uint frameLo;
    uint frameHi;
    uint instanceCount;
    uint views;
    uint streams;
    uint recordWord;
    uint pad0;
    uint pad1;
};

// Per-dispatch constants of the false-culling check (cull/check.comp).
struct CullCheckPush {
    uint instanceCount;
    uint depthWidth;  // the host's depth attachment, full resolution
    uint depthHeight;
    uint pad;
};

// Per-frame statistics, accumulated with atomics (the host zeroes the buffer before the early pass).
struct CullCounters {
    uint frustumVisible;  // late pass: instances in view (kept by the mask, in the frustum and the draw distance)
    uint earlyDrawn;      // early pass: instances flagged (visible last frame and in view)
    uint lateVisible;     // late pass: in view and not occluded
    uint lateDrawn;       // late pass: flagged (visible and not drawn by the early pass)
    // late pass: in the frustum and kept, beyond the draw distance (counted only where the test runs). The
    // other tests' counts follow from these (stats_stage.cpp): every counter is one more same-address
    // atomic per subgroup, which the H200 serializes (three more made the late pass 2.5x slower at 10M).
    uint distanceCulled;
};
SIEVE_CONST(uint, SIEVE_CULL_COUNTER_WORDS, 5u)  // uints of one CullCounters
// Each view's counters are striped: CullCounterStripe[view * STRIPES + stripe], a flag workgroup adding
// to stripe (group index % STRIPES), the stats pass summing the stripes. Each stripe fills a 128-byte line
// of its own: the H200 serializes atomics to one line, and one per subgroup and counter into 32 unpadded
// stripes (5 lines) cost its late flag pass 0.08 ms of 0.36 at 10M instances in random order
// (bench/RESULTS.md, 2026-12-03 "counters").
SIEVE_CONST(uint, SIEVE_CULL_COUNTER_STRIPES, 32u)
SIEVE_CONST(uint, SIEVE_CULL_STRIPE_WORDS, 32u)
struct CullCounterStripe {
    CullCounters counters;
    uint pad[SIEVE_CULL_STRIPE_WORDS - SIEVE_CULL_COUNTER_WORDS];
};

// Where the occlusion test reads the pyramid: texels [x0, x1] x [y0, y1] (at most 2x2) of `mip`.
struct CullOcclusionQuery {
    uint mip;
    uint x0;
    uint y0;
    uint x1;
    uint y1;
    float depth;  // nearest depth of the (inflated) sphere, moved nearer by the depth margin
};

SIEVE_NS_END

#ifdef __cplusplus
#include <cstddef>
static_assert(offsetof(sieve::gpu::CullParams, planes) == 64 && offsetof(sieve::gpu::CullParams, scaleX) == 160 &&
                  offsetof(sieve::gpu::CullParams, kind) == 192 && offsetof(sieve::gpu::CullParams, lodBias) == 228 &&
                  offsetof(sieve::gpu::CullParams, drawDistance) == 240 && sizeof(sieve::gpu::CullParams) == 256,
              "CullParams must match its std140 layout");
static_assert(sizeof(sieve::gpu::CullOcclusionQuery) == 24);
static_assert(sizeof(sieve::gpu::CullFlagPush) == 20 && sizeof(sieve::gpu::CullCheckPush) == 16);
// The flag shaders add to a counter by its word (cull/decide.glsl countSubgroup's `which`), the stats pass
// sums word by word, and each stripe fills one 128-byte line.
static_assert(offsetof(sieve::gpu::CullCounters, earlyDrawn) == 4 &&
                  offsetof(sieve::gpu::CullCounters, lateVisible) == 8 &&
                  offsetof(sieve::gpu::CullCounters, lateDrawn) == 12 &&
                  offsetof(sieve::gpu::CullCounters, distanceCulled) == 16 &&
                  sizeof(sieve::gpu::CullCounters) == 4 * sieve::gpu::SIEVE_CULL_COUNTER_WORDS,
              "CullCounters' words are numbered in countSubgroup and the stats pass");
static_assert(sizeof(sieve::gpu::CullCounterStripe) == 4 * sieve::gpu::SIEVE_CULL_STRIPE_WORDS &&
              sizeof(sieve::gpu::CullCounterStripe) == 128);
#endif

#ifdef __cplusplus
#define SIEVE_PRECISE
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
#define SIEVE_PRECISE precise
#define SIEVE_CULL_MATH_BEGIN
#define SIEVE_CULL_MATH_END
#endif

SIEVE_CULL_MATH_BEGIN

SIEVE_FN bool sieveFinite(float x) {
    return (floatBitsToUint(x) & 0x7f800000u) != 0x7f800000u;
}

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

// ndc interval [lo, hi] of a perspective sphere along one screen axis: the two planes through the eye
// that contain the other screen axis and touch the sphere (exact bound of its projection), at slopes
// e/d; `e` is the sphere centre's coordinate along the axis, `d` its distance, `r` the inflated
// radius. Returns false when the planes degenerate (the caller treats the sphere as visible).
SIEVE_FN bool sievePerspectiveInterval(float e, float d, float r, float scale, float offset, SIEVE_OUT(float) lo,
                                       SIEVE_OUT(float) hi) {
    lo = 0.0f;
    hi = 0.0f;
    SIEVE_PRECISE float czr2 = d * d - r * r;
    SIEVE_PRECISE float t = sqrt(e * e + czr2);
    SIEVE_PRECISE float d0 = t * d + r * e;
    SIEVE_PRECISE float d1 = t * d - r * e;
    if (!(d0 > 0.0f && d1 > 0.0f)) return false;
    SIEVE_PRECISE float a = ((t * e - r * d) / d0) * scale + offset;
    SIEVE_PRECISE float b = ((t * e + r * d) / d1) * scale + offset;
    SIEVE_PRECISE float margin = abs(offset) * SIEVE_CULL_RADIUS_ABS_EPS;
    SIEVE_PRECISE float l = min(a, b) - margin;
    SIEVE_PRECISE float h = max(a, b) + margin;
    lo = l;
    hi = h;
    return true;
}

// The same for an orthographic view: centre +- r * |scale|.
SIEVE_FN void sieveOrthographicInterval(float e, float r, float scale, float offset, SIEVE_OUT(float) lo,
                                        SIEVE_OUT(float) hi) {
    SIEVE_PRECISE float centre = e * scale + offset;
    SIEVE_PRECISE float extent = r * abs(scale) + abs(offset) * SIEVE_CULL_RADIUS_ABS_EPS;
    SIEVE_PRECISE float l = centre - extent;
    SIEVE_PRECISE float h = centre + extent;
    lo = l;
    hi = h;
}

// Attachment depth at view distance `gap`, moved nearer by the depth margin (see the constants).
SIEVE_FN float sieveNearestDepth(float gap, SIEVE_IN(CullParams) p) {
    SIEVE_PRECISE float term = p.kind == SIEVE_PROJ_ORTHOGRAPHIC ? p.depthB * gap : p.depthB / gap;
    SIEVE_PRECISE float depth = p.depthA + term;
    SIEVE_PRECISE float margin = (abs(p.depthA) + abs(term)) * SIEVE_CULL_DEPTH_EPS;
    SIEVE_PRECISE float nearer = p.reverseZ != 0u ? depth + margin : depth - margin;
    return nearer;
}

// The screen rectangle [u0, u1] x [v0, v1] (normalized, see above; not clamped) bounding a world-space
// sphere's projection, computed with the inflated radius, and its nearest depth moved nearer by the
// depth margin. Returns false when the sphere is visible without looking at any depth: non-finite
// bounds, crossing or in front of the near plane, rectangle off screen (the frustum test's business) or
// degenerate. The occlusion test (sieveOcclusionQuery) and the false-culling check (cull/check.comp)
// both start from it.
struct CullScreenRect {
    float u0;
    float u1;
    float v0;
    float v1;
    float depth;
};

SIEVE_FN bool sieveScreenRect(vec4 s, SIEVE_IN(CullParams) p, SIEVE_OUT(CullScreenRect) rect) {
    rect.u0 = 0.0f;
    rect.u1 = 0.0f;
    rect.v0 = 0.0f;
    rect.v1 = 0.0f;
    rect.depth = 0.0f;
    if (!sieveSphereFinite(s)) return false;
    vec3 c = sieveViewCentre(s, p);
    SIEVE_PRECISE float mag = (((abs(c.x) + abs(c.y)) + abs(c.z)) + ((abs(s.x) + abs(s.y)) + abs(s.z)));
    SIEVE_PRECISE float r = s.w * (1.0f + SIEVE_CULL_RADIUS_REL_EPS) + mag * SIEVE_CULL_RADIUS_ABS_EPS;
    SIEVE_PRECISE float d = p.forward * c.z;
    SIEVE_PRECISE float gap = d - r;
    if (!(gap > p.nearDist)) return false;

    float x0n = 0.0f;
    float x1n = 0.0f;
    float y0n = 0.0f;
    float y1n = 0.0f;
    if (p.kind == SIEVE_PROJ_ORTHOGRAPHIC) {
        sieveOrthographicInterval(c.x, r, p.scaleX, p.offsetX, x0n, x1n);
        sieveOrthographicInterval(c.y, r, p.scaleY, p.offsetY, y0n, y1n);
    } else {
        if (!sievePerspectiveInterval(c.x, d, r, p.scaleX, p.offsetX, x0n, x1n)) return false;
        if (!sievePerspectiveInterval(c.y, d, r, p.scaleY, p.offsetY, y0n, y1n)) return false;
    }
    SIEVE_PRECISE float u0 = x0n * 0.5f + 0.5f;
    SIEVE_PRECISE float u1 = x1n * 0.5f + 0.5f;
    SIEVE_PRECISE float v0 = y0n * 0.5f + 0.5f;
    SIEVE_PRECISE float v1 = y1n * 0.5f + 0.5f;
    if (!(sieveFinite(u0) && sieveFinite(u1) && sieveFinite(v0) && sieveFinite(v1))) return false;
    if (u1 < 0.0f || u0 > 1.0f || v1 < 0.0f || v0 > 1.0f) return false;
    rect.u0 = u0;
    rect.u1 = u1;
    rect.v0 = v0;
    rect.v1 = v1;
    rect.depth = sieveNearestDepth(gap, p);
    if (!sieveFinite(rect.depth)) return false;
    return true;
}

// Texels [t0, t1] covering normalized [a, b] (clamped to [0, 1]) on an axis of `size` texels:
// floor(a * size), clamped to the last texel.
SIEVE_FN void sieveTexelRange(float a, float b, uint size, SIEVE_OUT(uint) t0, SIEVE_OUT(uint) t1) {
    float w = float(size);
    t0 = min(uint(floor(max(a, 0.0f) * w)), size - 1u);
    t1 = min(uint(floor(min(b, 1.0f) * w)), size - 1u);
}

// Prepares the occlusion test of a world-space sphere: false when it is visible without looking at
// the pyramid (sieveScreenRect, or no pyramid). Otherwise fills q: the sphere is occluded iff it lies
// behind the farthest depth of every texel of q (sieveOccludedByTexel).
//
// The rectangle is clamped to the screen and mapped to mip-0 texels by floor(u * width) (powers of
// two: exact); the mip is the finest one where it spans at most 2x2 texels (integer shifts of the mip-0
// texel range, so every covered texel is read). The nearest depth is that of the sphere's nearest
// distance d - r': depth depends on d only, for both kinds. debugRadiusShrink (a test knob, 0
// otherwise) shrinks the sphere first, to plant false culls.
SIEVE_FN bool sieveOcclusionQuery(vec4 s, SIEVE_IN(CullParams) p, SIEVE_OUT(CullOcclusionQuery) q) {
    q.mip = 0u;
    q.x0 = 0u;
    q.y0 = 0u;
    q.x1 = 0u;
    q.y1 = 0u;
    q.depth = 0.0f;
    if (p.pyramidWidth == 0u || p.pyramidHeight == 0u || p.pyramidMips == 0u) return false;
    vec4 shrunk = s;
    SIEVE_PRECISE float radius = s.w * (1.0f - p.debugRadiusShrink);
    shrunk.w = radius;
    CullScreenRect rect;
    if (!sieveScreenRect(shrunk, p, rect)) return false;
    uint x0 = 0u;
    uint x1 = 0u;
    uint y0 = 0u;
    uint y1 = 0u;
    sieveTexelRange(rect.u0, rect.u1, p.pyramidWidth, x0, x1);
    sieveTexelRange(rect.v0, rect.v1, p.pyramidHeight, y0, y1);
    uint m = 0u;
    while (m + 1u < p.pyramidMips && ((x1 >> m) - (x0 >> m) > 1u || (y1 >> m) - (y0 >> m) > 1u)) ++m;
    q.mip = m;
    q.x0 = x0 >> m;
    q.y0 = y0 >> m;
    q.x1 = x1 >> m;
    q.y1 = y1 >> m;
    q.depth = rect.depth;
    return true;
}

// Whether the query's sphere lies strictly behind the farthest depth of one pyramid texel (minMax =
// its (min, max) channels): reverse Z compares with the min, standard Z with the max. A sphere is
// occluded when this holds for every texel of its query (NaN texels never occlude).
SIEVE_FN bool sieveOccludedByTexel(SIEVE_IN(CullOcclusionQuery) q, vec2 minMax, SIEVE_IN(CullParams) p) {
    return p.reverseZ != 0u ? q.depth < minMax.x : q.depth > minMax.y;
}

// The draw-distance test (SIEVE_CULL_DISTANCE): the limit is the smaller of the view's draw distance and
// the instance's cull distance, each 0 for none; the instance is culled when its whole sphere lies
// beyond the limit from the eye (distanceAlongAxis 0: |centre - eye| - r > limit, Unreal's max draw
// distance) or beyond a plane at the limit along the view axis (1: d - r > limit, niagara's drawDistance,
// a far plane). Conservative: the radius is inflated as for occlusion (float rounding
// of the view transform) and the limit by 2^-10, so an instance is culled only when it is beyond in exact
// arithmetic too (the CPU reference checks it in double). Non-finite bounds are kept.
SIEVE_FN bool sieveWithinDrawDistance(vec4 s, float cullDistance, SIEVE_IN(CullParams) p) {
    bool limited = p.drawDistance > 0.0f;
    float limit = p.drawDistance;
    if (cullDistance > 0.0f) limit = limited ? min(limit, cullDistance) : cullDistance;
    limited = limited || cullDistance > 0.0f;
    if (!limited || !sieveSphereFinite(s)) return true;
    vec3 c = sieveViewCentre(s, p);
    SIEVE_PRECISE float mag = (((abs(c.x) + abs(c.y)) + abs(c.z)) + ((abs(s.x) + abs(s.y)) + abs(s.z)));
    SIEVE_PRECISE float r = s.w * (1.0f + SIEVE_CULL_RADIUS_REL_EPS) + mag * SIEVE_CULL_RADIUS_ABS_EPS;
    SIEVE_PRECISE float len = p.distanceAlongAxis != 0u ? p.forward * c.z : sqrt((c.x * c.x + c.y * c.y) + c.z * c.z);
    SIEVE_PRECISE float reach = (limit + r) * (1.0f + SIEVE_CULL_RADIUS_REL_EPS);
    return len <= reach;
}

// Distance used for LOD selection: from the eye to the sphere's nearest point, at least the near
// distance. Orthographic: 1 (the projected size does not depend on distance).
SIEVE_FN float sieveLodDistance(vec4 s, SIEVE_IN(CullParams) p) {
    if (p.kind == SIEVE_PROJ_ORTHOGRAPHIC) return 1.0f;
    vec3 c = sieveViewCentre(s, p);
    SIEVE_PRECISE float len = sqrt((c.x * c.x + c.y * c.y) + c.z * c.z);
    SIEVE_PRECISE float dist = len - s.w;
    return max(dist, p.nearDist);
}

// Whether an object-space error, scaled by the instance's scale, projects to at most lodThreshold
// pixels at distance `dist`: error*scale*|scaleY|*viewportHeight/2 / dist <= threshold, without
// division (dist = 1 for orthographic views).
SIEVE_FN bool sieveLodAcceptable(float error, float scale, float dist, SIEVE_IN(CullParams) p) {
    SIEVE_PRECISE float pixelsAtUnit = (abs(p.scaleY) * p.viewportHeight) * 0.5f;
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
