// Culling flags, early or late phase (CULL_LATE 0/1, defined by flag_early.comp / flag_late.comp: the
// late phase binds two resources the early one does not have, so the variants are two entry files
// rather than a specialization constant, which would leave those bindings statically used).
//
// early: flag = twoPhase && visibleLast[i] && inFrustum(i)
// late:  vis = inFrustum(i) && !occluded(i); flag = vis && !(twoPhase && flagsEarly[i]);
//        visibleLast[i] = vis
// both:  flags[i] = flag, drawCounts[i] = flag ? mesh.primitiveCount : 0, lods[i] = flag ? LOD for this frame : 0,
//        counters (shared/cull.h CullCounters) += per-subgroup counts.
// late also: state[i] = what the test decided (shared/cull_state.h), for debug views.
// Toggles off: frustum -> inFrustum = true; occlusion -> occluded = false; LOD -> lod 0.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_ballot : require
#include "shared/dispatch.h"
#include "shared/scene.h"
#include "shared/cull.h"
#include "shared/cull_state.h"

layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std140) uniform Params { CullParams params; };
layout(set = 0, binding = 1, std430) readonly buffer Instances { Instance instances[]; };
layout(set = 0, binding = 2, std430) readonly buffer Meshes { Mesh meshes[]; };
layout(set = 0, binding = 3, std430) readonly buffer Primitives { MeshPrimitive primitives[]; };
#if CULL_LATE
layout(set = 0, binding = 4, std430) buffer VisibleLast { uint visibleLast[]; };
#else
layout(set = 0, binding = 4, std430) readonly buffer VisibleLast { uint visibleLast[]; };
#endif
layout(set = 0, binding = 5, std430) writeonly buffer Flags { uint flags[]; };
layout(set = 0, binding = 6, std430) writeonly buffer DrawCounts { uint drawCounts[]; };
layout(set = 0, binding = 7, std430) writeonly buffer Lods { uint lods[]; };
layout(set = 0, binding = 8, std430) buffer Counters { CullCounters counters; };
#if CULL_LATE
layout(set = 0, binding = 9, std430) readonly buffer FlagsEarly { uint flagsEarly[]; };
layout(set = 0, binding = 10) uniform sampler2D pyramid;  // Hi-Z, r = min, g = max depth
layout(set = 0, binding = 11, std430) writeonly buffer State { uint state[]; };
#endif

// LOD of an instance whose mesh index is valid (shared/cull.h sieveApplyLodBias); non-finite bounds
// and meshes without primitives get LOD 0.
uint selectLod(vec4 sphere, float scale, uint meshIndex) {
    if (!sieveSphereFinite(sphere)) return 0u;
    const Mesh mesh = meshes[meshIndex];
    const float dist = sieveLodDistance(sphere, params);
    uint lod = SIEVE_MAX_LODS - 1u;
    bool any = false;
    for (uint k = 0u; k < mesh.primitiveCount; ++k) {
        const uint pi = mesh.firstPrimitive + k;
        if (pi >= uint(primitives.length())) break;
        lod = min(lod, sievePrimitiveLod(primitives[pi], scale, dist, params));
        any = true;
    }
    return any ? sieveApplyLodBias(lod, params) : 0u;
}

void countSubgroup(bool b, uint which) {
    uint n = subgroupBallotBitCount(subgroupBallot(b));
    if (subgroupElect() && n > 0u) {
        switch (which) {
            case 0: atomicAdd(counters.frustumVisible, n); break;
            case 1: atomicAdd(counters.earlyDrawn, n); break;
            case 2: atomicAdd(counters.lateVisible, n); break;
            case 3: atomicAdd(counters.lateDrawn, n); break;
        }
    }
}

#if CULL_LATE
bool occluded(vec4 sphere) {
    CullOcclusionQuery q;
    if (!sieveOcclusionQuery(sphere, params, q)) return false;
    bool behind = true;
    for (uint y = q.y0; y <= q.y1; ++y)
        for (uint x = q.x0; x <= q.x1; ++x)
            behind = behind && sieveOccludedByTexel(q, texelFetch(pyramid, ivec2(x, y), int(q.mip)).rg, params);
    return behind;
}
#endif

void main() {
    const uint i = sieve_group_index() * 64u + gl_LocalInvocationID.x;
    const bool frustumOn = (params.toggles & SIEVE_CULL_FRUSTUM) != 0u;
    const bool twoPhase = (params.toggles & SIEVE_CULL_TWO_PHASE) != 0u;
    bool inFrustum = false;
    bool flag = false;
    bool vis = false;
    if (i < params.instanceCount) {
        // Only the sphere is read for every instance (most are culled); the rest only for flagged ones.
#if CULL_LATE
        const vec4 sphere = instances[i].sphere;
        inFrustum = !frustumOn || sieveInFrustum(sphere, params);
        const bool occlusionOn = (params.toggles & SIEVE_CULL_OCCLUSION) != 0u;
        vis = inFrustum && !(occlusionOn && occluded(sphere));
        flag = vis && !(twoPhase && flagsEarly[i] != 0u);
        visibleLast[i] = vis ? 1u : 0u;
#else
        flag = twoPhase && visibleLast[i] != 0u && (!frustumOn || sieveInFrustum(instances[i].sphere, params));
#endif
        uint count = 0u;
        uint lod = 0u;
#if CULL_LATE
        const bool drawn = vis;  // the state names the LOD of early-drawn instances too
#else
        const bool drawn = flag;
#endif
        if (drawn) {
            const uint meshIndex = instances[i].mesh;
            if (meshIndex < uint(meshes.length())) {
                count = meshes[meshIndex].primitiveCount;
                if ((params.toggles & SIEVE_CULL_LOD) != 0u)
                    lod = selectLod(instances[i].sphere, instances[i].scale, meshIndex);
            }
        }
        flags[i] = flag ? 1u : 0u;
        drawCounts[i] = flag ? count : 0u;
        lods[i] = flag ? lod : 0u;
#if CULL_LATE
        const uint kind = !inFrustum ? SIEVE_STATE_FRUSTUM_CULLED
                          : !vis     ? SIEVE_STATE_OCCLUSION_CULLED
                          : flag     ? SIEVE_STATE_DRAWN_LATE
                                     : SIEVE_STATE_DRAWN_EARLY;
        state[i] = kind | (lod << SIEVE_STATE_LOD_SHIFT);
#endif
    }
    // Every invocation reaches the ballots (threads past the count vote false).
#if CULL_LATE
    countSubgroup(inFrustum, 0u);
    countSubgroup(vis, 2u);
    countSubgroup(flag, 3u);
#else
    countSubgroup(flag, 1u);
#endif
}
