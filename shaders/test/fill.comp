#version 460
// Test-only: out[i] = value + i for i < count. Used by the render-graph GPU tests.
#extension GL_GOOGLE_include_directive : require
#include "shared/dispatch.h"
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint data[]; } outBuf;
layout(push_constant) uniform Push { uint count; uint value; } pc;
void main() {
    uint i = sieve_group_index() * 64 + gl_LocalInvocationID.x;
    if (i < pc.count) outBuf.data[i] = pc.value + i;
}
