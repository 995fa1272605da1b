#version 460
// Cluster scans (cluster/scan.glsl), second dispatch, one workgroup: the tile sums (src and dst: the same
// buffer) scanned in place, TILE at a time with a running carry, then the total. Step 0 (the slots'
// cluster counts): the candidate total, the tested count (at most candidateCapacity; the rest dropped
// and counted) and the dispatches over the tested candidates. Step 1 (the flags): the list's counts
// (clamped to outputCapacity) and its mesh-task command (the count folded into rows of maxGroupsX; the
// mesh shader skips the workgroups past the count).
#include "cluster/scan.glsl"

layout(set = 0, binding = 3, std430) buffer Counters { ClusterCounters counters; };
layout(set = 0, binding = 4, std430) writeonly buffer OutCounts { DrawCounts outCounts; };
layout(set = 0, binding = 5, std430) writeonly buffer Tasks { uint tasks[3]; };

void finishCandidates(uint total) {
    const uint tested = min(total, pc.candidateCapacity);
    work.candidateTotal = total;
    work.tested = tested;
    if (total > tested) atomicAdd(counters.dropped, total - tested);
    work.tests = clusterDispatch(groupsFor(tested, pc.testGroup));
    work.candidates = clusterDispatch(groupsFor(tested, pc.linearGroup));
    work.candidateTiles = clusterDispatch(groupsFor(tested, TILE));
}

void finishList(uint total) {
    const uint kept = min(total, pc.outputCapacity);
    work.outTotal = total;
    outCounts.count = kept;
    outCounts.overflow = total - kept;
    outCounts.total = total;
    outCounts.pad = 0u;
    const uint rows = groupsFor(kept, pc.maxGroupsX);
    tasks[0] = rows > 1u ? pc.maxGroupsX : kept;
    tasks[1] = rows > 1u ? rows : 1u;
    tasks[2] = 1u;
}

void main() {
    const uint tiles = groupsFor(scanCount(), TILE);
    uint carry = 0u;
    for (uint base = 0u; base < tiles; base += TILE) carry = scanTile(base, tiles, carry);
    if (gl_LocalInvocationID.x != 0u) return;
    if (pc.step == 0u) finishCandidates(carry);
    else finishList(carry);
}
