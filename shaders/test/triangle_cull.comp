#version 460
// Test-only: culled[i] = 1 where the mesh path's per-triangle rule (geometry/triangle_rule.glsl, the code the
// mesh shaders' culling variants run) culls cases[i], else 0, for i < count. tests/gpu/test_triangle_rule.cpp
// checks it against a rasterizer on the host.
#extension GL_GOOGLE_include_directive : require
#include "shared/dispatch.h"
#include "shared/test_push.h"
#include "geometry/triangle_rule.glsl"
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer Cases { TriangleCullCase cases[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Culled { uint culled[]; };
layout(push_constant) uniform Push { TriangleCullPush pc; };
void main() {
    const uint i = sieve_group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (i >= pc.count) return;
    const TriangleCullCase t = cases[i];
    const vec3 a = triangleCullVertex(t.a, pc.viewport);
    const vec3 b = triangleCullVertex(t.b, pc.viewport);
    const vec3 c = triangleCullVertex(t.c, pc.viewport);
    const uvec2 scissor = uvec2(pc.scissorWidth, pc.scissorHeight);
    culled[i] = triangleCulledAt(a, b, c, t.tri.xyz, pc.mode, pc.viewport, scissor) ? 1u : 0u;
}
