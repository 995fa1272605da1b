#version 460
// Test-only: writes one sample of each pixel of a (multisampled) depth attachment from a buffer, so that
// the Hi-Z tests give every sample its own depth (a copy cannot write a multisampled image). Drawn once
// per sample with depth test ALWAYS and depth writes on.
#extension GL_GOOGLE_include_directive : require
#include "shared/test_push.h"
layout(set = 0, binding = 0, std430) readonly buffer Depth { float depth[]; };
layout(push_constant) uniform Push { DepthWritePush pc; };
void main() {
    const uvec2 p = uvec2(gl_FragCoord.xy);
    gl_SampleMask[0] = int(1u << pc.sampleIndex);
    gl_FragDepth = depth[(p.y * pc.width + p.x) * pc.samples + pc.sampleIndex];
}
