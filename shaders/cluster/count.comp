#version 460
// Clusters per candidate slot (lists.glsl): the cluster count of the listed draw's (primitive, LOD), 0
// past the list's count. Its exclusive scan gives each listed draw its first candidate.
#extension GL_GOOGLE_include_directive : require
#include "shared/cluster.h"
#include "shared/dispatch.h"
#include "shared/draw.h"

layout(local_size_x_id = 0) in;  // 256 where the device allows (fittedGroupSize)
layout(set = 0, binding = 0, std430) readonly buffer Ranges { ClusterRange ranges[]; };
layout(set = 0, binding = 1, std430) readonly buffer DrawsA { DrawCommand drawsA[]; };
layout(set = 0, binding = 2, std430) readonly buffer CountsA { DrawCounts countsA; };
layout(set = 0, binding = 3, std430) readonly buffer DrawsB { DrawCommand drawsB[]; };
layout(set = 0, binding = 4, std430) readonly buffer CountsB { DrawCounts countsB; };
layout(set = 0, binding = 5, std430) writeonly buffer Out { uint clusterCounts[]; };
layout(push_constant) uniform Push { ClusterPush pc; };

#include "cluster/lists.glsl"

void main() {
    const uint slot = sieve_group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (slot >= candidateSlots()) return;
    const bool inA = slot < pc.drawCapacity;
    const uint d = inA ? slot : slot - pc.drawCapacity;
    const uint listed = min(inA ? countsA.count : countsB.count, pc.drawCapacity);
    uint n = 0u;
    if (d < listed) {
        const DrawCommand draw = listedDraw(slot);
        const uint r = draw.primitive * SIEVE_MAX_LODS + min(draw.lod, SIEVE_MAX_LODS - 1u);
        if (r < uint(ranges.length())) n = ranges[r].clusterCount;
    }
    clusterCounts[slot] = n;
}
