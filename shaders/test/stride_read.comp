#version 460
// Bench peer of the flag passes' bounds reads: reads the vec4 at data[r * pc.stride] of every record
// r < pc.count, four records per invocation (a workgroup apart, all four loads issued before any is used),
// and stores nothing unless a sum is exactly pc.never, which keeps the loads. stride 5 is an 80-byte record
// with its 16-byte sphere (gpu::Instance), stride 1 a compact stream of spheres.
#extension GL_GOOGLE_include_directive : require
#include "shared/dispatch.h"
#include "shared/test_push.h"
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Src { vec4 data[]; } src;
layout(set = 0, binding = 1) writeonly buffer Dst { uint data[]; } dst;
layout(push_constant) uniform Push { StrideReadPush pc; };
void main() {
    const uint step = gl_WorkGroupSize.x;
    const uint r0 = sieve_group_index() * 4u * step + gl_LocalInvocationID.x;
    vec4 a = vec4(0.0), b = vec4(0.0), c = vec4(0.0), d = vec4(0.0);
    if (r0 < pc.count) a = src.data[r0 * pc.stride];
    if (r0 + step < pc.count) b = src.data[(r0 + step) * pc.stride];
    if (r0 + 2u * step < pc.count) c = src.data[(r0 + 2u * step) * pc.stride];
    if (r0 + 3u * step < pc.count) d = src.data[(r0 + 3u * step) * pc.stride];
    const vec4 s = a + b + c + d;
    if (s.x + s.y + s.z + s.w == pc.never) dst.data[r0] = 1u;
}
