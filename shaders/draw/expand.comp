#version 460
// Stable draw expansion: visible instance i (drawCount[i] > 0) writes its mesh's primitives, at the LOD
// the flag pass chose, into draws[offsets[i] ..]: draw order is instance order, every frame. Slots at or
// beyond the capacity are never written; the count is clamped and the overflow recorded.
// ATOMIC = 1 is the unordered peer: slots come from an atomic counter instead of the scan.
#extension GL_GOOGLE_include_directive : require
#include "shared/dispatch.h"
#include "shared/draw.h"
#include "shared/draw_push.h"
#include "shared/scene.h"

layout(constant_id = 0) const uint ATOMIC = 0;
layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) readonly buffer Instances { Instance instances[]; };
layout(set = 0, binding = 1, std430) readonly buffer Meshes { Mesh meshes[]; };
layout(set = 0, binding = 2, std430) readonly buffer Primitives { MeshPrimitive primitives[]; };
layout(set = 0, binding = 3, std430) readonly buffer DrawCountsIn { uint drawCount[]; };
layout(set = 0, binding = 4, std430) readonly buffer Lods { uint lodOf[]; };
layout(set = 0, binding = 5, std430) readonly buffer Offsets { uint offsets[]; };  // exclusive scan of drawCount
layout(set = 0, binding = 6, std430) writeonly buffer Draws { DrawCommand draws[]; };
// Stable: the scan wrote the total into counts.total. Atomic: counts starts zeroed, total is the counter.
layout(set = 0, binding = 7, std430) buffer Counts { DrawCounts counts; };

layout(push_constant) uniform Push { DrawExpandPush pc; };

void main() {
    uint i = sieve_group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (ATOMIC == 0 && i == 0) {
        uint total = counts.total;
        uint written = min(total, pc.capacity);
        counts.count = written;
        counts.overflow = total - written;
        counts.total = total;
    }
    if (i >= pc.instanceCount) return;  // (one group is dispatched even for 0 instances)
    uint n = drawCount[i];
    if (n == 0) return;
    uint base = ATOMIC == 0 ? offsets[i] : atomicAdd(counts.total, n);
    Instance inst = instances[i];
    Mesh mesh = meshes[inst.mesh];
    uint lod = lodOf[i];
    for (uint p = 0; p < n; ++p) {
        uint slot = base + p;
        if (slot >= pc.capacity) break;
        uint primIndex = mesh.firstPrimitive + p;
        MeshPrimitive prim = primitives[primIndex];
        uint l = min(lod, prim.lodCount - 1);
        DrawCommand d;
        d.indexCount = prim.lods[l].indexCount;
        d.instanceCount = 1;
        d.firstIndex = prim.lods[l].firstIndex;
        d.vertexOffset = prim.vertexOffset;
        d.firstInstance = i;
        d.primitive = primIndex;
        d.material = prim.material;
        d.lod = l;
        draws[slot] = d;
    }
}
