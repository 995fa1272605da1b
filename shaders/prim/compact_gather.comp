#version 460
// Stable compaction by gather (GPU Gems 2, ch. 36): each output slot j < min(total, capacity) finds its
// source by binary search in the scanned offsets, then reads the record; nothing is scattered. The
// source of slot j is the last i with offsets[i] <= j (the offsets rise by one exactly after each kept
// item). Invocation 0 of group 0 writes count and overflow.
#include "prim/config.glsl"
#include "shared/prim_bindings.h"
#include "shared/prim_push.h"

layout(constant_id = 3) const uint MODE = 1;
layout(constant_id = 4) const bool HAS_PAYLOAD = false;

layout(set = 0, binding = SIEVE_GATHER_OFFSETS) readonly buffer Offsets { uint v[]; } offsets;
layout(set = 0, binding = SIEVE_GATHER_OUT) writeonly buffer Out { uint v[]; } recOut;
layout(set = 0, binding = SIEVE_GATHER_PAYLOAD) readonly buffer Payload { uint v[]; } payload;
layout(set = 0, binding = SIEVE_GATHER_TOTAL) readonly buffer Total { uint v[]; } total;
layout(set = 0, binding = SIEVE_GATHER_COUNT) writeonly buffer Count { uint v[]; } count;
layout(set = 0, binding = SIEVE_GATHER_OVERFLOW) writeonly buffer Overflow { uint v[]; } overflow;
layout(push_constant) uniform Push { CompactGatherPush pc; };

#include "prim/record.glsl"

void main() {
    const uint j = sieve_group_index() * WG + gl_LocalInvocationID.x;
    const uint all = total.v[pc.totalWord];
    const uint kept = min(all, pc.capacity);
    if (j == 0) {
        count.v[pc.countWord] = kept;
        overflow.v[pc.overflowWord] = all - kept;
    }
    if (j >= kept) return;
    // Upper bound: first i in [0, n) with offsets[i] > j; the source is the one before it.
    uint lo = 0, hi = pc.n;
    while (lo < hi) {
        const uint mid = lo + (hi - lo) / 2;
        if (offsets.v[mid] <= j)
            lo = mid + 1;
        else
            hi = mid;
    }
    writeRecord(j, lo - 1, lo - 1);
}
