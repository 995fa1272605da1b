#version 460
// Exclusive scan of one tile per workgroup, plus the base of the tile from the scanned block sums of the
// level above (multi-level scan, tiers a and b). With one tile in total it is the whole scan, and it
// writes the total. `dst` may alias `src` (block sums are scanned in place): every invocation reads its
// own elements before the first barrier and writes only those.
#include "prim/config.glsl"
#include "shared/prim_bindings.h"
#include "shared/prim_push.h"

layout(constant_id = 3) const bool BINARIZE = false;  // scan (value != 0) instead of the value
layout(constant_id = 4) const bool HAS_BASE = false;  // add base.v[firstBlock + group]

layout(set = 0, binding = SIEVE_SCAN_TILE_SRC) readonly buffer Src1 { uint v[]; } src1;
layout(set = 0, binding = SIEVE_SCAN_TILE_SRC) readonly buffer Src4 { uvec4 v[]; } src4;
layout(set = 0, binding = SIEVE_SCAN_TILE_DST) writeonly buffer Dst1 { uint v[]; } dst1;
layout(set = 0, binding = SIEVE_SCAN_TILE_DST) writeonly buffer Dst4 { uvec4 v[]; } dst4;
layout(set = 0, binding = SIEVE_SCAN_TILE_BASE) readonly buffer Base { uint v[]; } base;
layout(set = 0, binding = SIEVE_SCAN_TILE_TOTAL) writeonly buffer Total { uint v[]; } total;
layout(push_constant) uniform Push { ScanTilePush pc; };

#include "prim/tile_load.glsl"
#include "prim/workgroup_scan.glsl"

void storeVec(uint e, uint n, uvec4 x) {
    if (e + 4 <= n) {
        dst4.v[e >> 2] = x;
        return;
    }
    for (uint c = 0; c < 4; ++c)
        if (e + c < n) dst1.v[e + c] = x[c];
}

void main() {
    const uint group = sieve_group_index();
    const uint groups = (pc.n + TILE - 1) / TILE;
    if (group >= groups) return;
    const uint tileBase = group * TILE;

    uvec4 x[4];
    uvec4 sums = uvec4(0);
    for (uint r = 0; r < ROUNDS; ++r) {
        x[r] = loadVec(tileElement(tileBase, r), pc.n, 0);
        if (BINARIZE) x[r] = uvec4(notEqual(x[r], uvec4(0)));
        sums[r] = vecSum(x[r]);
    }
    uvec4 roundTotals;
    uvec4 ex = workgroupExclusiveScan(sums, roundTotals);
    uint offset = HAS_BASE ? base.v[pc.firstBlock + group] : 0;
    for (uint r = 0; r < ROUNDS; ++r) {
        storeVec(tileElement(tileBase, r), pc.n, uvec4(offset + ex[r]) + vecExclusive(x[r]));
        offset += roundTotals[r];
    }
    if (pc.writeTotal != 0 && group == groups - 1 && gl_LocalInvocationID.x == 0) total.v[pc.totalWord] = offset;
}
