#version 460
// Atomic-append peer: after expansion, clamp each stream's appended total to its capacity.
#extension GL_GOOGLE_include_directive : require
#include "shared/draw.h"
#include "shared/draw_bindings.h"
#include "shared/draw_push.h"
layout(local_size_x = 64) in;
layout(set = 0, binding = SIEVE_FINISH_ATOMIC_COUNTS, std430) buffer Counts { DrawCounts counts[]; };
layout(set = 0, binding = SIEVE_FINISH_ATOMIC_STREAMS, std430) readonly buffer Streams { DrawStream streams[]; };
layout(push_constant) uniform Push { DrawFinishPush pc; };
void main() {
    const uint s = gl_GlobalInvocationID.x;
    if (s >= pc.streamCount) return;
    const uint total = counts[s].total;
    const uint written = min(total, streams[s].capacity);
    counts[s].count = written;
    counts[s].overflow = total - written;
}
