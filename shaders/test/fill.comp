#version 460
// Test-only: out[i] = value + i for i < count. Used by the render-graph GPU tests.
#extension GL_GOOGLE_include_directive : require
#include "shared/dispatch.h"
#include "shared/test_push.h"
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint data[]; } outBuf;
layout(push_constant) uniform Push { FillPush pc; };
void main() {
    uint i = sieve_group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (i < pc.count) outBuf.data[i] = pc.value + i;
}
