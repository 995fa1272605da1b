#ifndef SIEVE_SHARED_PRIM_BINDINGS_H
#define SIEVE_SHARED_PRIM_BINDINGS_H
// The descriptor bindings of the primitives' shaders (shaders/prim/), numbered here once: the GLSL
// declares each resource at its name (layout(binding = SIEVE_SCAN_TILE_SRC)) and the C++ that records the
// shader puts each descriptor at the same name (sieve::bindingsAt), as shared/cull_bindings.h does for the
// culling shaders. *_BINDINGS: the count of a shader's bindings.
#include "shared/common.h"

SIEVE_NS_BEGIN

// prim/clear.comp
SIEVE_CONST(uint, SIEVE_CLEAR_DST, 0)
SIEVE_CONST(uint, SIEVE_CLEAR_BINDINGS, 1)

// prim/copy.comp
SIEVE_CONST(uint, SIEVE_COPY_SRC, 0)
SIEVE_CONST(uint, SIEVE_COPY_DST, 1)
SIEVE_CONST(uint, SIEVE_COPY_BINDINGS, 2)

// prim/reduce.comp
SIEVE_CONST(uint, SIEVE_REDUCE_SRC, 0)
SIEVE_CONST(uint, SIEVE_REDUCE_DST, 1)  // one sum per workgroup
SIEVE_CONST(uint, SIEVE_REDUCE_BINDINGS, 2)

// prim/scan_tile.comp
SIEVE_CONST(uint, SIEVE_SCAN_TILE_SRC, 0)
SIEVE_CONST(uint, SIEVE_SCAN_TILE_DST, 1)
SIEVE_CONST(uint, SIEVE_SCAN_TILE_BASE, 2)   // the tiles' bases (HAS_BASE)
SIEVE_CONST(uint, SIEVE_SCAN_TILE_TOTAL, 3)  // the total's word
SIEVE_CONST(uint, SIEVE_SCAN_TILE_BINDINGS, 4)

// prim/scan_single.glsl (scan_single.comp, scan_single_packed.comp)
SIEVE_CONST(uint, SIEVE_SCAN_SINGLE_SRC, 0)
SIEVE_CONST(uint, SIEVE_SCAN_SINGLE_DST, 1)     // offsets (MODE 0) or records
SIEVE_CONST(uint, SIEVE_SCAN_SINGLE_STATUS, 2)  // tickets, epochs and tile statuses
SIEVE_CONST(uint, SIEVE_SCAN_SINGLE_TOTAL, 3)   // total, or count
SIEVE_CONST(uint, SIEVE_SCAN_SINGLE_OVERFLOW, 4)
SIEVE_CONST(uint, SIEVE_SCAN_SINGLE_PAYLOAD, 5)
SIEVE_CONST(uint, SIEVE_SCAN_SINGLE_BINDINGS, 6)

// prim/compact_append.comp
SIEVE_CONST(uint, SIEVE_APPEND_FLAGS, 0)
SIEVE_CONST(uint, SIEVE_APPEND_OUT, 1)
SIEVE_CONST(uint, SIEVE_APPEND_PAYLOAD, 2)
SIEVE_CONST(uint, SIEVE_APPEND_COUNTER, 3)
SIEVE_CONST(uint, SIEVE_APPEND_BINDINGS, 4)

// prim/compact_finish.comp
SIEVE_CONST(uint, SIEVE_FINISH_COUNTER, 0)
SIEVE_CONST(uint, SIEVE_FINISH_COUNT, 1)
SIEVE_CONST(uint, SIEVE_FINISH_OVERFLOW, 2)
SIEVE_CONST(uint, SIEVE_FINISH_BINDINGS, 3)

// prim/compact_gather.comp
SIEVE_CONST(uint, SIEVE_GATHER_OFFSETS, 0)
SIEVE_CONST(uint, SIEVE_GATHER_OUT, 1)
SIEVE_CONST(uint, SIEVE_GATHER_PAYLOAD, 2)
SIEVE_CONST(uint, SIEVE_GATHER_TOTAL, 3)
SIEVE_CONST(uint, SIEVE_GATHER_COUNT, 4)
SIEVE_CONST(uint, SIEVE_GATHER_OVERFLOW, 5)
SIEVE_CONST(uint, SIEVE_GATHER_BINDINGS, 6)

// prim/compact_scatter.comp
SIEVE_CONST(uint, SIEVE_SCATTER_FLAGS, 0)
SIEVE_CONST(uint, SIEVE_SCATTER_OFFSETS, 1)
SIEVE_CONST(uint, SIEVE_SCATTER_OUT, 2)
SIEVE_CONST(uint, SIEVE_SCATTER_PAYLOAD, 3)
SIEVE_CONST(uint, SIEVE_SCATTER_TOTAL, 4)
SIEVE_CONST(uint, SIEVE_SCATTER_COUNT, 5)
SIEVE_CONST(uint, SIEVE_SCATTER_OVERFLOW, 6)
SIEVE_CONST(uint, SIEVE_SCATTER_BINDINGS, 7)

SIEVE_NS_END

#endif
