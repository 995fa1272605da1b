#version 460
// The cluster test of one phase (sieve/cluster.h): candidate k < ClusterWork::tested finds its listed draw
// by binary search over the candidate offsets, then its cluster; writes flag[k] (draw it in this phase)
// and candidates[k] = (slot, cluster index). Early: flag = visibleLast && inFrustum && !backfacing. Late:
// vis = inFrustum && !backfacing && !occluded; flag = vis && !(drawn early); visibleLast = vis. Counters
// (shared/cluster.h ClusterCounters) by subgroup. Dispatched over ClusterWork::tests.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_ballot : require
#include "shared/cluster.h"
#include "shared/cull_bindings.h"
#include "shared/dispatch.h"
#include "shared/draw.h"

layout(local_size_x = 128) in;
layout(set = 0, binding = SIEVE_CTEST_PARAMS, std140) uniform Params { CullParams params; };
layout(set = 0, binding = SIEVE_CTEST_INSTANCES, std430) readonly buffer Instances { Instance instances[]; };
layout(set = 0, binding = SIEVE_CTEST_PRIMITIVES, std430) readonly buffer Primitives { MeshPrimitive primitives[]; };
layout(set = 0, binding = SIEVE_CTEST_CLUSTERS, std430) readonly buffer Clusters { Cluster clusters[]; };
layout(set = 0, binding = SIEVE_CTEST_RANGES, std430) readonly buffer Ranges { ClusterRange ranges[]; };
layout(set = 0, binding = SIEVE_CTEST_INSTANCE_SLOTS, std430) readonly buffer InstanceSlots { uint instanceSlots[]; };
layout(set = 0, binding = SIEVE_CTEST_DRAWS_A, std430) readonly buffer DrawsA { DrawCommand drawsA[]; };
layout(set = 0, binding = SIEVE_CTEST_DRAWS_B, std430) readonly buffer DrawsB { DrawCommand drawsB[]; };
layout(set = 0, binding = SIEVE_CTEST_OFFSETS, std430) readonly buffer Offsets { uint offsets[]; };
layout(set = 0, binding = SIEVE_CTEST_WORK, std430) readonly buffer Work { ClusterWork work; };
layout(set = 0, binding = SIEVE_CTEST_VISIBILITY, std430) buffer Visibility { uint visibility[]; };
layout(set = 0, binding = SIEVE_CTEST_FLAGS, std430) writeonly buffer Flags { uint flags[]; };
layout(set = 0, binding = SIEVE_CTEST_CANDIDATES, std430) writeonly buffer Candidates { uvec2 candidates[]; };
layout(set = 0, binding = SIEVE_CTEST_COUNTERS, std430) buffer Counters { ClusterCounters counters; };
layout(set = 0, binding = SIEVE_CTEST_PYRAMID) uniform sampler2D pyramid;  // Hi-Z, r = min, g = max depth
layout(push_constant) uniform Push { ClusterPush pc; };

#include "cluster/lists.glsl"

#include "cull/occlusion.glsl"

bool occluded(vec4 sphere) {
    return sieveOccludedInPyramid(pyramid, sphere, params);
}

void countSubgroup(bool b, uint which) {
    uint n = subgroupBallotBitCount(subgroupBallot(b));
    if (subgroupElect() && n > 0u) {
        switch (which) {
            case 0: atomicAdd(counters.earlyTested, n); break;
            case 1: atomicAdd(counters.earlyDrawn, n); break;
            case 2: atomicAdd(counters.lateTested, n); break;
            case 3: atomicAdd(counters.frustumVisible, n); break;
            case 4: atomicAdd(counters.coneVisible, n); break;
            case 5: atomicAdd(counters.lateVisible, n); break;
            case 6: atomicAdd(counters.lateDrawn, n); break;
        }
    }
}

// The last live candidate slot whose first candidate is <= k (it holds k: offsets never decrease and the
// slot after it starts past k). k < tested, so there is a live slot.
uint findSlot(uint k) {
    uint lo = 0u;
    uint hi = work.slotCount - 1u;
    while (lo < hi) {
        const uint mid = lo + (hi - lo + 1u) / 2u;
        if (offsets[mid] <= k) lo = mid;
        else hi = mid - 1u;
    }
    return lo;
}

void main() {
    const uint k = sieve_group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    const uint tested = work.tested;
    const uint liveA = work.liveA;
    const bool late = pc.phase != 0u;
    bool live = k < tested;
    bool inFrustum = false, front = false, vis = false, flag = false;
    if (live) {
        const uint slot = findSlot(k);
        const DrawCommand draw = listedDraw(slot, liveA);
        const ClusterRange range = ranges[draw.primitive * SIEVE_MAX_LODS + min(draw.lod, SIEVE_MAX_LODS - 1u)];
        const uint c = k - offsets[slot];
        const uint ci = range.firstCluster + c;
        const Instance inst = instances[draw.firstInstance];
        const Cluster cl = clusters[ci];
        const vec4 ws = sieveClusterSphere(inst, cl.sphere);
        inFrustum = (params.toggles & SIEVE_CULL_FRUSTUM) == 0u || sieveInFrustum(ws, params);
        const bool coneOn = (pc.toggles & SIEVE_CLUSTER_CONE) != 0u &&
                            sieveConeBin(primitives[draw.primitive].bin, pc.coneBins);
        front = inFrustum && !(coneOn && sieveClusterBackfacing(inst, cl.cone, ws, params));
        const uint vslot = instanceSlots[draw.firstInstance] + range.visibilitySlot + c;
        const bool slotOk = vslot < pc.visibilitySlots;
        const bool visibleLast = slotOk && visibility[vslot] != 0u;
        if (!late) {
            flag = front && visibleLast;
        } else {
            const bool drawnEarly = slot < liveA && front && visibleLast;
            vis = front && !((params.toggles & SIEVE_CULL_OCCLUSION) != 0u && occluded(ws));
            flag = vis && !drawnEarly;
            if (slotOk) visibility[vslot] = vis ? 1u : 0u;
        }
        candidates[k] = uvec2(slot, ci);
        flags[k] = flag ? 1u : 0u;
    }
    // Every invocation reaches the ballots (inactive ones vote false).
    if (!late) {
        countSubgroup(live, 0u);
        countSubgroup(flag, 1u);
    } else {
        countSubgroup(live, 2u);
        countSubgroup(inFrustum, 3u);
        countSubgroup(front, 4u);
        countSubgroup(vis, 5u);
        countSubgroup(flag, 6u);
    }
}
