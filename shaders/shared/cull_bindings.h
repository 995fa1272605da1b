#ifndef SIEVE_SHARED_CULL_BINDINGS_H
#define SIEVE_SHARED_CULL_BINDINGS_H
// The descriptor bindings of the culling shaders (instances and clusters), numbered here once: the GLSL
// declares each resource at its name (layout(binding = SIEVE_FLAG_INSTANCES)) and the C++ that records the
// shader puts each descriptor at the same name (sieve::BindingSet), so neither side repeats the other's
// order.
#include "shared/common.h"
#include "shared/prim_bindings.h"

SIEVE_NS_BEGIN

// cull/flag.glsl: flag_early.comp binds the first SIEVE_FLAG_EARLY_BINDINGS, flag_late.comp all.
SIEVE_CONST(uint, SIEVE_FLAG_VIEWS, 0)  // uniform CullParams[SIEVE_MAX_CULL_VIEWS]
SIEVE_CONST(uint, SIEVE_FLAG_INSTANCES, 1)
SIEVE_CONST(uint, SIEVE_FLAG_BOUNDS, 2)
SIEVE_CONST(uint, SIEVE_FLAG_MESHES, 3)
SIEVE_CONST(uint, SIEVE_FLAG_PRIMITIVES, 4)
SIEVE_CONST(uint, SIEVE_FLAG_VISIBLE_LAST, 5)
SIEVE_CONST(uint, SIEVE_FLAG_FLAGS, 6)
SIEVE_CONST(uint, SIEVE_FLAG_DRAW_COUNTS, 7)
SIEVE_CONST(uint, SIEVE_FLAG_LODS, 8)
SIEVE_CONST(uint, SIEVE_FLAG_COUNTERS, 9)
SIEVE_CONST(uint, SIEVE_FLAG_DRAW_MARKS, 10)  // per SIEVE_DRAW_MARK_KEYS keys (shared/draw_push.h)
SIEVE_CONST(uint, SIEVE_FLAG_EARLY_BINDINGS, 11)
SIEVE_CONST(uint, SIEVE_FLAG_PYRAMID, 11)  // late only, from here on; sampler2D
SIEVE_CONST(uint, SIEVE_FLAG_LODS_EARLY, 12)
SIEVE_CONST(uint, SIEVE_FLAG_STATE, 13)
SIEVE_CONST(uint, SIEVE_FLAG_OCCLUSION_VIEW, 14)  // uniform CullParams
SIEVE_CONST(uint, SIEVE_FLAG_CANDIDATES, 15)       // the split late pass only (shared/cull.h SIEVE_CULL_CANDIDATE_*)
SIEVE_CONST(uint, SIEVE_FLAG_BINDINGS, 16)

// cull/check.glsl (check.comp, check_ms.comp)
SIEVE_CONST(uint, SIEVE_CHECK_VIEWS, 0)
SIEVE_CONST(uint, SIEVE_CHECK_BOUNDS, 1)
SIEVE_CONST(uint, SIEVE_CHECK_STATE, 2)
SIEVE_CONST(uint, SIEVE_CHECK_DEPTH, 3)  // the host's depth, sampled
SIEVE_CONST(uint, SIEVE_CHECK_RESULT, 4)
SIEVE_CONST(uint, SIEVE_CHECK_BINDINGS, 5)

// cull/stats.comp
SIEVE_CONST(uint, SIEVE_STATS_COUNTERS, 0)
SIEVE_CONST(uint, SIEVE_STATS_EARLY, 1)
SIEVE_CONST(uint, SIEVE_STATS_LATE, 2)
SIEVE_CONST(uint, SIEVE_STATS_CHECK, 3)
SIEVE_CONST(uint, SIEVE_STATS_RING, 4)
SIEVE_CONST(uint, SIEVE_STATS_BINDINGS, 5)

// cluster/test.comp
SIEVE_CONST(uint, SIEVE_CTEST_PARAMS, 0)  // uniform CullParams
SIEVE_CONST(uint, SIEVE_CTEST_INSTANCES, 1)
SIEVE_CONST(uint, SIEVE_CTEST_PRIMITIVES, 2)
SIEVE_CONST(uint, SIEVE_CTEST_CLUSTERS, 3)
SIEVE_CONST(uint, SIEVE_CTEST_RANGES, 4)
SIEVE_CONST(uint, SIEVE_CTEST_INSTANCE_SLOTS, 5)
SIEVE_CONST(uint, SIEVE_CTEST_DRAWS_A, 6)  // the early list
SIEVE_CONST(uint, SIEVE_CTEST_DRAWS_B, 7)  // the phase's list
SIEVE_CONST(uint, SIEVE_CTEST_OFFSETS, 8)
SIEVE_CONST(uint, SIEVE_CTEST_WORK, 9)
SIEVE_CONST(uint, SIEVE_CTEST_VISIBILITY, 10)
SIEVE_CONST(uint, SIEVE_CTEST_FLAGS, 11)
SIEVE_CONST(uint, SIEVE_CTEST_CANDIDATES, 12)
SIEVE_CONST(uint, SIEVE_CTEST_COUNTERS, 13)
SIEVE_CONST(uint, SIEVE_CTEST_PYRAMID, 14)  // sampler2D
SIEVE_CONST(uint, SIEVE_CTEST_BINDINGS, 15)

// cluster/args.comp
SIEVE_CONST(uint, SIEVE_CARGS_COUNTS_A, 0)  // the early list's counts
SIEVE_CONST(uint, SIEVE_CARGS_COUNTS_B, 1)  // the phase's list's counts
SIEVE_CONST(uint, SIEVE_CARGS_WORK, 2)
SIEVE_CONST(uint, SIEVE_CARGS_BINDINGS, 3)

// cluster/scan_candidates.glsl and scan_emit.glsl (the cluster phase's single-pass scans). The first three
// are the scan's own (prim/scan_single.glsl declares them): scan_emit's input (scan_candidates computes
// its own), the output (scan_candidates: the candidate offsets; scan_emit: the ids), the look-back status.
SIEVE_CONST(uint, SIEVE_CSCAN_FLAGS, SIEVE_SCAN_SINGLE_SRC)
SIEVE_CONST(uint, SIEVE_CSCAN_OUTPUT, SIEVE_SCAN_SINGLE_DST)
SIEVE_CONST(uint, SIEVE_CSCAN_LOOKBACK, SIEVE_SCAN_SINGLE_STATUS)
SIEVE_CONST(uint, SIEVE_CSCAN_WORK, 3)
SIEVE_CONST(uint, SIEVE_CSCAN_DRAWS_A, 4)  // the early list
SIEVE_CONST(uint, SIEVE_CSCAN_DRAWS_B, 5)  // the phase's list
SIEVE_CONST(uint, SIEVE_CSCAN_COUNTERS, 6)
SIEVE_CONST(uint, SIEVE_CSCAN_RANGES, 7)    // scan_candidates
SIEVE_CONST(uint, SIEVE_CSCAN_CLUSTERS, 8)  // scan_emit, and the rest
SIEVE_CONST(uint, SIEVE_CSCAN_CANDIDATES, 9)
SIEVE_CONST(uint, SIEVE_CSCAN_OUT_DRAWS, 10)
SIEVE_CONST(uint, SIEVE_CSCAN_OUT_COUNTS, 11)
SIEVE_CONST(uint, SIEVE_CSCAN_TASKS, 12)
SIEVE_CONST(uint, SIEVE_CSCAN_BINDINGS, 13)

SIEVE_NS_END

#endif
