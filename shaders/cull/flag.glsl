// Culling flags of every view of the frame, early or late phase (CULL_LATE 0/1, defined by
// flag_early.comp / flag_late.comp: the late phase binds resources the early one does not have, so the
// variants are two entry files rather than a specialization constant, which would leave those bindings
// statically used). One invocation per instance reads its bounds once and tests them in every view.
//
// Per view v (CullParams views[v]; arrays indexed vi = v * N + i, see shared/cull.h CullFlagPush):
//   kept  = (instance.flags & mask) == mask; inFrustum = kept && frustum test (toggle off: kept)
//   early: flag = twoPhase && visibleLast[vi] && inFrustum, or, for an EARLY view, flag = inFrustum
//   late:  vis = inFrustum && !occluded; flag = vis && !(twoPhase && flagsEarly[vi]); visibleLast[vi] = vis
// EARLY views (SIEVE_CULL_EARLY: no occlusion, no second phase) are culled completely by the early
// shader and never given to the late one; other views without TWO_PHASE (and all views of a
// single-phase frame, where the late shader runs in the early slot) completely by the late shader.
// Occlusion reads the one pyramid, view 0's (only view 0 may have SIEVE_CULL_OCCLUSION).
// Outputs: flags[vi], lods[vi] (flag ? LOD : 0), drawCounts[(v * B + b) * N + i] = primitives of the
// instance's mesh in bin b (bins >= B count as bin B - 1) when flagged, else 0; counters[v] (shared/cull.h
// CullCounters) += per-subgroup counts. Late only: state[i] (shared/cull_state.h), view 0's decision.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_ballot : require
#include "shared/dispatch.h"
#include "shared/scene.h"
#include "shared/cull.h"
#include "shared/cull_state.h"

layout(local_size_x = 64) in;
// A uniform block: every invocation reads the same views, which the constant cache serves best.
layout(set = 0, binding = 0, std140) uniform Views { CullParams views[SIEVE_MAX_CULL_VIEWS]; };
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
layout(set = 0, binding = 8, std430) buffer Counters { CullCounters counters[]; };
#if CULL_LATE
layout(set = 0, binding = 9, std430) readonly buffer FlagsEarly { uint flagsEarly[]; };
layout(set = 0, binding = 10) uniform sampler2D pyramid;  // Hi-Z of view 0, r = min, g = max depth
layout(set = 0, binding = 11, std430) readonly buffer LodsEarly { uint lodsEarly[]; };
layout(set = 0, binding = 12, std430) writeonly buffer State { uint state[]; };
#endif

layout(push_constant) uniform Push { CullFlagPush pc; };

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
#endif

// Draw counts of a flagged instance per bin: its mesh's primitives, bins clamped to the last one.
void writeDrawCounts(uint i, uint v, bool flag, bool meshValid, uint meshIndex) {
    const uint n = pc.instanceCount;
    uint first = 0u;
    uint count = 0u;
    if (flag && meshValid) {
        first = meshes[meshIndex].firstPrimitive;
        count = meshes[meshIndex].primitiveCount;
    }
    for (uint b = 0u; b < pc.binCount; ++b) {
        uint c = 0u;
        if (pc.binCount == 1u) {
            c = count;
        } else {
            for (uint k = 0u; k < count; ++k) {
                const uint pi = first + k;
                if (pi < uint(primitives.length()) && min(primitives[pi].bin, pc.binCount - 1u) == b) ++c;
            }
        }
        drawCounts[(v * pc.binCount + b) * n + i] = c;
    }
}

// Instance fields are read when a view first needs them: the sphere only where a frustum, occlusion
// or LOD test looks at it (the early phase of the main view: only for last frame's visible set), the
// kinds only for a view with a mask, the mesh and scale only for flagged instances.
struct InstanceCache {
    vec4 sphere;
    uint kinds;
    uint mesh;
    float scale;
    uint loaded;  // bits: 1 sphere, 2 kinds, 4 mesh + scale
};

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

void main() {
    const uint i = sieve_group_index() * 64u + gl_LocalInvocationID.x;
    const uint n = pc.instanceCount;
    const bool valid = i < n;
    InstanceCache cache = InstanceCache(vec4(0.0), 0u, 0u, 1.0, 0u);
    for (uint v = 0u; v < pc.viewCount; ++v) {
        const uint toggles = views[v].toggles;
        const bool frustumOn = (toggles & SIEVE_CULL_FRUSTUM) != 0u;
        const bool twoPhase = (toggles & SIEVE_CULL_TWO_PHASE) != 0u;
        const uint mask = views[v].instanceMask;
        const uint vi = v * n + i;
#if CULL_LATE
        const bool tested = valid;
#else
        const bool earlyView = (toggles & SIEVE_CULL_EARLY) != 0u;
        const bool tested = valid && (earlyView || (twoPhase && visibleLast[vi] != 0u));
#endif
        const bool kept = tested && (mask == 0u || (kindsOf(i, cache) & mask) == mask);
        const bool inFrustum = kept && (!frustumOn || sieveInFrustum(sphereOf(i, cache), views[v]));
        bool flag = false;
#if CULL_LATE
        const bool occlusionOn = (toggles & SIEVE_CULL_OCCLUSION) != 0u;
        const bool vis = inFrustum && !(occlusionOn && occluded(sphereOf(i, cache), v));
        const bool drawnEarly = twoPhase && valid && flagsEarly[vi] != 0u;
        flag = vis && !drawnEarly;
        if (valid) visibleLast[vi] = vis ? 1u : 0u;
#else
        flag = inFrustum;  // `tested` holds the phase's rule
#endif
        bool meshValid = false;
        uint lod = 0u;
        if (flag) {
            loadMesh(i, cache);
            meshValid = cache.mesh < uint(meshes.length());
            if (meshValid && (toggles & SIEVE_CULL_LOD) != 0u)
                lod = selectLod(sphereOf(i, cache), cache.scale, cache.mesh, v);
        }
        if (valid) {
            flags[vi] = flag ? 1u : 0u;
            lods[vi] = lod;
            writeDrawCounts(i, v, flag, meshValid, cache.mesh);
        }
#if CULL_LATE
        if (v == 0u && valid) {
            // What happened to the instance in the main view (shared/cull_state.h).
            uint s = SIEVE_STATE_DRAWN_LATE | (lod << SIEVE_STATE_LOD_SHIFT);
            if (drawnEarly)
                s = SIEVE_STATE_DRAWN_EARLY | (lodsEarly[i] << SIEVE_STATE_LOD_SHIFT);
            else if (!kept)
                s = SIEVE_STATE_MASKED;
            else if (!inFrustum)
                s = SIEVE_STATE_FRUSTUM_CULLED;
            else if (!vis)
                s = SIEVE_STATE_OCCLUSION_CULLED;
            state[i] = s;
        }
        // Every invocation reaches the ballots (threads past the count vote false).
        countSubgroup(inFrustum, v, 0u);
        countSubgroup(vis, v, 2u);
        countSubgroup(flag, v, 3u);
#else
        countSubgroup(flag, v, 1u);
        // An EARLY view's whole test happens here.
        countSubgroup(earlyView && inFrustum, v, 0u);
        countSubgroup(earlyView && inFrustum, v, 2u);
#endif
    }
}
