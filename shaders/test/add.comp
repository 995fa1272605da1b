#version 460
// Test-only: dst[i] = src[i] + 1 for i < count. Used by the render-graph GPU tests.
#extension GL_GOOGLE_include_directive : require
#include "shared/dispatch.h"
#include "shared/test_push.h"
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Src { uint data[]; } src;
layout(set = 0, binding = 1) writeonly buffer Dst { uint data[]; } dst;
layout(push_constant) uniform Push { AddPush pc; };
void main() {
    uint i = sieve_group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (i < pc.count) dst.data[i] = src.data[i] + 1;
}
