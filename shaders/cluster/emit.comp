#version 460
// Stable compaction of the flagged candidates into the phase's cluster list: candidate k < tested with
// flag[k] writes record outOffsets[k] (an indexed draw of the cluster's triangles, shared/draw.h) and its
// cluster index, below the capacity, and the triangles written are counted. The list's counts and
// mesh-task command come from scan_top.comp. Dispatched over ClusterWork::candidates.
#extension GL_GOOGLE_include_directive : require
#include "shared/cluster.h"
#include "shared/cull_bindings.h"
#include "shared/dispatch.h"
#include "shared/draw.h"

layout(local_size_x_id = 0) in;  // 256 where the device allows (fittedGroupSize)
layout(set = 0, binding = SIEVE_CEMIT_CLUSTERS, std430) readonly buffer Clusters { Cluster clusters[]; };
layout(set = 0, binding = SIEVE_CEMIT_DRAWS_A, std430) readonly buffer DrawsA { DrawCommand drawsA[]; };
layout(set = 0, binding = SIEVE_CEMIT_DRAWS_B, std430) readonly buffer DrawsB { DrawCommand drawsB[]; };
layout(set = 0, binding = SIEVE_CEMIT_FLAGS, std430) readonly buffer Flags { uint flags[]; };
layout(set = 0, binding = SIEVE_CEMIT_CANDIDATES, std430) readonly buffer Candidates { uvec2 candidates[]; };
layout(set = 0, binding = SIEVE_CEMIT_OUT_OFFSETS, std430) readonly buffer OutOffsets { uint outOffsets[]; };
layout(set = 0, binding = SIEVE_CEMIT_WORK, std430) readonly buffer Work { ClusterWork work; };
layout(set = 0, binding = SIEVE_CEMIT_OUT_DRAWS, std430) writeonly buffer OutDraws { DrawCommand outDraws[]; };
layout(set = 0, binding = SIEVE_CEMIT_OUT_IDS, std430) writeonly buffer OutIds { uint outIds[]; };
layout(set = 0, binding = SIEVE_CEMIT_COUNTERS, std430) buffer Counters { ClusterCounters counters; };
layout(push_constant) uniform Push { ClusterPush pc; };

#include "cluster/lists.glsl"

shared uint groupTriangles;

void main() {
    const uint k = sieve_group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    uint triangles = 0u;
    if (k < work.tested && flags[k] != 0u) {
        const uint slot = outOffsets[k];
        if (slot < pc.outputCapacity) {
            const uvec2 cand = candidates[k];
            const DrawCommand draw = listedDraw(cand.x, work.liveA);
            const Cluster cl = clusters[cand.y];
            DrawCommand d;
            d.indexCount = cl.triangleCount * 3u;
            d.instanceCount = 1u;
            d.firstIndex = cl.firstIndex;
            d.vertexOffset = draw.vertexOffset;
            d.firstInstance = draw.firstInstance;
            d.primitive = draw.primitive;
            d.material = draw.material;
            d.lod = draw.lod;
            outDraws[slot] = d;
            outIds[slot] = cand.y;
            triangles = cl.triangleCount;
        }
    }
    // One atomic per workgroup for the triangle count.
    if (gl_LocalInvocationIndex == 0u) groupTriangles = 0u;
    barrier();
    if (triangles != 0u) atomicAdd(groupTriangles, triangles);
    barrier();
    if (gl_LocalInvocationIndex == 0u && groupTriangles != 0u) atomicAdd(counters.triangles, groupTriangles);
}
