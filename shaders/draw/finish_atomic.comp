#version 460
// Atomic-append peer: after expansion, clamp the appended total to the capacity.
#extension GL_GOOGLE_include_directive : require
#include "shared/draw.h"
#include "shared/draw_push.h"
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer Counts { DrawCounts counts; };
layout(push_constant) uniform Push { DrawFinishPush pc; };
void main() {
    uint total = counts.total;
    uint written = min(total, pc.capacity);
    counts.count = written;
    counts.overflow = total - written;
}
