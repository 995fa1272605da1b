// Workgroup-wide exclusive scan of one uvec4 per invocation, component-wise (four independent scans at
// once: the tile code scans its ROUNDS per-thread sums together). Every invocation of the workgroup must
// call it from uniform control flow: it contains barriers.
// Two implementations, chosen by the SUBGROUPS specialization constant:
//  - subgroup arithmetic: correct for any subgroup size (4..128) and any number of subgroups, because the
//    subgroup totals are scanned by subgroup 0 in chunks of gl_SubgroupSize with a running carry;
//  - shared memory (work-efficient up/down sweep) with padding against bank conflicts.
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_ballot : enable

// One uvec4 spans 4 of the 32 banks, so 8 consecutive uvec4 cover all banks: one pad slot per 8 entries
// keeps power-of-two strides from landing in the same banks.
uint wsPad(uint i) { return i + (i >> 3); }

shared uvec4 s_wsData[WG + (WG >> 3)];
shared uvec4 s_wsSub[WG / 4];  // one per subgroup; subgroups have at least 4 invocations
shared uvec4 s_wsTotal;

// Subgroup 0 scans the per-subgroup totals in chunks of `width` (its active invocations).
void wsScanSubgroupTotals(uint width) {
    uvec4 carry = uvec4(0);
    for (uint base = 0; base < gl_NumSubgroups; base += width) {
        uint k = base + gl_SubgroupInvocationID;
        uvec4 s = k < gl_NumSubgroups ? s_wsSub[k] : uvec4(0);
        uvec4 e = subgroupExclusiveAdd(s);
        if (k < gl_NumSubgroups) s_wsSub[k] = e + carry;
        carry += subgroupAdd(s);
    }
    if (subgroupElect()) s_wsTotal = carry;
}

uvec4 workgroupExclusiveScan(uvec4 v, out uvec4 total) {
    const uint t = gl_LocalInvocationID.x;
    uvec4 result;
    if (SUBGROUPS) {
        uvec4 ex = subgroupExclusiveAdd(v);
        uvec4 sum = subgroupAdd(v);
        if (subgroupElect()) s_wsSub[gl_SubgroupID] = sum;
        barrier();
        if (gl_SubgroupID == 0) {
            // A subgroup may run fewer invocations than gl_SubgroupSize (docs/subgroup-matrix.md): then
            // the totals are walked in chunks of the active width. Subgroups are all full exactly when
            // gl_NumSubgroups * gl_SubgroupSize equals the workgroup size; where the compiler knows both
            // (the H200) the test folds and the loop is the plain one (any run-time width test there cost
            // tier b's 2^28 scan 6%: bench/RESULTS.md).
            if (gl_NumSubgroups * gl_SubgroupSize == gl_WorkGroupSize.x)
                wsScanSubgroupTotals(gl_SubgroupSize);
            else
                wsScanSubgroupTotals(subgroupBallotBitCount(subgroupBallot(true)));
        }
        barrier();
        result = ex + s_wsSub[gl_SubgroupID];
        total = s_wsTotal;
    } else {
        s_wsData[wsPad(t)] = v;
        uint offset = 1;
        for (uint d = WG >> 1; d > 0; d >>= 1) {
            barrier();
            if (t < d) {
                uint a = offset * (2 * t + 1) - 1;
                uint b = offset * (2 * t + 2) - 1;
                s_wsData[wsPad(b)] += s_wsData[wsPad(a)];
            }
            offset <<= 1;
        }
        barrier();
        if (t == 0) {
            s_wsTotal = s_wsData[wsPad(WG - 1)];
            s_wsData[wsPad(WG - 1)] = uvec4(0);
        }
        for (uint d = 1; d < WG; d <<= 1) {
            offset >>= 1;
            barrier();
            if (t < d) {
                uint a = offset * (2 * t + 1) - 1;
                uint b = offset * (2 * t + 2) - 1;
                uvec4 left = s_wsData[wsPad(a)];
                s_wsData[wsPad(a)] = s_wsData[wsPad(b)];
                s_wsData[wsPad(b)] += left;
            }
        }
        barrier();
        result = s_wsData[wsPad(t)];
        total = s_wsTotal;
    }
    // The shared arrays are reused by the next call.
    barrier();
    return result;
}
