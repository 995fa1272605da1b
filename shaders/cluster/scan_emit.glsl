// Second scan of a cluster phase (cluster/scan.glsl; MODE 1), with the stable compaction folded in: the
// candidates' flags (test.comp) scanned, and flagged candidate k < tested writes record o(k) below
// outputCapacity: an indexed draw of its cluster's triangles (shared/draw.h) and, at binding 1, its
// cluster index; the triangles written are counted. The last tile writes the list's counts (clamped to
// outputCapacity) and its mesh-task command (the count folded into rows of maxGroupsX; the mesh shader
// skips the workgroups past the count). Dispatched over ClusterWork::candidateTiles. A record takes
// dependent loads (candidate, then its draw and cluster), so the scan defers the records to the whole
// workgroup (SIEVE_SCAN_DEFERRED_RECORDS).
#define SIEVE_SCAN_DEFERRED_RECORDS 1
#include "cluster/scan.glsl"

// restrict: nothing writes the tables a record is read from during the scan, so the loads of one
// invocation's records need not wait for the stores of its earlier ones (its records are independent).
layout(set = 0, binding = SIEVE_CSCAN_CLUSTERS, std430) restrict readonly buffer Clusters { Cluster clusters[]; };
layout(set = 0, binding = SIEVE_CSCAN_CANDIDATES, std430) restrict readonly buffer Candidates {
    uvec2 candidates[];
};
layout(set = 0, binding = SIEVE_CSCAN_OUT_DRAWS, std430) writeonly buffer OutDraws { DrawCommand outDraws[]; };
layout(set = 0, binding = SIEVE_CSCAN_OUT_COUNTS, std430) writeonly buffer OutCounts { DrawCounts outCounts; };
layout(set = 0, binding = SIEVE_CSCAN_TASKS, std430) writeonly buffer Tasks { uint tasks[3]; };

uint triangles = 0u;  // of this invocation's records

void scanParameters() {
    scanOf(work.tested, pc.outputCapacity);
}

void writeRecord(uint slot, uint k, uint item) {
    const uvec2 cand = candidates[k];
    const DrawCommand draw = listedDraw(cand.x, liveA);
    const Cluster cl = clusters[cand.y];
    DrawCommand d = draw;  // the draw's vertex offset, instance, primitive, material and LOD
    d.indexCount = cl.triangleCount * 3u;
    d.instanceCount = 1u;
    d.firstIndex = cl.firstIndex;
    outDraws[slot] = d;
    dst1.v[slot] = cand.y;
    triangles += cl.triangleCount;
}

// One atomic per subgroup for the triangle count.
void scanTileDone() {
    const uint sum = subgroupAdd(triangles);
    if (subgroupElect() && sum != 0u) atomicAdd(counters.triangles, sum);
}

void scanFinish(uint total) {
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
