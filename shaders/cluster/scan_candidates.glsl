// First scan of a cluster phase (cluster/scan.glsl; MODE 0): the clusters of each live candidate slot
// (lists.glsl: the cluster count of the listed draw's (primitive, LOD)), computed as the scan loads its
// input, scanned into each slot's first candidate (binding 1). The last tile writes the candidate total,
// the tested count (at most candidateCapacity; the rest dropped and counted) and the dispatches of
// test.comp and scan_emit over the tested candidates. Dispatched over ClusterWork::slotTiles.
#define SIEVE_TILE_VALUE 1
#include "cluster/scan.glsl"

layout(set = 0, binding = SIEVE_CSCAN_RANGES, std430) restrict readonly buffer Ranges { ClusterRange ranges[]; };

void scanParameters() {
    scanOf(work.slotCount, 0u);
}

uint tileValue(uint slot) {
    const DrawCommand draw = listedDraw(slot, liveA);
    const uint r = draw.primitive * SIEVE_MAX_LODS + min(draw.lod, SIEVE_MAX_LODS - 1u);
    return r < uint(ranges.length()) ? ranges[r].clusterCount : 0u;
}

void writeRecord(uint slot, uint local, uint item) {}  // MODE 0 writes offsets, no records
void scanTileDone() {}

void scanFinish(uint total) {
    const uint tested = min(total, pc.candidateCapacity);
    work.candidateTotal = total;
    work.tested = tested;
    if (total > tested) atomicAdd(counters.dropped, total - tested);
    work.tests = clusterDispatch(groupsFor(tested, pc.testGroup));
    work.candidateTiles = clusterDispatch(max(groupsFor(tested, TILE), 1u));
}
