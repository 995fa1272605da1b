#ifndef SIEVE_SHARED_DRAW_BINDINGS_H
#define SIEVE_SHARED_DRAW_BINDINGS_H
// The descriptor bindings of the draw-list shaders (shaders/draw/), numbered here once for the GLSL and
// for the C++ that records them (passes/src/draw/draw_list.cpp, through sieve::bindingsAt), as
// shared/cull_bindings.h does for the culling shaders.
#include "shared/common.h"

SIEVE_NS_BEGIN

// draw/expand.comp
SIEVE_CONST(uint, SIEVE_EXPAND_INSTANCES, 0)
SIEVE_CONST(uint, SIEVE_EXPAND_MESHES, 1)
SIEVE_CONST(uint, SIEVE_EXPAND_PRIMITIVES, 2)
SIEVE_CONST(uint, SIEVE_EXPAND_DRAW_COUNTS, 3)  // per key
SIEVE_CONST(uint, SIEVE_EXPAND_LODS, 4)         // per (view, instance)
SIEVE_CONST(uint, SIEVE_EXPAND_OFFSETS, 5)      // exclusive scan of the draw counts
SIEVE_CONST(uint, SIEVE_EXPAND_DRAWS, 6)
SIEVE_CONST(uint, SIEVE_EXPAND_COUNTS, 7)
SIEVE_CONST(uint, SIEVE_EXPAND_STREAMS, 8)
SIEVE_CONST(uint, SIEVE_EXPAND_BINDINGS, 9)

// draw/finish_atomic.comp
SIEVE_CONST(uint, SIEVE_FINISH_ATOMIC_COUNTS, 0)
SIEVE_CONST(uint, SIEVE_FINISH_ATOMIC_STREAMS, 1)
SIEVE_CONST(uint, SIEVE_FINISH_ATOMIC_BINDINGS, 2)

// draw/list_scan.glsl (the stable list in one dispatch): the single-pass scan's bindings 0-2
// (shared/prim_bindings.h SIEVE_SCAN_SINGLE_*: 0 and 1 unused, the input is computed and the records go to
// the draws; 2 the look-back status), then its own.
SIEVE_CONST(uint, SIEVE_LIST_SCAN_INSTANCES, 3)
SIEVE_CONST(uint, SIEVE_LIST_SCAN_MESHES, 4)
SIEVE_CONST(uint, SIEVE_LIST_SCAN_PRIMITIVES, 5)
SIEVE_CONST(uint, SIEVE_LIST_SCAN_DRAW_COUNTS, 6)  // per key
SIEVE_CONST(uint, SIEVE_LIST_SCAN_LODS, 7)         // per (view, instance)
SIEVE_CONST(uint, SIEVE_LIST_SCAN_DRAWS, 8)
SIEVE_CONST(uint, SIEVE_LIST_SCAN_COUNTS, 9)
SIEVE_CONST(uint, SIEVE_LIST_SCAN_STREAMS, 10)
SIEVE_CONST(uint, SIEVE_LIST_SCAN_DRAW_MARKS, 11)  // per SIEVE_DRAW_MARK_KEYS keys (shared/draw_push.h)
SIEVE_CONST(uint, SIEVE_LIST_SCAN_BINDINGS, 12)

SIEVE_NS_END

#endif
