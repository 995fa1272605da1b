#ifndef SIEVE_SHARED_CULL_FUSED_H
#define SIEVE_SHARED_CULL_FUSED_H
// The fused culling pass (shaders/cull/fused.glsl): one dispatch per phase tests every instance in
// every view of the phase, scans the per-(view, bin) draw counts of its tile, finds the tile's place in
// each stream by decoupled look-back, and writes the draw records and the streams' counts.
#include "shared/common.h"

SIEVE_NS_BEGIN

SIEVE_CONST(uint, SIEVE_FUSED_THREADS, 256u)  // invocations per workgroup
SIEVE_CONST(uint, SIEVE_FUSED_ROUNDS, 4u)     // instances per invocation, 256 apart
SIEVE_CONST(uint, SIEVE_FUSED_TILE, 1024u)    // instances per workgroup (THREADS * ROUNDS)
SIEVE_CONST(uint, SIEVE_FUSED_CHUNK, 16u)     // streams a workgroup scans at a time

// Status buffer of one pass slot, in 64-bit words (persistent, zeroed once at creation):
//   [0]  ticket (low 32 bits) | epoch (high 32 bits): tiles take their ids in start order; the tile with
//        the last ticket resets the ticket and advances the epoch, so statuses never need clearing.
//   [1]  low 32 bits: tiles done (atomic order only), reset by the last one
//   [2, statusBase)  low 32 bits: per-stream record counters (atomic order only), reset by the last tile
//   [statusBase + s * maxTiles + tile]  value (low) | (epoch << 2 | state) (high) of stream s, tile
SIEVE_CONST(uint, SIEVE_FUSED_ACCUMULATORS, 2u)

struct CullFusedPush {
    uint instanceCount;
    uint viewCount;  // views of this phase (streams = viewCount * binCount)
    uint binCount;
    uint maxTiles;    // status entries per stream
    uint statusBase;  // 64-bit index of the first status (SIEVE_FUSED_ACCUMULATORS + the slot's streams)
    uint pad0;
    uint pad1;
    uint pad2;
};

SIEVE_NS_END

#endif
