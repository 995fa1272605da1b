// The cluster phase's scans, on the GPU's live sizes (ClusterWork): ClusterPush::step 0 scans the slots'
// cluster counts (slotCount values), step 1 the candidates' flags (tested values). Three dispatches:
// scan_reduce.comp (the sum of each tile), scan_top.comp (one workgroup: the tile sums scanned in place,
// the total and the next dispatches), scan_down.comp (each tile scanned from its base). The tiles and
// the workgroup scan are the prim scans' (prim/config.glsl: WG, ROUNDS, SUBGROUPS; a tile is TILE
// values). Binding 0 the values, 1 the output, 2 the phase's ClusterWork.
#extension GL_GOOGLE_include_directive : require
#include "prim/config.glsl"
#include "shared/cluster.h"
#include "shared/draw.h"

layout(set = 0, binding = 0) readonly buffer Src1 { uint v[]; } src1;
layout(set = 0, binding = 0) readonly buffer Src4 { uvec4 v[]; } src4;
layout(set = 0, binding = 1) writeonly buffer Dst1 { uint v[]; } dst1;
layout(set = 0, binding = 1) writeonly buffer Dst4 { uvec4 v[]; } dst4;
layout(set = 0, binding = 2, std430) buffer Work { ClusterWork work; };
layout(push_constant) uniform Push { ClusterPush pc; };

#include "prim/tile_load.glsl"
#include "prim/workgroup_scan.glsl"
#include "cluster/work.glsl"

uint scanCount() {
    return pc.step == 0u ? work.slotCount : work.tested;
}

void storeVec(uint e, uint n, uvec4 x) {
    if (e + 4u <= n) {
        dst4.v[e >> 2] = x;
        return;
    }
    for (uint c = 0u; c < 4u; ++c)
        if (e + c < n) dst1.v[e + c] = x[c];
}

// The sum of the tile at `tileBase` of n values. Every invocation calls it (barriers).
uint tileSum(uint tileBase, uint n) {
    uvec4 sums = uvec4(0);
    for (uint r = 0u; r < ROUNDS; ++r) sums[r] = vecSum(loadVec(tileElement(tileBase, r), n, 0u));
    uvec4 totals;
    workgroupExclusiveScan(sums, totals);
    return vecSum(totals);
}

// Writes the exclusive scan of the tile at `tileBase` of n values, starting from `offset`; returns the
// offset after the tile. Every invocation calls it (barriers). In place where dst is src: each invocation
// reads its own values before the first barrier and writes only those.
uint scanTile(uint tileBase, uint n, uint offset) {
    uvec4 x[4];
    uvec4 sums = uvec4(0);
    for (uint r = 0u; r < ROUNDS; ++r) {
        x[r] = loadVec(tileElement(tileBase, r), n, 0u);
        sums[r] = vecSum(x[r]);
    }
    uvec4 totals;
    const uvec4 ex = workgroupExclusiveScan(sums, totals);
    for (uint r = 0u; r < ROUNDS; ++r) {
        storeVec(tileElement(tileBase, r), n, uvec4(offset + ex[r]) + vecExclusive(x[r]));
        offset += totals[r];
    }
    return offset;
}
