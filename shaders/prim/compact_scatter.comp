#version 460
// Stable compaction after a scan: every item i with flags[i] != 0 writes its record at offsets[i] when
// that slot is below the capacity. Invocation 0 of group 0 also writes count = min(total, capacity) and
// overflow = total - count (the records that did not fit).
#include "prim/config.glsl"
#include "shared/prim_bindings.h"
#include "shared/prim_push.h"

layout(constant_id = 3) const uint MODE = 1;  // see record.glsl
layout(constant_id = 4) const bool HAS_PAYLOAD = false;

layout(set = 0, binding = SIEVE_SCATTER_FLAGS) readonly buffer Flags { uint v[]; } flags;
layout(set = 0, binding = SIEVE_SCATTER_OFFSETS) readonly buffer Offsets { uint v[]; } offsets;
layout(set = 0, binding = SIEVE_SCATTER_OUT) writeonly buffer Out { uint v[]; } recOut;
layout(set = 0, binding = SIEVE_SCATTER_PAYLOAD) readonly buffer Payload { uint v[]; } payload;
layout(set = 0, binding = SIEVE_SCATTER_TOTAL) readonly buffer Total { uint v[]; } total;
layout(set = 0, binding = SIEVE_SCATTER_COUNT) writeonly buffer Count { uint v[]; } count;
layout(set = 0, binding = SIEVE_SCATTER_OVERFLOW) writeonly buffer Overflow { uint v[]; } overflow;
layout(push_constant) uniform Push { CompactScatterPush pc; };

#include "prim/record.glsl"

void main() {
    const uint group = sieve_group_index();
    if (group >= (pc.n + TILE - 1) / TILE) return;
    // Strided by WG so that each step is a coalesced access.
    for (uint k = 0; k < TILE / WG; ++k) {
        const uint i = group * TILE + k * WG + gl_LocalInvocationID.x;
        if (i >= pc.n) break;
        if (flags.v[i] == 0) continue;
        const uint slot = offsets.v[i];
        if (slot < pc.capacity) writeRecord(slot, i, pc.firstItem + i);
    }
    if (pc.writeCount != 0 && group == 0 && gl_LocalInvocationID.x == 0) {
        const uint all = total.v[pc.totalWord];
        const uint kept = min(all, pc.capacity);
        count.v[pc.countWord] = kept;
        overflow.v[pc.overflowWord] = all - kept;
    }
}
