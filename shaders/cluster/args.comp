#version 460
// First step of a cluster phase: the live candidate slots (the records the input lists hold, clamped to
// drawCapacity) and the dispatch of scan_candidates over them (shared/cluster.h ClusterWork; at least one
// workgroup: an empty scan still writes its total). One invocation.
#extension GL_GOOGLE_include_directive : require
#include "shared/cluster.h"
#include "shared/cull_bindings.h"
#include "shared/draw.h"

layout(local_size_x = 1) in;
layout(set = 0, binding = SIEVE_CARGS_COUNTS_A, std430) readonly buffer CountsA { DrawCounts countsA; };
layout(set = 0, binding = SIEVE_CARGS_COUNTS_B, std430) readonly buffer CountsB { DrawCounts countsB; };
layout(set = 0, binding = SIEVE_CARGS_WORK, std430) writeonly buffer Work { ClusterWork work; };
layout(push_constant) uniform Push { ClusterPush pc; };

#include "cluster/work.glsl"

void main() {
    const uint liveA = min(countsA.count, pc.drawCapacity);
    const uint liveB = pc.phase != 0u ? min(countsB.count, pc.drawCapacity) : 0u;
    const uint slots = liveA + liveB;
    work.liveA = liveA;
    work.slotCount = slots;
    work.slotTiles = clusterDispatch(max(groupsFor(slots, pc.scanTile), 1u));
}
