// What one instance is in one view: the per-(instance, view) tests of the flag shaders (flag.glsl,
// included by flag_early.comp and flag_late.comp).
// The includer declares: views[] (CullParams), instances[], meshes[], primitives[], counters[]
// (CullCounters) and, with CULL_LATE, the pyramid sampler (view 0's Hi-Z: r = min, g = max depth).
//
// Instance fields are read when a view first needs them: the sphere only where a frustum, occlusion
// or LOD test looks at it, the kinds only for a view with a mask, the mesh and scale only for flagged
// instances.
struct InstanceCache {
    vec4 sphere;
    uint kinds;
    uint mesh;
    float scale;
    uint loaded;  // bits: 1 sphere, 2 kinds, 4 mesh + scale
};

InstanceCache emptyCache() {
    return InstanceCache(vec4(0.0), 0u, 0u, 1.0, 0u);
}

vec4 sphereOf(uint i, inout InstanceCache c) {
    if ((c.loaded & 1u) == 0u) {
        c.sphere = instances[i].sphere;
        c.loaded |= 1u;
    }
    return c.sphere;
}

uint kindsOf(uint i, inout InstanceCache c) {
    if ((c.loaded & 2u) == 0u) {
        c.kinds = instances[i].flags;
        c.loaded |= 2u;
    }
    return c.kinds;
}

void loadMesh(uint i, inout InstanceCache c) {
    if ((c.loaded & 4u) == 0u) {
        c.mesh = instances[i].mesh;
        c.scale = instances[i].scale;
        c.loaded |= 4u;
    }
}

// Kept by view v's instance mask, among the instances the phase tests.
bool keptBy(uint i, uint v, bool tested, inout InstanceCache c) {
    const uint mask = views[v].instanceMask;
    return tested && (mask == 0u || (kindsOf(i, c) & mask) == mask);
}

// Kept by view v's mask and in its frustum (frustum test off: kept), among the instances the phase tests.
// The kinds are read only for instances in the frustum: a shadow view's mask costs no read of the
// instances it cannot see.
bool inFrustumKept(uint i, uint v, bool tested, inout InstanceCache c) {
    return tested &&
           ((views[v].toggles & SIEVE_CULL_FRUSTUM) == 0u || sieveInFrustum(sphereOf(i, c), views[v])) &&
           keptBy(i, v, true, c);
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

// counters[v] += the subgroup's votes (which: 0 frustumVisible, 1 earlyDrawn, 2 lateVisible, 3
// lateDrawn). Every invocation of the subgroup must reach it.
void countSubgroup(bool b, uint v, uint which) {
    uint n = subgroupBallotBitCount(subgroupBallot(b));
    if (subgroupElect() && n > 0u) {
        switch (which) {
            case 0: atomicAdd(counters[v].frustumVisible, n); break;
            case 1: atomicAdd(counters[v].earlyDrawn, n); break;
            case 2: atomicAdd(counters[v].lateVisible, n); break;
            case 3: atomicAdd(counters[v].lateDrawn, n); break;
        }
    }
}

#if CULL_LATE
bool occluded(vec4 sphere, uint v) {
    CullOcclusionQuery q;
    if (!sieveOcclusionQuery(sphere, views[v], q)) return false;
    bool behind = true;
    for (uint y = q.y0; y <= q.y1; ++y)
        for (uint x = q.x0; x <= q.x1; ++x)
            behind = behind && sieveOccludedByTexel(q, texelFetch(pyramid, ivec2(x, y), int(q.mip)).rg, views[v]);
    return behind;
}

// In the frustum and not behind the pyramid (occlusion test off: in the frustum).
bool visibleOf(uint i, uint v, bool inFrustum, inout InstanceCache c) {
    return inFrustum && !((views[v].toggles & SIEVE_CULL_OCCLUSION) != 0u && occluded(sphereOf(i, c), v));
}

// cull.state of the main view (shared/cull_state.h).
uint stateOf(bool kept, bool inFrustum, bool vis, bool drawnEarly, uint lodEarly, uint lod) {
    if (drawnEarly) return SIEVE_STATE_DRAWN_EARLY | (lodEarly << SIEVE_STATE_LOD_SHIFT);
    if (!kept) return SIEVE_STATE_MASKED;
    if (!inFrustum) return SIEVE_STATE_FRUSTUM_CULLED;
    if (!vis) return SIEVE_STATE_OCCLUSION_CULLED;
    return SIEVE_STATE_DRAWN_LATE | (lod << SIEVE_STATE_LOD_SHIFT);
}
#endif
