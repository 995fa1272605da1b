#version 460
// Culling debug view: the bounding sphere of each instance the culling removed, as three great circles,
// coloured by the test that removed it (shared/cull_state.h; colours from sieve::kCullTests in the push
// constants). Drawn and masked instances get no lines:
// their vertices are placed outside the clip volume, so that the draw needs no compaction.
#extension GL_GOOGLE_include_directive : require
#include "shared/cull_state.h"
#include "shared/scene.h"
#include "shared/ui_push.h"

layout(set = 0, binding = 0, std430) readonly buffer Bounds { InstanceBounds bounds[]; };
layout(set = 0, binding = 1, std430) readonly buffer State { uint state[]; };
layout(push_constant) uniform Push { CullBoundsPush pc; };
layout(location = 0) out vec3 outColor;

const float kTwoPi = 6.28318530718;

void main() {
    const uint i = gl_InstanceIndex;
    const uint kind = i < pc.instanceCount ? state[i] & SIEVE_STATE_KIND_MASK : SIEVE_STATE_MASKED;
    const vec4 colour = unpackUnorm4x8(pc.stateColour[min(kind, 7u)]);
    const bool culled = colour.a > 0.0;
    const vec4 sphere = culled ? bounds[i].sphere : vec4(0.0);
    if (!culled || !(sphere.w > 0.0)) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // both ends outside: the segment is clipped away
        outColor = vec3(0.0);
        return;
    }
    // Vertex v: circle c = v / (2 * segments), segment end k = (v / 2) % segments + (v & 1).
    const uint v = gl_VertexIndex;
    const uint circle = v / (2u * SIEVE_BOUNDS_SEGMENTS);
    const uint k = (v / 2u) % SIEVE_BOUNDS_SEGMENTS + (v & 1u);
    const float a = kTwoPi * float(k) / float(SIEVE_BOUNDS_SEGMENTS);
    const vec2 cs = vec2(cos(a), sin(a));
    const vec3 offset = circle == 0u ? vec3(cs.x, cs.y, 0.0) : circle == 1u ? vec3(cs.x, 0.0, cs.y) : vec3(0.0, cs.x, cs.y);
    gl_Position = pc.viewProj * vec4(sphere.xyz + sphere.w * offset, 1.0);
    outColor = colour.rgb;
}
