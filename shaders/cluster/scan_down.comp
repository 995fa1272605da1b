#version 460
// Cluster scans (cluster/scan.glsl), third dispatch: each tile's exclusive scan from its base (the scanned
// tile sums). One workgroup per tile (ClusterWork::slotTiles or candidateTiles).
#include "cluster/scan.glsl"

layout(set = 0, binding = 3, std430) readonly buffer Bases { uint bases[]; };

void main() {
    const uint n = scanCount();
    const uint group = sieve_group_index();
    if (group >= groupsFor(n, TILE)) return;  // the same for the whole workgroup
    scanTile(group * TILE, n, bases[group]);
}
