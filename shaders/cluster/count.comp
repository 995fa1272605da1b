#version 460
// Clusters per live candidate slot (lists.glsl): the cluster count of the listed draw's (primitive, LOD).
// Its exclusive scan gives each listed draw its first candidate. Dispatched over ClusterWork::slots.
#extension GL_GOOGLE_include_directive : require
#include "shared/cluster.h"
#include "shared/dispatch.h"
#include "shared/draw.h"

layout(local_size_x_id = 0) in;  // 256 where the device allows (fittedGroupSize)
layout(set = 0, binding = 0, std430) readonly buffer Ranges { ClusterRange ranges[]; };
layout(set = 0, binding = 1, std430) readonly buffer DrawsA { DrawCommand drawsA[]; };
layout(set = 0, binding = 2, std430) readonly buffer DrawsB { DrawCommand drawsB[]; };
layout(set = 0, binding = 3, std430) readonly buffer Work { ClusterWork work; };
layout(set = 0, binding = 4, std430) writeonly buffer Out { uint clusterCounts[]; };
layout(push_constant) uniform Push { ClusterPush pc; };

#include "cluster/lists.glsl"

void main() {
    const uint slot = sieve_group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (slot >= work.slotCount) return;
    const DrawCommand draw = listedDraw(slot, work.liveA);
    const uint r = draw.primitive * SIEVE_MAX_LODS + min(draw.lod, SIEVE_MAX_LODS - 1u);
    clusterCounts[slot] = r < uint(ranges.length()) ? ranges[r].clusterCount : 0u;
}
