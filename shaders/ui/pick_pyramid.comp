#version 460
#extension GL_EXT_samplerless_texture_functions : require
// The viewer's pick: one mip of the culling plugin's min/max depth pyramid (RG32F) copied texel by texel
// into a buffer the CPU reads back (the pyramid cannot be a transfer source: its usage is the plugin's).
#extension GL_GOOGLE_include_directive : require
#include "shared/ui_push.h"
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0) uniform texture2D pyramid;
layout(set = 0, binding = 1, std430) writeonly buffer Texels { vec2 texels[]; };

layout(push_constant) uniform Push { PickPyramidPush pc; };

void main() {
    const uvec2 p = gl_GlobalInvocationID.xy;
    if (any(greaterThanEqual(p, pc.size))) return;
    texels[pc.offset + p.y * pc.size.x + p.x] = texelFetch(pyramid, ivec2(p), int(pc.mip)).rg;
}
