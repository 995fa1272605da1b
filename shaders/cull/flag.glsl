// Culling flags of every view of the frame, early or late phase (CULL_LATE 0/1, defined by
// flag_early.comp / flag_late.comp: the late phase binds resources the early one does not have, so the
// variants are two entry files rather than a specialization constant, which would leave those bindings
// statically used). An invocation reads an instance's bounds once and tests them in every view; the early phase
// may take four instances per invocation (main, below).
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
// reads them; late phase: unless CullFlagPush::options has SIEVE_FLAG_PUSH_NO_LATE_FLAGS), lods[vi] (written only where flagged), drawCounts[(v * B + b) * N + i] = primitives of the
// instance's mesh in bin b (bins >= B count as bin B - 1) when flagged, else 0; view v's counters
// (shared/cull.h CullCounterStripe) += per-subgroup counts. Late only: state[i] (shared/cull_state.h), view 0's decision,
// unless CullFlagPush::options has SIEVE_FLAG_PUSH_NO_STATE.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_ballot : require
#include "shared/dispatch.h"
#include "shared/scene.h"
#include "shared/cull.h"
#include "shared/cull_bindings.h"
#include "shared/cull_state.h"
#include "shared/draw_push.h"

// 128 invocations (the Vulkan minimum of maxComputeWorkGroupInvocations): on the H200 the early pass at
// 10M instances takes 72 us in workgroups of 128 against 107 in workgroups of 64 (bench/RESULTS.md,
// 2026-12-03 "counters").
layout(local_size_x = 128) in;
// A uniform block: every invocation reads the same views, which the constant cache serves best.
layout(set = 0, binding = SIEVE_FLAG_VIEWS, std140) uniform Views { CullParams views[SIEVE_MAX_CULL_VIEWS]; };
layout(set = 0, binding = SIEVE_FLAG_INSTANCES, std430) readonly buffer Instances { Instance instances[]; };
layout(set = 0, binding = SIEVE_FLAG_BOUNDS, std430) readonly buffer Bounds { InstanceBounds bounds[]; };
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
layout(set = 0, binding = SIEVE_FLAG_COUNTERS, std430) buffer Counters { uint counterWords[]; };
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

// Instance i's flags in every view. last0 (early phase): view 0's visibleLast of it, loaded by main where view 0
// reads it (two-phase and not EARLY), else unread; the late phase ignores it.
void flagInstance(uint i, uint last0) {
    InstanceCache cache = emptyCache();
    const uint n = pc.instanceCount;
    const bool valid = i < n;
    for (uint v = 0u; v < pc.viewCount; ++v) {
        const uint toggles = views[v].toggles;
        const bool twoPhase = (toggles & SIEVE_CULL_TWO_PHASE) != 0u;
        const uint vi = sieveKey(v, i, n);
#if CULL_LATE
        const bool tested = valid;
#else
        const bool earlyView = (toggles & SIEVE_CULL_EARLY) != 0u;
        const bool tested = valid && (earlyView || (twoPhase && (v == 0u ? last0 : visibleLast[vi]) != 0u));
        // A subgroup with nothing to test (most of them: few instances were visible last frame) flags nothing
        // and counts nothing: its zeros are written and the tests, ballots and counter atomics skipped. The
        // ballot is the same for every invocation that takes it, so the subgroup leaves together.
        if (subgroupBallot(tested) == uvec4(0u)) {
            if (valid) {
                if (twoPhase) flags[vi] = 0u;
                writeDrawCounts(i, v, false, false, 0u);
            }
            continue;
        }
#endif
        uint culledBy;
        const bool inFrustum = inViewKept(i, v, tested, cache, culledBy);
#if CULL_LATE
        const bool vis = visibleOf(i, v, inFrustum, cache);
        // The early flags are read only in the frustum: the early phase flagged only instances in it (the same
        // test of the same view), so elsewhere they are 0.
        const bool drawnEarly = twoPhase && inFrustum && flagsEarly[vi] != 0u;
        const bool flag = vis && !drawnEarly;
        if (valid) visibleLast[vi] = vis ? 1u : 0u;
#else
        const bool flag = inFrustum;  // `tested` holds the phase's rule
#endif
        bool meshValid = false;
        const uint lod = flag ? lodOf(i, v, cache, meshValid) : 0u;
        if (valid) {
#if CULL_LATE
            if ((pc.options & SIEVE_FLAG_PUSH_NO_LATE_FLAGS) == 0u) flags[vi] = flag ? 1u : 0u;
#else
            // Only the late phase of a two-phase view reads them (flagsEarly).
            if (twoPhase) flags[vi] = flag ? 1u : 0u;
#endif
            // Read only where flagged (draw counts > 0, lodsEarly of instances drawn early).
            if (flag) lods[vi] = lod;
            writeDrawCounts(i, v, flag, meshValid, cache.mesh);
        }
#if CULL_LATE
        if (v == 0u && valid && (pc.options & SIEVE_FLAG_PUSH_NO_STATE) == 0u)
            state[i] = stateOf(keptBy(i, v, tested, cache), culledBy, vis, drawnEarly, drawnEarly ? lodsEarly[i] : 0u,
                               lod);
        // Every invocation reaches the ballots (threads past the count vote false).
        countSubgroup(inFrustum, v, 0u);
        countSubgroup(vis, v, 2u);
        countSubgroup(flag, v, 3u);
        countDistanceCulled(culledBy, v);
#else
        countSubgroup(flag, v, 1u);
        // An EARLY view's whole test happens here.
        countSubgroup(earlyView && inFrustum, v, 0u);
        countSubgroup(earlyView && inFrustum, v, 2u);
        countDistanceCulled(earlyView ? culledBy : SIEVE_CULL_TEST_COUNT, v);
#endif
    }
}

#if CULL_LATE
void main() {
    flagInstance(sieve_group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x, 0u);
}
#else
// One instance per invocation, or with SIEVE_FLAG_PUSH_EARLY_ROUNDS four (shared/cull.h SIEVE_FLAG_EARLY_ROUNDS):
// invocation l of workgroup g takes instances (g * 4 + r) * 128 + l, r < 4, and loads view 0's visibleLast of
// all four before testing any, so that four loads are in flight instead of one. They are held in named
// variables: an array indexed by the round went to local or shared memory on the H200 (bench/RESULTS.md,
// session 10).
void main() {
    const uint n = pc.instanceCount;
    const uint rounds = (pc.options & SIEVE_FLAG_PUSH_EARLY_ROUNDS) != 0u ? SIEVE_FLAG_EARLY_ROUNDS : 1u;
    const uint first = sieve_group_index() * rounds * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    const uint t0 = views[0].toggles;
    const bool load = (t0 & SIEVE_CULL_TWO_PHASE) != 0u && (t0 & SIEVE_CULL_EARLY) == 0u;  // view 0 reads it
    uint l0 = 0u, l1 = 0u, l2 = 0u, l3 = 0u;
    if (load) {
        const uint step = gl_WorkGroupSize.x;
        if (first < n) l0 = visibleLast[first];
        if (rounds > 1u && first + step < n) l1 = visibleLast[first + step];
        if (rounds > 1u && first + 2u * step < n) l2 = visibleLast[first + 2u * step];
        if (rounds > 1u && first + 3u * step < n) l3 = visibleLast[first + 3u * step];
    }
    for (uint r = 0u; r < rounds; ++r)
        flagInstance(first + r * gl_WorkGroupSize.x, r == 0u ? l0 : r == 1u ? l1 : r == 2u ? l2 : l3);
}
#endif
