// Culling flags of every view of the frame, early or late phase (CULL_LATE 0/1, defined by
// flag_early.comp / flag_late.comp: the late phase binds resources the early one does not have, so the
// variants are two entry files rather than a specialization constant, which would leave those bindings
// statically used). One invocation per instance reads its bounds once and tests them in every view.
//
// Per view v (CullParams views[v]; arrays indexed vi = v * N + i, see shared/cull.h CullFlagPush):
//   kept  = (instance.flags & mask) == mask; inFrustum = kept && frustum && distance tests (each on or off)
//   early: flag = twoPhase && visibleLast[vi] && inFrustum, or, for an EARLY view, flag = inFrustum
//   late:  vis = inFrustum && !occluded; flag = vis && !(twoPhase && flagsEarly[vi]); visibleLast[vi] = vis
// EARLY views (SIEVE_CULL_EARLY: no occlusion, no second phase) are culled completely by the early
// shader and never given to the late one; other views without TWO_PHASE (and all views of a
// single-phase frame, where the late shader runs in the early slot) completely by the late shader.
// Occlusion reads the one pyramid, view 0's (only view 0 may have SIEVE_CULL_OCCLUSION), through the camera
// that drew the depth it was built from (occlusionView): view 0 itself when the pyramid is this frame's,
// the earlier camera when it is an earlier frame's (single phase, freeze), so that a sphere is looked up
// where that camera saw it.
// Outputs: flags[vi] (early phase: two-phase views only, the others' entries are not written: nothing
// reads them), lods[vi] (written only where flagged), drawCounts[(v * B + b) * N + i] = primitives of the
// instance's mesh in bin b (bins >= B count as bin B - 1) when flagged, else 0; counters[v] (shared/cull.h
// CullCounters) += per-subgroup counts. Late only: state[i] (shared/cull_state.h), view 0's decision.
// The late shader works in batches (shared/cull.h SIEVE_FLAG_LATE_GROUP, _ROUNDS): a sweep tests every
// instance of the batch against the frustum, mask and distance and finishes those out of view; the ones in
// view are gathered in shared memory and tested for occlusion one per invocation, so that the occlusion
// test and the LOD choice run on full subgroups whatever the order of the instance table (in niagara's
// random placement order a subgroup of one instance per invocation held one or two instances in view).
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_ballot : require
#include "shared/dispatch.h"
#include "shared/scene.h"
#include "shared/cull.h"
#include "shared/cull_bindings.h"
#include "shared/cull_state.h"
#include "shared/draw_push.h"

#if CULL_LATE
layout(local_size_x = SIEVE_FLAG_LATE_GROUP) in;
#else
layout(local_size_x = 64) in;
#endif
// A uniform block: every invocation reads the same views, which the constant cache serves best.
layout(set = 0, binding = SIEVE_FLAG_VIEWS, std140) uniform Views { CullParams views[SIEVE_MAX_CULL_VIEWS]; };
layout(set = 0, binding = SIEVE_FLAG_INSTANCES, std430) readonly buffer Instances { Instance instances[]; };
layout(set = 0, binding = SIEVE_FLAG_MESHES, std430) readonly buffer Meshes { Mesh meshes[]; };
layout(set = 0, binding = SIEVE_FLAG_PRIMITIVES, std430) readonly buffer Primitives { MeshPrimitive primitives[]; };
#if CULL_LATE
layout(set = 0, binding = SIEVE_FLAG_VISIBLE_LAST, std430) buffer VisibleLast { uint visibleLast[]; };
#else
layout(set = 0, binding = SIEVE_FLAG_VISIBLE_LAST, std430) readonly buffer VisibleLast { uint visibleLast[]; };
#endif
layout(set = 0, binding = SIEVE_FLAG_FLAGS, std430) writeonly buffer Flags { uint flags[]; };
layout(set = 0, binding = SIEVE_FLAG_DRAW_COUNTS, std430) writeonly buffer DrawCounts { uint drawCounts[]; };
layout(set = 0, binding = SIEVE_FLAG_LODS, std430) writeonly buffer Lods { uint lods[]; };
layout(set = 0, binding = SIEVE_FLAG_COUNTERS, std430) buffer Counters { CullCounters counters[]; };
#if CULL_LATE
layout(set = 0, binding = SIEVE_FLAG_FLAGS_EARLY, std430) readonly buffer FlagsEarly { uint flagsEarly[]; };
layout(set = 0, binding = SIEVE_FLAG_PYRAMID) uniform sampler2D pyramid;  // Hi-Z of view 0, r = min, g = max depth
layout(set = 0, binding = SIEVE_FLAG_LODS_EARLY, std430) readonly buffer LodsEarly { uint lodsEarly[]; };
layout(set = 0, binding = SIEVE_FLAG_STATE, std430) writeonly buffer State { uint state[]; };
layout(set = 0, binding = SIEVE_FLAG_OCCLUSION_VIEW, std140) uniform OcclusionView { CullParams occlusionView; };
#endif

layout(push_constant) uniform Push { CullFlagPush pc; };

#include "cull/decide.glsl"

// Draw counts of an instance in view v per bin (0 unless flagged with a valid mesh).
void writeDrawCounts(uint i, uint v, bool flag, bool meshValid, uint meshIndex) {
    const uint n = pc.instanceCount;
    for (uint b = 0u; b < pc.binCount; ++b)
        drawCounts[sieveKey(sieveStream(v, b, pc.binCount), i, n)] = flag && meshValid ? binDraws(meshIndex, b, pc.binCount) : 0u;
}

#if !CULL_LATE
void main() {
    const uint i = sieve_group_index() * 64u + gl_LocalInvocationID.x;
    const uint n = pc.instanceCount;
    const bool valid = i < n;
    InstanceCache cache = emptyCache();
    for (uint v = 0u; v < pc.viewCount; ++v) {
        const uint toggles = views[v].toggles;
        const bool twoPhase = (toggles & SIEVE_CULL_TWO_PHASE) != 0u;
        const uint vi = sieveKey(v, i, n);
        const bool earlyView = (toggles & SIEVE_CULL_EARLY) != 0u;
        const bool tested = valid && (earlyView || (twoPhase && visibleLast[vi] != 0u));
        uint culledBy;
        const bool flag = inViewKept(i, v, tested, cache, culledBy);  // `tested` holds the phase's rule
        bool meshValid = false;
        const uint lod = flag ? lodOf(i, v, cache, meshValid) : 0u;
        if (valid) {
            // Only the late phase of a two-phase view reads them (flagsEarly).
            if (twoPhase) flags[vi] = flag ? 1u : 0u;
            // Read only where flagged (draw counts > 0, lodsEarly of instances drawn early).
            if (flag) lods[vi] = lod;
            writeDrawCounts(i, v, flag, meshValid, cache.mesh);
        }
        countSubgroup(flag, v, 1u);
        // An EARLY view's whole test happens here.
        countSubgroup(earlyView && flag, v, 0u);
        countSubgroup(earlyView && flag, v, 2u);
        countDistanceCulled(earlyView ? culledBy : SIEVE_CULL_TEST_COUNT, v);
    }
}
#else
// Instances of this workgroup's batch in view v, gathered by the sweep (indices relative to the batch).
shared uint s_inView[SIEVE_FLAG_LATE_GROUP * SIEVE_FLAG_LATE_ROUNDS];
shared uint s_inViewCount;

// Outputs of instance i in view v once its decision is known (kept, culledBy: as inViewKept gave them).
void writeLate(uint i, uint v, bool vis, bool drawnEarly, bool kept, uint culledBy, inout InstanceCache cache) {
    const uint vi = sieveKey(v, i, pc.instanceCount);
    const bool flag = vis && !drawnEarly;
    bool meshValid = false;
    const uint lod = flag ? lodOf(i, v, cache, meshValid) : 0u;
    visibleLast[vi] = vis ? 1u : 0u;
    flags[vi] = flag ? 1u : 0u;
    if (flag) lods[vi] = lod;  // read only where flagged
    writeDrawCounts(i, v, flag, meshValid, cache.mesh);
    if (v == 0u) state[i] = stateOf(kept, culledBy, vis, drawnEarly, drawnEarly ? lodsEarly[i] : 0u, lod);
}

bool drawnEarlyIn(uint i, uint v) {
    return (views[v].toggles & SIEVE_CULL_TWO_PHASE) != 0u && flagsEarly[sieveKey(v, i, pc.instanceCount)] != 0u;
}

// The sweep: every instance of the batch against the frustum, the mask and the draw distance. Those out of
// view are finished here; those in view are gathered for the occlusion test.
void sweep(uint first, uint v) {
    const uint n = pc.instanceCount;
    for (uint r = 0u; r < SIEVE_FLAG_LATE_ROUNDS; ++r) {
        const uint local = r * SIEVE_FLAG_LATE_GROUP + gl_LocalInvocationID.x;
        const uint i = first + local;
        const bool valid = i < n;
        InstanceCache cache = emptyCache();
        uint culledBy;
        const bool inView = inViewKept(i, v, valid, cache, culledBy);
        if (inView) s_inView[atomicAdd(s_inViewCount, 1u)] = local;
        if (valid && !inView) writeLate(i, v, false, drawnEarlyIn(i, v), keptBy(i, v, true, cache), culledBy, cache);
        countSubgroup(inView, v, 0u);
        countDistanceCulled(culledBy, v);
    }
}

// The instances of the batch in view, one per invocation: occlusion, LOD, outputs.
void testGathered(uint first, uint v) {
    const uint count = s_inViewCount;  // the same for the whole workgroup: the loop is uniform
    for (uint base = 0u; base < count; base += SIEVE_FLAG_LATE_GROUP) {
        const uint k = base + gl_LocalInvocationID.x;
        const bool has = k < count;
        const uint i = has ? first + s_inView[k] : 0u;
        InstanceCache cache = emptyCache();
        const bool vis = has && visibleOf(i, v, true, cache);
        const bool drawnEarly = has && drawnEarlyIn(i, v);
        if (has) writeLate(i, v, vis, drawnEarly, true, SIEVE_CULL_TEST_COUNT, cache);
        countSubgroup(vis, v, 2u);
        countSubgroup(vis && !drawnEarly, v, 3u);
    }
}

void main() {
    const uint first = sieve_group_index() * (SIEVE_FLAG_LATE_GROUP * SIEVE_FLAG_LATE_ROUNDS);
    for (uint v = 0u; v < pc.viewCount; ++v) {
        if (gl_LocalInvocationID.x == 0u) s_inViewCount = 0u;
        barrier();
        sweep(first, v);
        barrier();
        testGathered(first, v);
        barrier();  // the list is read before the next view clears it
    }
}
#endif
