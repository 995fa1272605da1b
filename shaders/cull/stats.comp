#version 460
// The frame's counts into its record of the readback ring (shared/cull.h CullStatsPush), in one dispatch
// of one workgroup: the header, every view's counters, every stream's early and late counts, the check's
// count, word by word.
#extension GL_GOOGLE_include_directive : require
#include "shared/cull.h"
#include "shared/cull_bindings.h"

layout(local_size_x = 64) in;
layout(set = 0, binding = SIEVE_STATS_COUNTERS, std430) readonly buffer Counters { uint counters[]; };
layout(set = 0, binding = SIEVE_STATS_EARLY, std430) readonly buffer Early { uint early[]; };
layout(set = 0, binding = SIEVE_STATS_LATE, std430) readonly buffer Late { uint late[]; };
layout(set = 0, binding = SIEVE_STATS_CHECK, std430) readonly buffer Check { uint check[]; };
layout(set = 0, binding = SIEVE_STATS_RING, std430) writeonly buffer Ring { uint ring[]; };
layout(push_constant) uniform Push { CullStatsPush pc; };

void main() {
    const uint counterWords = pc.views * SIEVE_CULL_COUNTER_WORDS, streamWords = pc.streams * 4u;
    const uint words = 4u + counterWords + 2u * streamWords + 4u;
    for (uint w = gl_LocalInvocationID.x; w < words; w += gl_WorkGroupSize.x) {
        uint value;
        if (w < 4u)
            value = w == 0u ? pc.frameLo : w == 1u ? pc.frameHi : w == 2u ? pc.instanceCount : 1u;
        else if (w < 4u + counterWords) {
            // A view's counter, summed over its stripes (shared/cull.h SIEVE_CULL_COUNTER_STRIPES).
            const uint view = (w - 4u) / SIEVE_CULL_COUNTER_WORDS, field = (w - 4u) % SIEVE_CULL_COUNTER_WORDS;
            value = 0u;
            for (uint s = 0u; s < SIEVE_CULL_COUNTER_STRIPES; ++s)
                value += counters[(view * SIEVE_CULL_COUNTER_STRIPES + s) * SIEVE_CULL_STRIPE_WORDS + field];
        }
        else if (w < 4u + counterWords + streamWords)
            value = early[w - 4u - counterWords];
        else if (w < 4u + counterWords + 2u * streamWords)
            value = late[w - 4u - counterWords - streamWords];
        else
            value = check[w - 4u - counterWords - 2u * streamWords];
        ring[pc.recordWord + w] = value;
    }
}
