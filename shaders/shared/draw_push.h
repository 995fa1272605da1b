#ifndef SIEVE_SHARED_DRAW_PUSH_H
#define SIEVE_SHARED_DRAW_PUSH_H
// Push constants of the draw-list shaders (shaders/draw/), shared by GLSL and C++.
#include "shared/common.h"

SIEVE_NS_BEGIN

// The one layout of the culling's per-(row, instance) arrays: row-major over instances. Rows are views
// (flags, LODs, visibility: sieveKey(view, i, N)) or streams (draw counts and their scan:
// sieveKey(sieveStream(view, bin, B), i, N)); stream s = view * binCount + bin also indexes DrawCounts and
// the stream table.
SIEVE_FN uint sieveStream(uint view, uint bin, uint binCount) {
    return view * binCount + bin;
}
SIEVE_FN uint sieveKey(uint row, uint instance, uint instanceCount) {
    return row * instanceCount + instance;
}

// draw/expand.comp: one invocation per key (stream, instance).
struct DrawExpandPush {
    uint instanceCount;
    uint streamCount;
    uint binCount;
    uint pad;
};

// draw/list_scan.glsl: the stable draw list in one dispatch, over a virtual index space in which each
// stream s holds streamTiles whole scan tiles (its N keys, then zeros).
struct DrawScanPush {
    uint instanceCount;
    uint streamCount;
    uint binCount;
    uint streamTiles;  // ceil(instanceCount / tile); 0 when instanceCount is 0
};

// draw/finish_atomic.comp.
struct DrawFinishPush {
    uint streamCount;
};

SIEVE_NS_END

#endif
