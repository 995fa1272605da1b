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

// Draw marks: one u32 per SIEVE_DRAW_MARK_KEYS consecutive keys (key k has mark k / SIEVE_DRAW_MARK_KEYS), set
// to the frame's mark epoch by the flag pass wherever it writes a non-zero draw count (cull/flag.glsl), so that
// the stable list's scan (draw/list_scan.glsl) reads the draw counts of marked groups only and takes every
// other group as zeros. A mark that reads the epoch where all counts are zero (stale or uninitialized memory
// that happens to hold it) only costs a read; every group with a draw is marked. Epoch 0: no marks.
SIEVE_CONST(uint, SIEVE_DRAW_MARK_KEYS, 32u)

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
    uint markEpoch;    // the draw marks' epoch (draw counts read only in marked groups); 0: no marks, read all
};

// draw/finish_atomic.comp.
struct DrawFinishPush {
    uint streamCount;
};

SIEVE_NS_END

#endif
