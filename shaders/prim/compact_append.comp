#version 460
// Unordered compaction by atomic append: the benchmark peer of the stable paths (what most GPU-driven
// renderers do). One global atomic per workgroup reserves its slots; slots at or past the capacity are
// dropped. Record order changes from run to run. compact_finish.comp turns the counter into
// count and overflow.
#include "prim/config.glsl"
#include "shared/prim_bindings.h"
#include "shared/prim_push.h"

layout(constant_id = 3) const uint MODE = 1;
layout(constant_id = 4) const bool HAS_PAYLOAD = false;

layout(set = 0, binding = SIEVE_APPEND_FLAGS) readonly buffer Flags { uint v[]; } flags;
layout(set = 0, binding = SIEVE_APPEND_OUT) writeonly buffer Out { uint v[]; } recOut;
layout(set = 0, binding = SIEVE_APPEND_PAYLOAD) readonly buffer Payload { uint v[]; } payload;
layout(set = 0, binding = SIEVE_APPEND_COUNTER) buffer Counter { uint v[]; } counter;
layout(push_constant) uniform Push { CompactAppendPush pc; };

#include "prim/record.glsl"

shared uint s_count;
shared uint s_base;

void main() {
    const uint group = sieve_group_index();
    if (group >= (pc.n + TILE - 1) / TILE) return;
    const uint t = gl_LocalInvocationID.x;
    if (t == 0) s_count = 0;
    barrier();
    uint mine[16];  // local slot + 1 of each item of this invocation, 0 when not kept
    const uint steps = TILE / WG;
    for (uint k = 0; k < steps; ++k) {
        const uint i = group * TILE + k * WG + t;
        mine[k] = (i < pc.n && flags.v[i] != 0) ? atomicAdd(s_count, 1u) + 1 : 0;
    }
    barrier();
    if (t == 0) s_base = s_count == 0 ? 0 : atomicAdd(counter.v[pc.counterWord], s_count);
    barrier();
    for (uint k = 0; k < steps; ++k) {
        if (mine[k] == 0) continue;
        const uint slot = s_base + mine[k] - 1;
        const uint i = group * TILE + k * WG + t;
        if (slot < pc.capacity) writeRecord(slot, i, pc.firstItem + i);
    }
}
