#version 460
// Cluster scans (cluster/scan.glsl), first dispatch: the sum of each tile into dst[tile]. One workgroup
// per tile (ClusterWork::slotTiles or candidateTiles).
#include "cluster/scan.glsl"

void main() {
    const uint n = scanCount();
    const uint group = sieve_group_index();
    if (group >= groupsFor(n, TILE)) return;  // the same for the whole workgroup
    const uint sum = tileSum(group * TILE, n);
    if (gl_LocalInvocationID.x == 0u) dst1.v[group] = sum;
}
