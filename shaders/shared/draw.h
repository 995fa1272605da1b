#ifndef SIEVE_SHARED_DRAW_H
#define SIEVE_SHARED_DRAW_H
// The draw records the culling passes write and vkCmdDrawIndexedIndirectCount reads (stride 32 bytes):
// a VkDrawIndexedIndirectCommand followed by what the geometry pass needs to shade the draw.
#include "shared/common.h"
#include "shared/scene.h"

SIEVE_NS_BEGIN

struct DrawCommand {
    uint indexCount;     // VkDrawIndexedIndirectCommand
    uint instanceCount;  // always 1
    uint firstIndex;
    int vertexOffset;
    uint firstInstance;  // the instance index (gl_InstanceIndex in the vertex shader)
    uint primitive;      // index into the primitive table
    uint material;
    uint lod;
};

// The count buffer of one draw list. `count` is at offset 0: vkCmdDrawIndexedIndirectCount reads it.
struct DrawCounts {
    uint count;     // draws written = min(total, capacity)
    uint overflow;  // draws dropped because the list was full = total - count
    uint total;     // draws wanted
    uint pad;
};

SIEVE_CONST(uint, SIEVE_DRAW_STRIDE, 32)

// The draw of primitive `primIndex` (`prim`) for instance `instance` at LOD `lod`, clamped to the
// primitive's LODs.
SIEVE_FN DrawCommand sievePrimitiveDraw(SIEVE_IN(MeshPrimitive) prim, uint primIndex, uint instance, uint lod) {
    const uint l = min(lod, prim.lodCount - 1u);
    DrawCommand d;
    d.indexCount = prim.lods[l].indexCount;
    d.instanceCount = 1u;
    d.firstIndex = prim.lods[l].firstIndex;
    d.vertexOffset = prim.vertexOffset;
    d.firstInstance = instance;
    d.primitive = primIndex;
    d.material = prim.material;
    d.lod = l;
    return d;
}

// One draw stream (a (view, bin) pair) inside a draw-list buffer: records [base, base + capacity).
// Its DrawCounts is entry `stream` of the count buffer.
struct DrawStream {
    uint base;
    uint capacity;
};

SIEVE_NS_END

#endif
