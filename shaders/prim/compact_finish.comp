#version 460
// count = min(counter, capacity), overflow = counter - count (after compact_append.comp).
#extension GL_GOOGLE_include_directive : require
#include "shared/prim_bindings.h"
#include "shared/prim_push.h"
layout(local_size_x = 1) in;
layout(set = 0, binding = SIEVE_FINISH_COUNTER) readonly buffer Counter { uint v[]; } counter;
layout(set = 0, binding = SIEVE_FINISH_COUNT) writeonly buffer Count { uint v[]; } count;
layout(set = 0, binding = SIEVE_FINISH_OVERFLOW) writeonly buffer Overflow { uint v[]; } overflow;
layout(push_constant) uniform Push { CompactFinishPush pc; };
void main() {
    const uint all = counter.v[pc.counterWord];
    const uint kept = min(all, pc.capacity);
    count.v[pc.countWord] = kept;
    overflow.v[pc.overflowWord] = all - kept;
}
