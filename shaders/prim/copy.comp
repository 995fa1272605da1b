#version 460
// dst[i] = src[i] for i < n words: the compute peer of the primitives' benchmark. On devices whose
// vkCmdCopyBuffer is slow (NVIDIA's runs at about a fifth of memory bandwidth) this is the honest
// bandwidth bound: the same 16-byte coalesced loads and stores and the same tile shape (one tile of
// WG * ROUNDS uvec4 per workgroup, every load issued before the first store) as the scan.
#include "prim/config.glsl"
#include "shared/prim_bindings.h"
#include "shared/prim_push.h"

layout(set = 0, binding = SIEVE_COPY_SRC) readonly buffer Src1 { uint v[]; } src1;
layout(set = 0, binding = SIEVE_COPY_SRC) readonly buffer Src4 { uvec4 v[]; } src4;
layout(set = 0, binding = SIEVE_COPY_DST) writeonly buffer Dst1 { uint v[]; } dst1;
layout(set = 0, binding = SIEVE_COPY_DST) writeonly buffer Dst4 { uvec4 v[]; } dst4;
layout(push_constant) uniform Push { CopyPush pc; };

#include "prim/tile_load.glsl"

void main() {
    const uint group = sieve_group_index();
    if (group >= (pc.n + TILE - 1) / TILE) return;
    uvec4 x[4];
    for (uint r = 0; r < ROUNDS; ++r) x[r] = loadVec(tileElement(group * TILE, r), pc.n, 0);
    for (uint r = 0; r < ROUNDS; ++r) {
        const uint e = tileElement(group * TILE, r);
        if (e + 4 <= pc.n) {
            dst4.v[e >> 2] = x[r];
        } else {
            for (uint c = 0; c < 4; ++c)
                if (e + c < pc.n) dst1.v[e + c] = x[r][c];
        }
    }
}
