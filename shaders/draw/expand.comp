#version 460
// Stable draw expansion over (stream, instance) keys k = s * N + i, stream s = view * binCount + bin:
// a key with drawCount[k] > 0 writes the instance's primitives of bin b (bins >= binCount count as the
// last bin), in primitive order, at the view's LOD, into stream s at offsets[k] - offsets[s * N]: one
// scan over all keys gives every stream in instance order, every frame. Records at or beyond a
// stream's capacity are never written; each stream's count is clamped and its overflow recorded.
// ATOMIC = 1 is the unordered peer: slots come from a per-stream atomic counter instead of the scan.
#extension GL_GOOGLE_include_directive : require
#include "shared/dispatch.h"
#include "shared/draw_bindings.h"
#include "shared/draw.h"
#include "shared/draw_push.h"
#include "shared/scene.h"

layout(constant_id = 0) const uint ATOMIC = 0;
layout(constant_id = 1) const uint GROUP = 256;  // fittedGroupSize: 256 where the device allows
layout(local_size_x_id = 1) in;

layout(set = 0, binding = SIEVE_EXPAND_INSTANCES, std430) readonly buffer Instances { Instance instances[]; };
layout(set = 0, binding = SIEVE_EXPAND_MESHES, std430) readonly buffer Meshes { Mesh meshes[]; };
layout(set = 0, binding = SIEVE_EXPAND_PRIMITIVES, std430) readonly buffer Primitives { MeshPrimitive primitives[]; };
layout(set = 0, binding = SIEVE_EXPAND_DRAW_COUNTS, std430) readonly buffer DrawCountsIn { uint drawCount[]; };  // per key
layout(set = 0, binding = SIEVE_EXPAND_LODS, std430) readonly buffer Lods { uint lodOf[]; };  // per (view, instance)
layout(set = 0, binding = SIEVE_EXPAND_OFFSETS, std430) readonly buffer Offsets { uint offsets[]; };  // exclusive scan of drawCount
layout(set = 0, binding = SIEVE_EXPAND_DRAWS, std430) writeonly buffer Draws { DrawCommand draws[]; };
// Stable: the scan wrote the grand total into counts[streamCount - 1].total. Atomic: counts start
// zeroed, each total is its stream's counter.
layout(set = 0, binding = SIEVE_EXPAND_COUNTS, std430) buffer Counts { DrawCounts counts[]; };
layout(set = 0, binding = SIEVE_EXPAND_STREAMS, std430) readonly buffer Streams { DrawStream streams[]; };

layout(push_constant) uniform Push { DrawExpandPush pc; };

#include "draw/records.glsl"

void main() {
    const uint k = sieve_group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    const uint n = pc.instanceCount;
    if (ATOMIC == 0 && k < pc.streamCount) {
        // Stream k's records are offsets[k * N .. (k + 1) * N): its first offset to the next stream's.
        const uint s = k;
        const uint start = n > 0u ? offsets[sieveKey(s, 0u, n)] : 0u;
        const uint end = s + 1u < pc.streamCount ? (n > 0u ? offsets[sieveKey(s + 1u, 0u, n)] : 0u) : counts[s].total;
        const uint total = end - start;
        const uint written = min(total, streams[s].capacity);
        counts[s].count = written;
        counts[s].overflow = total - written;
        counts[s].pad = 0u;
        // Read before this write by the only invocation that reads it (s == streamCount - 1).
        counts[s].total = total;
    }
    if (k >= n * pc.streamCount) return;  // (one group is dispatched even for no keys)
    const uint c = drawCount[k];
    if (c == 0u) return;
    const uint s = k / n;
    const uint i = k - s * n;
    const uint bin = s % pc.binCount;
    const uint view = s / pc.binCount;
    const uint local = ATOMIC == 0 ? offsets[k] - offsets[sieveKey(s, 0u, n)] : atomicAdd(counts[s].total, c);
    writeInstanceDraws(i, instances[i].mesh, bin, pc.binCount, lodOf[sieveKey(view, i, n)], local, c, streams[s]);
}
