#version 460
// One level of a reduction: each workgroup folds one tile of `n` values into dst[firstOut + group].
// The host repeats levels until one value is left. Lanes past `n` hold the identity (0, +inf, -inf)
// and still reach every barrier. Also the upsweep of the multi-level scan (OP = sum, optionally on
// binarized flags).
#include "prim/config.glsl"
#include "shared/prim_bindings.h"
#include "shared/prim_push.h"

layout(constant_id = 3) const uint OP = 0;         // 0: sum u32, 1: min f32, 2: max f32
layout(constant_id = 4) const bool BINARIZE = false;  // count values != 0 instead of summing them

layout(set = 0, binding = SIEVE_REDUCE_SRC) readonly buffer Src1 { uint v[]; } src1;
layout(set = 0, binding = SIEVE_REDUCE_SRC) readonly buffer Src4 { uvec4 v[]; } src4;
layout(set = 0, binding = SIEVE_REDUCE_DST) writeonly buffer Dst { uint v[]; } dst;
layout(push_constant) uniform Push { ReducePush pc; };

#include "prim/tile_load.glsl"
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable

const uint POS_INF = 0x7f800000u;
const uint NEG_INF = 0xff800000u;
const uint IDENTITY = OP == 1 ? POS_INF : (OP == 2 ? NEG_INF : 0u);

uint combine(uint a, uint b) {
    if (OP == 1) return floatBitsToUint(min(uintBitsToFloat(a), uintBitsToFloat(b)));
    if (OP == 2) return floatBitsToUint(max(uintBitsToFloat(a), uintBitsToFloat(b)));
    return a + b;
}

uint subgroupCombine(uint a) {
    if (OP == 1) return floatBitsToUint(subgroupMin(uintBitsToFloat(a)));
    if (OP == 2) return floatBitsToUint(subgroupMax(uintBitsToFloat(a)));
    return subgroupAdd(a);
}

shared uint s_red[WG];

void main() {
    const uint group = sieve_group_index();
    if (group >= (pc.n + TILE - 1) / TILE) return;  // spare groups of a folded dispatch: whole group exits
    const uint t = gl_LocalInvocationID.x;

    uint acc = IDENTITY;
    for (uint r = 0; r < ROUNDS; ++r) {
        uvec4 x = loadVec(tileElement(group * TILE, r), pc.n, IDENTITY);
        if (BINARIZE) x = uvec4(notEqual(x, uvec4(0)));
        acc = combine(acc, combine(combine(x.x, x.y), combine(x.z, x.w)));
    }

    if (SUBGROUPS) {
        acc = subgroupCombine(acc);
        if (subgroupElect()) s_red[gl_SubgroupID] = acc;
        barrier();
        if (t == 0) {
            uint r = s_red[0];
            for (uint s = 1; s < gl_NumSubgroups; ++s) r = combine(r, s_red[s]);
            dst.v[pc.firstOut + group] = r;
        }
    } else {
        s_red[t] = acc;
        barrier();
        for (uint s = WG >> 1; s > 0; s >>= 1) {
            if (t < s) s_red[t] = combine(s_red[t], s_red[t + s]);
            barrier();  // every round, every lane
        }
        if (t == 0) dst.v[pc.firstOut + group] = s_red[0];
    }
}
