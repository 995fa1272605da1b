// Culling flags of every view of the frame, early or late phase (CULL_LATE 0/1, defined by
// flag_early.comp / flag_late.comp: the late phase binds resources the early one does not have, so the
// variants are two entry files rather than a specialization constant, which would leave those bindings
// statically used). An invocation reads an instance's bounds once and tests them in every view; the early phase
// may take four instances per invocation (main, below). flag_defer.comp and flag_candidates.comp (CULL_DEFER,
// CULL_CANDIDATES, both late) are the two dispatches of the split late pass (shared/cull.h SIEVE_CULL_CANDIDATE_*):
// the first defers view 0's instances in view that lie sparse in their subgroup to candidate lists, the second
// decides those alone (main, below); together they write what the late shader writes.
//
// Per view v (CullParams views[v]; arrays indexed vi = v * N + i, see shared/cull.h CullFlagPush):
//   kept  = (instance.flags & mask) == mask; inFrustum = kept && frustum && distance tests (each on or off)
//   early: flag = twoPhase && visibleLast[vi] && inFrustum, or, for an EARLY view, flag = inFrustum
//   late:  vis = inFrustum && !occluded; drawnEarly = twoPhase && inFrustum && visibleLast[vi] (the value the
//          early phase read: the late shader reads it before it writes it, and the early phase's test of the
//          view is the same), flag = vis && !drawnEarly; visibleLast[vi] = vis
// EARLY views (SIEVE_CULL_EARLY: no occlusion, no second phase) are culled completely by the early
// shader and never given to the late one; other views without TWO_PHASE (and all views of a
// single-phase frame, where the late shader runs in the early slot) completely by the late shader.
// Occlusion reads the one pyramid, view 0's (only view 0 may have SIEVE_CULL_OCCLUSION), through the camera
// that drew the depth it was built from (occlusionView): view 0 itself when the pyramid is this frame's,
// the earlier camera when it is an earlier frame's (single phase, freeze), so that a sphere is looked up
// where that camera saw it.
// Outputs: flags[vi] (early phase: two-phase views only, the others' entries are not written, and none unless
// the caller reads them: CullFlagPush::options without SIEVE_FLAG_PUSH_NO_EARLY_FLAGS; late phase: unless it has
// SIEVE_FLAG_PUSH_NO_LATE_FLAGS), lods[vi] (written only where flagged), drawCounts[(v * B + b) * N + i] = primitives of the
// instance's mesh in bin b (bins >= B count as bin B - 1) when flagged, else 0, and with CullFlagPush::markEpoch the
// draw mark of every non-zero one set to it (shared/draw_push.h SIEVE_DRAW_MARK_KEYS); view v's counters
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
layout(local_size_x = SIEVE_FLAG_GROUP_SIZE) in;
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
layout(set = 0, binding = SIEVE_FLAG_DRAW_MARKS, std430) buffer DrawMarks { uint drawMarks[]; };
#if CULL_LATE
layout(set = 0, binding = SIEVE_FLAG_PYRAMID) uniform sampler2D pyramid;  // Hi-Z of view 0, r = min, g = max depth
layout(set = 0, binding = SIEVE_FLAG_LODS_EARLY, std430) readonly buffer LodsEarly { uint lodsEarly[]; };
layout(set = 0, binding = SIEVE_FLAG_STATE, std430) writeonly buffer State { uint state[]; };
layout(set = 0, binding = SIEVE_FLAG_OCCLUSION_VIEW, std140) uniform OcclusionView { CullParams occlusionView; };
#endif
#if CULL_DEFER || CULL_CANDIDATES
layout(set = 0, binding = SIEVE_FLAG_CANDIDATES, std430) buffer Candidates { uint candidateWords[]; };
#endif

layout(push_constant) uniform Push { CullFlagPush pc; };

#include "cull/decide.glsl"

// Marks the group of `key` (a non-zero draw count) with the frame's epoch (shared/draw_push.h): one atomic per
// invocation with a draw. A loop that made one per group (subgroupBroadcastFirst until every invocation's group was
// marked) made the early pass 5-9 us slower on the H200 even where it never ran (bench/RESULTS.md, session 14).
void markDraw(uint key) {
    const uint group = key / SIEVE_DRAW_MARK_KEYS;
    if (group < uint(drawMarks.length())) atomicExchange(drawMarks[group], pc.markEpoch);
}

// Draw counts of an instance in view v per bin (0 unless flagged with a valid mesh), each non-zero one marked
// where the caller asked for marks (CullFlagPush::markEpoch).
void writeDrawCounts(uint i, uint v, bool flag, bool meshValid, uint meshIndex) {
    const uint n = pc.instanceCount;
    for (uint b = 0u; b < pc.binCount; ++b) {
        const uint key = sieveKey(sieveStream(v, b, pc.binCount), i, n);
        const uint count = flag && meshValid ? binDraws(meshIndex, b, pc.binCount) : 0u;
        drawCounts[key] = count;
        if (count != 0u && pc.markEpoch != 0u) markDraw(key);
    }
}

#if CULL_LATE
// The late decision of instance i in view v once its view tests are done (inFrustum: kept, in its frustum and
// within its distances; culledBy): occlusion, what the early phase drew, the LOD; writes every output of (i, v)
// where `write` (tested: among the instances the phase tests, for the state's "kept by the mask"), and counts the
// visible and the drawn (every invocation of the subgroup must reach it).
void decideLate(uint i, uint v, bool write, bool tested, bool inFrustum, uint culledBy, inout InstanceCache cache) {
    const uint vi = sieveKey(v, i, pc.instanceCount);
    const bool twoPhase = (views[v].toggles & SIEVE_CULL_TWO_PHASE) != 0u;
    const bool vis = visibleOf(i, v, inFrustum, cache);
    // The early phase flagged exactly the instances in the frustum (the same test of the same view) that were
    // visible last frame; visibleLast is read only there, before this invocation overwrites it. (Issuing this
    // load and the mesh's before the occlusion test was measured slower: bench/RESULTS.md, session 13.)
    const bool drawnEarly = twoPhase && inFrustum && visibleLast[vi] != 0u;
    const bool flag = vis && !drawnEarly;
    bool meshValid = false;
    const uint lod = flag ? lodOf(i, v, cache, meshValid) : 0u;
    if (write) {
        visibleLast[vi] = vis ? 1u : 0u;
        if ((pc.options & SIEVE_FLAG_PUSH_NO_LATE_FLAGS) == 0u) flags[vi] = flag ? 1u : 0u;
        // Read only where flagged (draw counts > 0, lodsEarly of instances drawn early).
        if (flag) lods[vi] = lod;
        writeDrawCounts(i, v, flag, meshValid, cache.mesh);
        if (v == 0u && (pc.options & SIEVE_FLAG_PUSH_NO_STATE) == 0u)
            state[i] = stateOf(keptBy(i, v, tested, cache), culledBy, vis, drawnEarly, drawnEarly ? lodsEarly[i] : 0u, lod);
    }
    countSubgroup(vis, v, 2u);
    countSubgroup(flag, v, 3u);
}
#endif

#if CULL_DEFER
// The split late pass defers view 0's instances in view when view 0 tests occlusion (a uniform answer).
bool deferredOcclusion() {
    return (views[0].toggles & SIEVE_CULL_OCCLUSION) != 0u;
}

// Appends the subgroup's instances with `listed` to its workgroup's candidate list (one atomic per subgroup, in any
// order: the outputs are per instance) and raises the second dispatch's workgroups to cover the list (an atomic
// only where the list grows past a multiple of the workgroup size). Every invocation of the subgroup must reach
// it; where a subgroup runs split, each part appends its own.
void appendCandidate(uint i, bool listed) {
    const uvec4 ballot = subgroupBallot(listed);
    const uint k = subgroupBallotBitCount(ballot);
    if (k == 0u) return;
    const uint list = sieve_group_index() % SIEVE_CULL_CANDIDATE_LISTS;
    const uint capacity = sieveCandidateListCapacity(pc.instanceCount);
    uint base = 0u;
    if (subgroupElect()) {
        base = atomicAdd(candidateWords[(list + 1u) * SIEVE_CULL_CANDIDATE_LINE_WORDS], k);
        const uint before = (base + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;
        const uint after = (base + k + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;
        if (after > before) atomicMax(candidateWords[0], min(after, SIEVE_CULL_CANDIDATE_MAX_GROUPS));
    }
    base = subgroupBroadcastFirst(base);
    const uint slot = base + subgroupBallotExclusiveBitCount(ballot);
    const uint at = SIEVE_CULL_CANDIDATE_HEADER_WORDS + list * capacity + slot;
    if (listed && slot < capacity && at < uint(candidateWords.length())) candidateWords[at] = i;
}
#endif

// Instance i's flags in every view. last0 (early phase): view 0's visibleLast of it, loaded by main where view 0
// reads it (two-phase and not EARLY), else unread; the late phase ignores it.
void flagInstance(uint i, uint last0) {
    InstanceCache cache = emptyCache();
#if !CULL_LATE
    const bool earlyFlags = (pc.options & SIEVE_FLAG_PUSH_NO_EARLY_FLAGS) == 0u;
#endif
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
                if (twoPhase && earlyFlags) flags[vi] = 0u;
                writeDrawCounts(i, v, false, false, 0u);
            }
            continue;
        }
#endif
        uint culledBy;
        const bool inFrustum = inViewKept(i, v, tested, cache, culledBy);
#if CULL_LATE
        // Every invocation reaches the ballots (threads past the count vote false).
        countSubgroup(inFrustum, v, 0u);
        countDistanceCulled(culledBy, v);
#if CULL_DEFER
        // View 0's instances in view of a sparse subgroup wait for the second dispatch (deferredOcclusion); here
        // they are neither written nor counted as visible or drawn.
        bool deferred = false;
        if (v == 0u && deferredOcclusion()) {
            // The same answer for every invocation of the subgroup (or of the part of it that runs here).
            const uint inView = subgroupBallotBitCount(subgroupBallot(inFrustum));
            const bool sparse = (pc.options & SIEVE_FLAG_PUSH_DEFER_ALL) != 0u || inView * 4u <= gl_SubgroupSize;
            if (sparse) appendCandidate(i, inFrustum);
            deferred = sparse && inFrustum;
        }
#else
        const bool deferred = false;
#endif
        decideLate(i, v, valid && !deferred, tested, inFrustum && !deferred, culledBy, cache);
#else
        const bool flag = inFrustum;  // `tested` holds the phase's rule
        bool meshValid = false;
        const uint lod = flag ? lodOf(i, v, cache, meshValid) : 0u;
        if (valid) {
            // Only a caller that reads them gets them (the late phase derives them).
            if (twoPhase && earlyFlags) flags[vi] = flag ? 1u : 0u;
            // Read only where flagged (draw counts > 0).
            if (flag) lods[vi] = lod;
            writeDrawCounts(i, v, flag, meshValid, cache.mesh);
        }
        countSubgroup(flag, v, 1u);
        // An EARLY view's whole test happens here.
        countSubgroup(earlyView && inFrustum, v, 0u);
        countSubgroup(earlyView && inFrustum, v, 2u);
        countDistanceCulled(earlyView ? culledBy : SIEVE_CULL_TEST_COUNT, v);
#endif
    }
}

#if CULL_CANDIDATES
// The split late pass's second dispatch: row y of workgroups takes candidate list y (view 0's instances in view,
// appended by the first), striding over it when it holds more than SIEVE_CULL_CANDIDATE_MAX_GROUPS workgroups'
// worth. Each candidate's outputs are written as the one-dispatch late shader writes them; its frustum and
// distance counts were counted by the first dispatch.
void main() {
    const uint list = gl_WorkGroupID.y;
    const uint capacity = sieveCandidateListCapacity(pc.instanceCount);
    const uint start = SIEVE_CULL_CANDIDATE_HEADER_WORDS + list * capacity;
    const uint count = min(candidateWords[(list + 1u) * SIEVE_CULL_CANDIDATE_LINE_WORDS], capacity);
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    // `first` is the same for the whole workgroup, so every invocation reaches the ballots of each round.
    for (uint first = gl_WorkGroupID.x * gl_WorkGroupSize.x; first < count; first += stride) {
        const uint c = first + gl_LocalInvocationID.x;
        const bool has = c < count && start + c < uint(candidateWords.length());
        const uint i = has ? candidateWords[start + c] : 0u;
        const bool valid = has && i < pc.instanceCount;
        InstanceCache cache = emptyCache();
        decideLate(i, 0u, valid, true, valid, SIEVE_CULL_TEST_COUNT, cache);
    }
}
#elif CULL_LATE
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
