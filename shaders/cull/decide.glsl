// What one instance is in one view: the per-(instance, view) tests of the flag shaders (flag.glsl,
// included by flag_early.comp and flag_late.comp).
// The includer declares: views[] (CullParams), instances[], bounds[], meshes[], primitives[], counterWords[]
// (CullCounterStripe as uints) and, with CULL_LATE, the pyramid sampler (view 0's Hi-Z: r = min, g = max depth) and
// occlusionView (the CullParams of the camera whose depth the pyramid holds).
//
// Instance fields are read when a view first needs them: the sphere only where a frustum, distance,
// occlusion or LOD test looks at it, the kinds only for a view with a mask, the cull distance only for a
// view with the distance test, the mesh and scale only for flagged instances.
struct InstanceCache {
    vec4 sphere;
    uint kinds;
    uint mesh;
    float scale;
    float cullDistance;
    uint loaded;  // bits: 1 sphere, 2 kinds, 4 mesh + scale, 8 cull distance
};

InstanceCache emptyCache() {
    return InstanceCache(vec4(0.0), 0u, 0u, 1.0, 0.0, 0u);
}

// True (once) when the fields of `bit` are not loaded yet; marks them loaded.
bool toLoad(uint bit, inout InstanceCache c) {
    const bool missing = (c.loaded & bit) == 0u;
    c.loaded |= bit;
    return missing;
}

vec4 sphereOf(uint i, inout InstanceCache c) {
    if (toLoad(1u, c)) c.sphere = bounds[i].sphere;
    return c.sphere;
}

uint kindsOf(uint i, inout InstanceCache c) {
    if (toLoad(2u, c)) c.kinds = instances[i].flags;
    return c.kinds;
}

float cullDistanceOf(uint i, inout InstanceCache c) {
    if (toLoad(8u, c)) c.cullDistance = instances[i].cullDistance;
    return c.cullDistance;
}

void loadMesh(uint i, inout InstanceCache c) {
    if (toLoad(4u, c)) {
        c.mesh = instances[i].mesh;
        c.scale = instances[i].scale;
    }
}

// Kept by view v's instance mask, among the instances the phase tests.
bool keptBy(uint i, uint v, bool tested, inout InstanceCache c) {
    const uint mask = views[v].instanceMask;
    return tested && (mask == 0u || (kindsOf(i, c) & mask) == mask);
}

// In view v: among the instances the phase tests, inside its frustum, kept by its mask and within its
// draw distance (each test only where its bit is on; sieve::kCullTests order). culledBy: the test that
// removed the instance (SIEVE_TEST_FRUSTUM or SIEVE_TEST_DISTANCE), else SIEVE_CULL_TEST_COUNT. The kinds
// are read only for instances in the frustum: a shadow view's mask costs no read of the instances it
// cannot see (its frustum count therefore includes instances of other kinds).
bool inViewKept(uint i, uint v, bool tested, inout InstanceCache c, out uint culledBy) {
    culledBy = SIEVE_CULL_TEST_COUNT;
    if (!tested) return false;
    const uint toggles = views[v].toggles;
    if ((toggles & SIEVE_CULL_FRUSTUM) != 0u && !sieveInFrustum(sphereOf(i, c), views[v])) {
        culledBy = SIEVE_TEST_FRUSTUM;
        return false;
    }
    if (!keptBy(i, v, true, c)) return false;
    const float own = (toggles & SIEVE_CULL_INSTANCE_DISTANCE) != 0u ? cullDistanceOf(i, c) : 0.0;
    if ((toggles & SIEVE_CULL_DISTANCE) != 0u && !sieveWithinDrawDistance(sphereOf(i, c), own, views[v])) {
        culledBy = SIEVE_TEST_DISTANCE;
        return false;
    }
    return true;
}

// LOD of an instance whose mesh index is valid (shared/cull.h sieveApplyLodBias); non-finite bounds
// and meshes without primitives get LOD 0.
uint selectLod(vec4 sphere, float scale, uint meshIndex, uint v) {
    if (!sieveSphereFinite(sphere)) return 0u;
    const Mesh mesh = meshes[meshIndex];
    const float dist = sieveLodDistance(sphere, views[v]);
    uint lod = SIEVE_MAX_LODS - 1u;
    bool any = false;
    for (uint k = 0u; k < mesh.primitiveCount; ++k) {
        const uint pi = mesh.firstPrimitive + k;
        if (pi >= uint(primitives.length())) break;
        lod = min(lod, sievePrimitiveLod(primitives[pi], scale, dist, views[v]));
        any = true;
    }
    return any ? sieveApplyLodBias(lod, views[v]) : 0u;
}

// The LOD view v draws a flagged instance with (LOD test off: 0); meshValid: its mesh index is valid.
uint lodOf(uint i, uint v, inout InstanceCache c, out bool meshValid) {
    loadMesh(i, c);
    meshValid = c.mesh < uint(meshes.length());
    if (!meshValid || (views[v].toggles & SIEVE_CULL_LOD) == 0u) return 0u;
    return selectLod(sphereOf(i, c), c.scale, c.mesh, v);
}

// Draws of a flagged instance with a valid mesh in bin b of binCount: its mesh's primitives in that
// bin, bins clamped to the last one.
uint binDraws(uint meshIndex, uint b, uint binCount) {
    const Mesh mesh = meshes[meshIndex];
    // Primitive indices past the table draw nothing (records.glsl skips them the same way).
    const uint table = uint(primitives.length());
    if (binCount == 1u) return mesh.firstPrimitive >= table ? 0u : min(mesh.primitiveCount, table - mesh.firstPrimitive);
    uint c = 0u;
    for (uint k = 0u; k < mesh.primitiveCount; ++k) {
        const uint pi = mesh.firstPrimitive + k;
        if (pi < uint(primitives.length()) && min(primitives[pi].bin, binCount - 1u) == b) ++c;
    }
    return c;
}

// Stripe (group index % SIEVE_CULL_COUNTER_STRIPES) of view v's counters (shared/cull.h CullCounterStripe)
// += the subgroup's votes (which: the CullCounters word, 0 frustumVisible, 1 earlyDrawn, 2 lateVisible, 3
// lateDrawn, 4 distanceCulled). Every invocation of the subgroup must reach it. Summing the workgroup's
// votes in shared memory first (one device atomic per workgroup) was measured slower on the H200 than
// padded stripes alone (bench/RESULTS.md, 2026-12-03 "counters").
void countSubgroup(bool b, uint v, uint which) {
    const uint n = subgroupBallotBitCount(subgroupBallot(b));
    const uint stripe = v * SIEVE_CULL_COUNTER_STRIPES + sieve_group_index() % SIEVE_CULL_COUNTER_STRIPES;
    if (subgroupElect() && n > 0u) atomicAdd(counterWords[stripe * SIEVE_CULL_STRIPE_WORDS + which], n);
}

// The distance test's count, where view v runs it (a uniform branch: the whole subgroup takes it or not).
void countDistanceCulled(uint culledBy, uint v) {
    if ((views[v].toggles & SIEVE_CULL_DISTANCE) != 0u) countSubgroup(culledBy == SIEVE_TEST_DISTANCE, v, 4u);
}

#if CULL_LATE
#include "cull/occlusion.glsl"

// Behind the pyramid as the camera that drew its depth saw the sphere (occlusionView).
bool occluded(vec4 sphere) {
    return sieveOccludedInPyramid(pyramid, sphere, occlusionView);
}

// In the frustum and not behind the pyramid (occlusion test off: in the frustum).
bool visibleOf(uint i, uint v, bool inFrustum, inout InstanceCache c) {
    return inFrustum && !((views[v].toggles & SIEVE_CULL_OCCLUSION) != 0u && occluded(sphereOf(i, c)));
}

// cull.state of the main view (shared/cull_state.h).
uint stateOf(bool kept, uint culledBy, bool vis, bool drawnEarly, uint lodEarly, uint lod) {
    if (drawnEarly) return SIEVE_STATE_DRAWN_EARLY | (lodEarly << SIEVE_STATE_LOD_SHIFT);
    if (!kept) return SIEVE_STATE_MASKED;
    if (culledBy == SIEVE_TEST_FRUSTUM) return SIEVE_STATE_FRUSTUM_CULLED;
    if (culledBy == SIEVE_TEST_DISTANCE) return SIEVE_STATE_DISTANCE_CULLED;
    if (!vis) return SIEVE_STATE_OCCLUSION_CULLED;
    return SIEVE_STATE_DRAWN_LATE | (lod << SIEVE_STATE_LOD_SHIFT);
}
#endif
