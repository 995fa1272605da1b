// Body of the single-pass exclusive scan with decoupled look-back (tier c), optionally with stable
// compaction in the same pass (CompactMethod::OnePass: records scattered instead of offsets written).
// Included by scan_single.comp (status in two words per tile) and scan_single_packed.comp
// (SIEVE_PACKED_STATUS: one 64-bit word per tile), and by shaders that fold their own input, records and
// total into the scan through hooks (SIEVE_SCAN_HOOKS below; the cluster plugin's shaders/cluster/scan_*).
//
// Tiles take their ids from an atomic counter in start order, so every predecessor of a tile has started.
// A tile publishes its aggregate (state 1), looks back over its predecessors, then publishes its inclusive
// prefix (state 2). The look-back is done by subgroup 0: each lane inspects LOOKBACK_PER_LANE predecessors,
// ballots find the nearest inclusive prefix in the window, the aggregates between it and the tile are
// summed, and the window moves back by its width when it holds no prefix.
// Waiting is bounded: after SPIN polls of a window that still holds silent predecessors (nothing
// published) the subgroup reduces their input itself and moves on, so a tile never depends on another
// workgroup being scheduled (no forward-progress guarantee is assumed; lavapipe needs this).
//
// Scratch (bound `coherent`), one region per chunk at a position that does not depend on n: a control
// pair [counterWord] = ticket counter, [counterWord + 1] = epoch, then one status per tile of the chunk:
//  - packed: status64[flagsWord + local tile] = tag << 32 | value. One relaxed 64-bit atomic store
//    publishes both; one relaxed atomic load reads both. Nothing else is communicated, so no fence.
//  - two words: status[flagsWord + 3 * local tile + 0..2] = tag, aggregate, inclusive prefix.
//    Publication: value, fence, release store of the tag. Readers poll the tag with relaxed atomic
//    loads, fence, then read the value of the state they saw (the aggregate word never changes within
//    a scan, so a state-1 read always pairs with its own value).
// tag = epoch << 2 | state. A status whose epoch is not this scan's reads as silent, so the status words
// never need clearing: a scan takes the epoch of its chunk with its ticket, the tile that takes the last
// ticket resets the counter and advances the epoch. Packed: ticket and epoch are one 64-bit word, taken
// by one relaxed add. Two words: the epoch is read before the ticket and the ticket RMW releases that
// read, while the last one acquires every earlier RMW, so the epoch advances only after every tile has
// read it (on the H200, with the packed layout, that form cost 15-18% at 2^24..2^28: bench/RESULTS.md).
// The host either zero-fills the region before each scan (default), or once at allocation
// (PrimOptions::persistentLookback; epochs wrap after 2^30 scans of one scratch).
// The look-back reaches the previous chunk (an earlier dispatch, all of it published) only through
// its last tile, status [prevStatus], written in the epoch before the one at [prevCounterWord + 1].
// Polls are relaxed atomics everywhere: acquire semantics on the polling atomic itself make Mesa lavapipe
// (LLVM 15) abandon the workgroup; a relaxed poll followed by a fence is the portable form.
//
// Records (MODE != 0) are written where the tile's prefixes are known, each invocation its own elements'
// in turn, or, where the includer defines SIEVE_SCAN_DEFERRED_RECORDS 1 (hooks whose writeRecord is heavy),
// by the whole workgroup from a list in shared memory (deferred records, below).
#include "prim/config.glsl"
#include "shared/prim_bindings.h"
#include "shared/prim_push.h"
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#if SIEVE_PACKED_STATUS
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#endif

layout(constant_id = 3) const bool BINARIZE = false;
layout(constant_id = 4) const uint MODE = 0;  // 0: write offsets; 1, 2: scatter records (see record.glsl)
layout(constant_id = 5) const bool HAS_PAYLOAD = false;
layout(constant_id = 6) const uint SPIN = 2048;
layout(constant_id = 7) const uint LOOKBACK_PER_LANE = 1;  // predecessors each lane inspects per poll

#ifndef SIEVE_TILE_VALUE
layout(set = 0, binding = SIEVE_SCAN_SINGLE_SRC) readonly buffer Src1 { uint v[]; } src1;
layout(set = 0, binding = SIEVE_SCAN_SINGLE_SRC) readonly buffer Src4 { uvec4 v[]; } src4;
#endif
layout(set = 0, binding = SIEVE_SCAN_SINGLE_DST) writeonly buffer Dst1 { uint v[]; } dst1;  // offsets (MODE 0) or records
layout(set = 0, binding = SIEVE_SCAN_SINGLE_DST) writeonly buffer Dst4 { uvec4 v[]; } dst4;
layout(set = 0, binding = SIEVE_SCAN_SINGLE_STATUS) coherent buffer Status { uint v[]; } status;
#if SIEVE_PACKED_STATUS
layout(set = 0, binding = SIEVE_SCAN_SINGLE_STATUS) coherent buffer Status64 { uint64_t v[]; } status64;
#endif

#include "prim/tile_load.glsl"
#include "prim/workgroup_scan.glsl"

#ifdef SIEVE_SCAN_HOOKS
// A shader that folds its own work into the scan (shaders/cluster/scan_*.glsl) defines SIEVE_SCAN_HOOKS
// before including this file, declares its other resources at bindings past SIEVE_SCAN_SINGLE_STATUS and
// defines these hooks (and may define SIEVE_TILE_VALUE: the input computed, not read from binding 0;
// prim/tile_load.glsl):
ScanSinglePush sp;                                   // the scan's parameters, filled by scanParameters()
void scanParameters();                               // first thing of main, every invocation
void writeRecord(uint slot, uint local, uint item);  // MODE != 0: item `local` of the chunk is record `slot`
void scanTileDone();                                 // every invocation, after the tile's records or offsets
void scanFinish(uint inclusive);                     // invocation 0 of the last tile: the scan's total

// What scanParameters() sets for a scan of n values in one chunk, its status from the start of binding 2
// (the ticket counter, the epoch, then the tiles), records below `capacity` (MODE 1).
void scanOneChunk(uint n, uint capacity) {
    sp.n = n;
    sp.firstTile = 0u;
    sp.lastTile = max((n + TILE - 1u) / TILE, 1u) - 1u;
    sp.firstItem = 0u;
    sp.counterWord = 0u;
    sp.flagsWord = SIEVE_PACKED_STATUS != 0 ? 1u : 2u;
    sp.prevStatus = 0u;
    sp.prevCounterWord = 0u;
    sp.totalWord = 0u;
    sp.overflowWord = 0u;
    sp.capacity = capacity;
}
#else
layout(set = 0, binding = SIEVE_SCAN_SINGLE_TOTAL) writeonly buffer Total { uint v[]; } total;  // total, or count
layout(set = 0, binding = SIEVE_SCAN_SINGLE_OVERFLOW) writeonly buffer Overflow { uint v[]; } overflow;
layout(set = 0, binding = SIEVE_SCAN_SINGLE_PAYLOAD) readonly buffer Payload { uint v[]; } payload;
layout(push_constant) uniform Push { ScanSinglePush sp; };

#define recOut dst1
#include "prim/record.glsl"

void scanParameters() {}
void scanTileDone() {}
void scanFinish(uint inclusive) {
    if (MODE == 0) {
        total.v[sp.totalWord] = inclusive;
    } else {
        const uint kept = min(inclusive, sp.capacity);
        total.v[sp.totalWord] = kept;
        overflow.v[sp.overflowWord] = inclusive - kept;
    }
}
#endif

#ifdef SIEVE_SCAN_SEGMENTS
// A shader with hooks whose input is several independent scans, each a run of whole tiles (a segment), also
// defines SIEVE_SCAN_SEGMENTS and these hooks: every exclusive prefix is then relative to its segment
// (the segment's first tile publishes its inclusive prefix at once, as tile 0 does, and no look-back
// reaches past it, neither by polling nor by reducing silent predecessors). One chunk only.
uint scanSegmentFirst(uint tile);             // the first tile of tile's segment
void scanTileEnd(uint tile, uint inclusive);  // invocation 0 of every tile: its segment-relative inclusive prefix
#else
uint scanSegmentFirst(uint tile) { return 0u; }
void scanTileEnd(uint tile, uint inclusive) {}
#endif

#ifndef SIEVE_SCAN_DEFERRED_RECORDS
#define SIEVE_SCAN_DEFERRED_RECORDS 0
#endif
#if SIEVE_SCAN_DEFERRED_RECORDS
// Deferred records (MODE != 0). Every non-zero element of the tile takes one entry of a list, the entries of
// an invocation's elements consecutive and in element order; the invocation finds its first entry with one
// shared atomic per subgroup (entries are ordered by that atomic, so their order varies; the records do
// not). Once the prefixes are known, invocations stage (slot, element) of their entries in shared memory,
// RECORD_LIST entries a pass, and after a barrier the workgroup writes the pass's records, entry j by
// invocation j mod WG: one call site of writeRecord, reached with little else live (the tile's input is
// loaded again for a second pass, rather than kept), and a key's dependent loads run in parallel with the
// other keys' instead of after them. Records, slots and the capacity test are those written in place.
// RECORD_LIST: 2 * WG entries of 8 bytes (4 KiB at WG 256; 2 KiB at the 128 of the Vulkan minimum), WG of
// them at WG 1024 (8 KiB), next to the 22 bytes per invocation of prim/workgroup_scan.glsl: the shader
// stays within 10 KiB at WG 256 and within 32 KiB at any size.
const uint RECORD_LIST = WG > 512u ? WG : 2u * WG;
shared uint s_recordCount;  // entries of the tile: its non-zero elements
shared uint s_recordSlot[RECORD_LIST];
shared uint s_recordElement[RECORD_LIST];
#endif

const uint STATE_SILENT = 0;
const uint STATE_AGGREGATE = 1;
const uint STATE_PREFIX = 2;
const uint STATE_REDUCED = 3;  // look-back only: the aggregate of a silent predecessor, reduced here

shared uint s_tile;
shared uint s_epoch, s_prevEpoch;
shared uint s_exclusive;

const uint EPOCH_MASK = 0x3fffffffu;  // epoch bits of a tag

// (state, value) of a status (tag, value) for a reader of `epoch`: another epoch's status is silent.
uvec2 decode(uint tag, uint value, uint epoch) {
    return (tag >> 2) == (epoch & EPOCH_MASK) ? uvec2(tag & 3u, value) : uvec2(STATE_SILENT, 0);
}

#if SIEVE_PACKED_STATUS
void publish(uint tile, uint value, uint state, uint epoch) {
    atomicStore(status64.v[sp.flagsWord + tile - sp.firstTile], packUint2x32(uvec2(value, (epoch << 2) | state)),
                gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}
// (state, value) of predecessor p; predecessors in earlier chunks are that chunk's last tile.
uvec2 poll(uint p, uint epoch, uint prevEpoch) {
    const bool here = p >= sp.firstTile;
    const uvec2 w = unpackUint2x32(atomicLoad(status64.v[here ? sp.flagsWord + p - sp.firstTile : sp.prevStatus],
                                              gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed));
    return decode(w.y, w.x, here ? epoch : prevEpoch);
}
#else
uint statusWord(uint p) {
    return p >= sp.firstTile ? sp.flagsWord + 3u * (p - sp.firstTile) : sp.prevStatus;
}
void publish(uint tile, uint value, uint state, uint epoch) {
    const uint at = statusWord(tile);
    status.v[at + (state == STATE_PREFIX ? 2u : 1u)] = value;
    memoryBarrierBuffer();
    atomicStore(status.v[at], (epoch << 2) | state, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
}
// (state, 0) of predecessor p: the value is read after the window is complete (readValue).
uvec2 poll(uint p, uint epoch, uint prevEpoch) {
    const uint tag =
        atomicLoad(status.v[statusWord(p)], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    return decode(tag, 0, p >= sp.firstTile ? epoch : prevEpoch);
}
#endif

// Sum of one tile's (binarized) input by the whole subgroup of `width` active invocations, for the
// look-back fallback. The stride is the active width, not gl_SubgroupSize: a subgroup may run fewer
// invocations than gl_SubgroupSize (lavapipe at 1024/2048-bit vectors runs 16 of a declared 32/64;
// docs/subgroup-matrix.md), and a stride of gl_SubgroupSize would skip part of the tile.
uint subgroupReduceTile(uint tileBase, uint width) {
    uint sum = 0;
    const uint end = min(tileBase + TILE, sp.n);
    for (uint e = tileBase + 4 * gl_SubgroupInvocationID; e < end; e += 4 * width) {
        uvec4 x = loadVec(e, sp.n, 0);
        if (BINARIZE) x = uvec4(notEqual(x, uvec4(0)));
        sum += vecSum(x);
    }
    return subgroupAdd(sum);
}

// Exclusive prefix of `tile` (not the first of its segment). Called by every invocation of one subgroup;
// all control flow that contains subgroup operations is subgroup-uniform (it depends on ballots only).
// A window covers width * LOOKBACK_PER_LANE predecessors: entry k of a lane inspects the predecessor at
// distance d = k * width + lane (so each of the lane's loads is coalesced with its neighbours'). The
// window must outrun the tiles' arrival: a tile walks back to the nearest published prefix, one window
// per memory round trip, while new tiles keep arriving.
uint lookBack(uint tile, uint epoch, uint prevEpoch) {
    const uint lane = gl_SubgroupInvocationID;
    const uint width = subgroupBallotBitCount(subgroupBallot(true));  // active lanes
    const uint window = width * LOOKBACK_PER_LANE;
    uint exclusive = 0;
    uint end = tile;  // this window inspects predecessors end - 1 - d
    const uint first = scanSegmentFirst(tile);  // predecessors before it are not this tile's
    for (;;) {
        // Entries before the segment's first tile (tile 0 without segments) read as an empty inclusive
        // prefix, so every look-back ends there.
        uvec2 s[LOOKBACK_PER_LANE];
        for (uint k = 0; k < LOOKBACK_PER_LANE; ++k)
            s[k] = k * width + lane < end - first ? uvec2(STATE_SILENT, 0) : uvec2(STATE_PREFIX, 0);
        bool found = false;
        uint stop = 0;  // entries at d <= stop (predecessors end-1 .. end-1-stop) make up the prefix
        for (uint spin = 1;; ++spin) {
            // Re-poll every entry without an inclusive prefix: a nearer one shortens the walk.
            for (uint k = 0; k < LOOKBACK_PER_LANE; ++k) {
                const uint d = k * width + lane;
                if (d < end - first && s[k].x != STATE_PREFIX && s[k].x != STATE_REDUCED)
                    s[k] = poll(end - 1 - d, epoch, prevEpoch);
            }
            found = false;
            stop = window - 1;
            for (uint k = 0; k < LOOKBACK_PER_LANE; ++k) {
                const uvec4 prefixes = subgroupBallot(s[k].x == STATE_PREFIX);
                if (subgroupBallotBitCount(prefixes) != 0) {
                    found = true;
                    stop = k * width + subgroupBallotFindLSB(prefixes);
                    break;
                }
            }
            bool silent = false;
            for (uint k = 0; k < LOOKBACK_PER_LANE; ++k)
                silent = silent || (k * width + lane <= stop && s[k].x == STATE_SILENT);
            if (subgroupBallotBitCount(subgroupBallot(silent)) == 0) break;
            if (spin < SPIN) continue;
            // Bounded wait: reduce the silent predecessors' input here. Tiles of earlier chunks finished
            // in an earlier dispatch and are published; they are only polled again.
            for (uint k = 0; k < LOOKBACK_PER_LANE; ++k) {
                const uvec4 quiet = subgroupBallot(k * width + lane <= stop && s[k].x == STATE_SILENT);
                for (uint j = 0; j < width; ++j) {
                    if (!subgroupBallotBitExtract(quiet, j)) continue;
                    const uint q = end - 1 - (k * width + j);
                    if (q < sp.firstTile) continue;
                    const uint sum = subgroupReduceTile((q - sp.firstTile) * TILE, width);
                    if (lane == j) s[k] = uvec2(STATE_REDUCED, sum);
                }
            }
            spin = 0;
        }
#if !SIEVE_PACKED_STATUS
        memoryBarrierBuffer();  // acquire: pairs with the release in publish()
        for (uint k = 0; k < LOOKBACK_PER_LANE; ++k) {
            const uint d = k * width + lane;
            if (d < end - first && d <= stop && (s[k].x == STATE_AGGREGATE || s[k].x == STATE_PREFIX))
                s[k].y = status.v[statusWord(end - 1 - d) + (s[k].x == STATE_PREFIX ? 2u : 1u)];
        }
#endif
        uint sum = 0;
        for (uint k = 0; k < LOOKBACK_PER_LANE; ++k)
            if (k * width + lane <= stop) sum += s[k].y;
        exclusive += subgroupAdd(sum);
        if (found) return exclusive;
        end -= window;  // no prefix in the window: every entry was in range, so end - first >= window
    }
    return exclusive;
}

// The per-subgroup totals of the tile scan (s_wsSub): those of the subgroups before this one, and all.
void sumSubgroupTotals(uint stride, inout uvec4 before, inout uvec4 all) {
    for (uint k = gl_SubgroupInvocationID; k < gl_NumSubgroups; k += stride) {
        const uvec4 v = s_wsSub[k];
        all += v;
        if (k < gl_SubgroupID) before += v;
    }
}

uvec4 loadTile(uint tileBase, out uvec4 x[4]) {
    uvec4 sums = uvec4(0);
    for (uint r = 0; r < ROUNDS; ++r) {
        x[r] = loadVec(tileElement(tileBase, r), sp.n, 0);
        if (BINARIZE) x[r] = uvec4(notEqual(x[r], uvec4(0)));
        sums[r] = vecSum(x[r]);
    }
    return sums;
}

#if SIEVE_SCAN_DEFERRED_RECORDS
// The list position of this invocation's first entry (its others follow). Every invocation, in uniform
// control flow, after s_recordCount was zeroed and before the barrier that precedes reading it.
uint recordListBase(uvec4 x[4]) {
    uint mine = 0;
    for (uint r = 0; r < ROUNDS; ++r) mine += vecSum(uvec4(notEqual(x[r], uvec4(0))));
    const uint sum = subgroupAdd(mine);
    if (sum == 0) return 0;  // subgroup-uniform
    uint first = 0;
    if (subgroupElect()) first = atomicAdd(s_recordCount, sum);
    return subgroupBroadcastFirst(first) + subgroupExclusiveAdd(mine);
}

// Stages this invocation's entries at list positions [from, from + RECORD_LIST): the slot and element of
// each. starts[r]: the slot of the invocation's first element of round r.
void stageRecords(uvec4 x[4], uvec4 starts, uint base, uint from, uint tileBase) {
    uint at = base - from;  // the next entry's place in this pass (wraps around below `from`)
    for (uint r = 0; r < ROUNDS; ++r) {
        const uvec4 o = uvec4(starts[r]) + vecExclusive(x[r]);
        const uint e = tileElement(tileBase, r);
        for (uint c = 0; c < 4; ++c) {
            if (x[r][c] == 0) continue;
            if (at < RECORD_LIST) {
                s_recordSlot[at] = o[c];
                s_recordElement[at] = e + c;
            }
            ++at;
        }
    }
}

// The tile's records, RECORD_LIST entries a pass, by the whole workgroup (uniform control flow: barriers).
// Slots only grow from `exclusive` on, so a tile that starts at or past the capacity writes nothing.
void writeDeferredRecords(uvec4 x[4], uvec4 starts, uint base, uint exclusive, uint tileBase) {
    const uint count = s_recordCount;
    if (count == 0 || exclusive >= sp.capacity) return;
    stageRecords(x, starts, base, 0, tileBase);
    for (uint from = 0;;) {
        barrier();
        const uint end = min(count - from, RECORD_LIST);
        for (uint j = gl_LocalInvocationID.x; j < end; j += WG) {
            const uint slot = s_recordSlot[j];
            if (slot < sp.capacity) {
                const uint e = s_recordElement[j];
                writeRecord(slot, e, sp.firstItem + e);
            }
        }
        from += RECORD_LIST;
        if (from >= count) return;
        barrier();  // the pass is read before the next one is staged
        uvec4 y[4];
        loadTile(tileBase, y);  // the input does not change during the scan
        stageRecords(y, starts, base, from, tileBase);
    }
}
#endif

void main() {
    scanParameters();
    const uint t = gl_LocalInvocationID.x;
    // n = 0 (a hooked scan of an empty input) still runs one tile: it publishes 0 and finishes the scan.
    const uint tiles = max((sp.n + TILE - 1) / TILE, 1u);
    if (sieve_group_index() >= tiles) return;  // spare groups of a folded dispatch take no tile id
    if (t == 0) {
#if SIEVE_PACKED_STATUS
        // Ticket (low word) and epoch (high word) in one 64-bit add: no ordering needed.
        const uvec2 control = unpackUint2x32(atomicAdd(status64.v[sp.counterWord / 2], uint64_t(1), gl_ScopeDevice,
                                                       gl_StorageSemanticsBuffer, gl_SemanticsRelaxed));
        const uint ticket = control.x, epoch = control.y;
        if (ticket == tiles - 1u)  // every tile of this dispatch has its ticket and epoch
            atomicStore(status64.v[sp.counterWord / 2], packUint2x32(uvec2(0u, epoch + 1u)), gl_ScopeDevice,
                        gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
#else
        const uint epoch =
            atomicLoad(status.v[sp.counterWord + 1], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
        const uint ticket = atomicAdd(status.v[sp.counterWord], 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                                      gl_SemanticsAcquireRelease);
        if (ticket == tiles - 1u) {  // every tile of this dispatch has its ticket and has read the epoch
            atomicStore(status.v[sp.counterWord], 0u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
            atomicStore(status.v[sp.counterWord + 1], epoch + 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                        gl_SemanticsRelaxed);
        }
#endif
        s_tile = ticket;
        s_epoch = epoch;
#if SIEVE_SCAN_DEFERRED_RECORDS
        s_recordCount = 0;
#endif
        // The previous chunk finished in an earlier dispatch and advanced its epoch once since.
        s_prevEpoch = sp.firstTile > 0 ? status.v[sp.prevCounterWord + 1] - 1u : 0u;
    }
    barrier();
    const uint local = s_tile;
    const uint tile = sp.firstTile + local;
    const uint epoch = s_epoch, prevEpoch = s_prevEpoch;

    uvec4 x[4];
    uvec4 roundTotals, ex;
    const uvec4 sums = loadTile(local * TILE, x);
    if (SUBGROUPS) {
        // One barrier: subgroup totals to shared memory, then every subgroup adds up the totals before it
        // itself (no pass through subgroup 0), so the aggregate is published as early as it can be.
        ex = subgroupExclusiveAdd(sums);
        const uvec4 own = subgroupAdd(sums);
        if (subgroupElect()) s_wsSub[gl_SubgroupID] = own;
        barrier();
        uvec4 before = uvec4(0), all = uvec4(0);
        // Full subgroups (the test folds where the compiler knows both sides) walk the totals with the
        // stride gl_SubgroupSize, partial ones with their active width (as workgroup_scan.glsl).
        if (gl_NumSubgroups * gl_SubgroupSize == gl_WorkGroupSize.x)
            sumSubgroupTotals(gl_SubgroupSize, before, all);
        else
            sumSubgroupTotals(subgroupBallotBitCount(subgroupBallot(true)), before, all);
        ex += subgroupAdd(before);
        roundTotals = subgroupAdd(all);
    } else {
        ex = workgroupExclusiveScan(sums, roundTotals);
    }
    const uint aggregate = vecSum(roundTotals);

    // Subgroup 0 publishes, looks back and publishes the inclusive prefix at once (successors wait on
    // it); the other subgroups wait at the barrier.
    if (gl_SubgroupID == 0) {
        const bool leader = subgroupElect();
        uint exclusive = 0;
        if (tile == scanSegmentFirst(tile)) {
            if (leader) publish(tile, aggregate, STATE_PREFIX, epoch);
        } else {
            if (leader) publish(tile, aggregate, STATE_AGGREGATE, epoch);
            exclusive = lookBack(tile, epoch, prevEpoch);
            if (leader) publish(tile, exclusive + aggregate, STATE_PREFIX, epoch);
        }
        if (leader) s_exclusive = exclusive;
    }
#if SIEVE_SCAN_DEFERRED_RECORDS
    // Off the look-back's path: subgroup 0 counts its entries after publishing the tile's prefix.
    const uint recordBase = MODE != 0 ? recordListBase(x) : 0u;
#endif
    barrier();
    const uint exclusive = s_exclusive;
    const uint inclusive = exclusive + aggregate;

    uint offset = exclusive;
    uvec4 starts = uvec4(0);  // per round: the offset (slot) of this invocation's first element
    for (uint r = 0; r < ROUNDS; ++r) {
        starts[r] = offset + ex[r];
        const uint e = tileElement(local * TILE, r);
        const uvec4 o = uvec4(starts[r]) + vecExclusive(x[r]);
        if (MODE == 0) {
            if (e + 4 <= sp.n) {
                dst4.v[e >> 2] = o;
            } else {
                for (uint c = 0; c < 4; ++c)
                    if (e + c < sp.n) dst1.v[e + c] = o[c];
            }
        } else if (SIEVE_SCAN_DEFERRED_RECORDS == 0) {
            for (uint c = 0; c < 4; ++c)
                if (x[r][c] != 0 && o[c] < sp.capacity) writeRecord(o[c], e + c, sp.firstItem + e + c);
        }
        offset += roundTotals[r];
    }
#if SIEVE_SCAN_DEFERRED_RECORDS
    if (MODE != 0) writeDeferredRecords(x, starts, recordBase, exclusive, local * TILE);
#endif
    scanTileDone();
    if (t == 0) scanTileEnd(tile, inclusive);
    if (t == 0 && tile == sp.lastTile) scanFinish(inclusive);
}
