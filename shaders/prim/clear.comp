#version 460
// dst[first + i] = value for i < count: resets look-back state and counters, and writes the results of
// empty inputs, as compute work so the plugin's internal dependencies stay compute -> compute.
#extension GL_GOOGLE_include_directive : require
#include "shared/dispatch.h"
#include "shared/prim_bindings.h"
#include "shared/prim_push.h"
layout(local_size_x = 64) in;
layout(set = 0, binding = SIEVE_CLEAR_DST) writeonly buffer Dst { uint v[]; } dst;
layout(push_constant) uniform Push { ClearPush pc; };
void main() {
    uint i = sieve_group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (i < pc.count) dst.v[pc.first + i] = pc.value;
}
