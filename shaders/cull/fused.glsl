// Fused culling of one phase (CULL_LATE 0/1, from fused_early.comp / fused_late.comp): the flag pass,
// the scan and the draw-record expansion of the separate pipeline (flag.glsl, prim scan, draw/expand.comp)
// in one dispatch, so that no per-(view, bin, instance) array is written or read back.
//
// A workgroup is a tile of SIEVE_FUSED_TILE instances, SIEVE_FUSED_ROUNDS per invocation (instance
// tile * TILE + r * THREADS + invocation in round r), with its id from a ticket in start order. Per instance and view of the phase it decides as flag.glsl does (cull/decide.glsl; the
// same rule per phase, see there); the late phase learns "drawn early" from a bit mask the early phase
// wrote (earlyBits, view 0) instead of per-view flags, and recomputes the early LOD for cull.state.
// Then, per stream s = view * binCount + bin, SIEVE_FUSED_CHUNK streams at a time: the tile's draws of
// s are scanned (subgroup scans per round, their totals in shared memory in instance order), the tile's aggregate is published,
// one subgroup per stream looks back over its predecessors' statuses (shared/cull_fused.h) for the
// tile's exclusive prefix, publishes the inclusive one, and every invocation writes its records at
// prefix + its offset in the tile (draw/records.glsl): records in instance order, then primitive order,
// exactly as the separate pipeline writes them. The tile with the last ticket knows every stream's
// total after its look-back and writes the streams' DrawCounts.
// FALLBACK (on CPU devices such as lavapipe, whose few threads run workgroups as coroutines): the
// look-back waits boundedly; after SPIN polls of a window with silent predecessors the subgroup computes
// their draws of the stream itself (their decisions read nothing this dispatch writes). Without it (GPUs,
// where every started workgroup stays resident and runs) a tile waits for its predecessors, which took
// their tickets before it and have started; the code of the recomputation would cost registers there.
// ATOMIC = 1, the unordered peer: each tile takes its records per stream from a counter
// (status [2 + s]) instead of looking back; the last tile to finish writes the counts and resets the
// counters.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#include "shared/dispatch.h"
#include "shared/scene.h"
#include "shared/cull.h"
#include "shared/cull_fused.h"
#include "shared/cull_state.h"
#include "shared/draw.h"

layout(local_size_x = 256) in;  // SIEVE_FUSED_THREADS
layout(constant_id = 0) const uint ATOMIC = 0;
layout(constant_id = 1) const uint SPIN = 2048;
layout(constant_id = 2) const bool FALLBACK = true;
// Measurement only (sieve-bench, SIEVE_FUSED_EXPERIMENT): 3 = everything; 0 = stop after the decisions,
// 1 = after the tile's scan and publication, 2 = after the look-back (no records). COUNTERS = 0: no stats.
layout(constant_id = 3) const uint STAGES = 3;
layout(constant_id = 4) const bool COUNTERS = true;
#define CULL_COUNTERS COUNTERS

layout(set = 0, binding = 0, std140) uniform Views { CullParams views[SIEVE_MAX_CULL_VIEWS]; };
layout(set = 0, binding = 1, std430) readonly buffer Instances { Instance instances[]; };
layout(set = 0, binding = 2, std430) readonly buffer Meshes { Mesh meshes[]; };
layout(set = 0, binding = 3, std430) readonly buffer Primitives { MeshPrimitive primitives[]; };
#if CULL_LATE
layout(set = 0, binding = 4, std430) writeonly buffer VisibleLast { uint visibleLast[]; };
layout(set = 0, binding = 5, std430) readonly buffer EarlyBits { uint earlyBits[]; };
#else
layout(set = 0, binding = 4, std430) readonly buffer VisibleLast { uint visibleLast[]; };
layout(set = 0, binding = 5, std430) writeonly buffer EarlyBits { uint earlyBits[]; };
#endif
layout(set = 0, binding = 6, std430) buffer Counters { CullCounters counters[]; };
layout(set = 0, binding = 7, std430) readonly buffer Streams { DrawStream streams[]; };
layout(set = 0, binding = 8, std430) writeonly buffer Draws { DrawCommand draws[]; };
layout(set = 0, binding = 9, std430) writeonly buffer Counts { DrawCounts counts[]; };
layout(set = 0, binding = 10, std430) coherent buffer Status64 { uint64_t status64[]; };
layout(set = 0, binding = 10, std430) coherent buffer Status32 { uint status32[]; };
#if CULL_LATE
layout(set = 0, binding = 11) uniform sampler2D pyramid;  // Hi-Z of view 0
layout(set = 0, binding = 12, std430) writeonly buffer State { uint state[]; };
#endif

layout(push_constant) uniform Push { CullFusedPush pc; };

#include "cull/decide.glsl"
#include "draw/records.glsl"

const uint STATE_SILENT = 0u;
const uint STATE_AGGREGATE = 1u;
const uint STATE_PREFIX = 2u;
const uint STATE_REDUCED = 3u;  // look-back only: a silent predecessor's draws, computed here
const uint EPOCH_MASK = 0x3fffffffu;
const uint MAX_SUBGROUPS = 64u;  // 256 invocations in subgroups of >= 4

shared uint s_tile, s_epoch, s_done;
const uint ROUNDS = SIEVE_FUSED_ROUNDS;
const uint PARTS = ROUNDS * MAX_SUBGROUPS;  // per stream: (round, subgroup) in instance order
shared uint s_sub[SIEVE_FUSED_CHUNK * PARTS];
shared uint s_aggregate[SIEVE_FUSED_CHUNK];
shared uint s_exclusive[SIEVE_FUSED_CHUNK];
shared uint s_bits[SIEVE_FUSED_TILE / 32u];

// ---- The decision of one instance in one view ----

// flag: drawn by this phase in view v. The early phase tests what the main view saw last frame (and an
// EARLY view completely); the late phase the whole test, less what the early phase drew.
bool decide(uint i, uint v, inout InstanceCache c, out bool kept, out bool inFrustum, out bool vis,
            out bool drawnEarly) {
    const uint toggles = views[v].toggles;
    const bool twoPhase = (toggles & SIEVE_CULL_TWO_PHASE) != 0u;
    const bool valid = i < pc.instanceCount;
#if CULL_LATE
    inFrustum = inFrustumKept(i, v, valid, c);
    kept = v == 0u ? keptBy(i, v, valid, c) : inFrustum;  // (only view 0's goes into cull.state)
    vis = visibleOf(i, v, inFrustum, c);
    drawnEarly = twoPhase && valid && ((earlyBits[i >> 5u] >> (i & 31u)) & 1u) != 0u;
    return vis && !drawnEarly;
#else
    const bool earlyView = (toggles & SIEVE_CULL_EARLY) != 0u;
    const bool tested = valid && (earlyView || (twoPhase && visibleLast[v * pc.instanceCount + i] != 0u));
    inFrustum = inFrustumKept(i, v, tested, c);
    kept = inFrustum;  // (unused early)
    vis = inFrustum;
    drawnEarly = false;
    return inFrustum;
#endif
}

// Draws of an instance in stream s, given its flags per view (bit v of flagBits: drawn in view v, with a
// valid mesh) and its mesh.
uint streamDraws(uint s, uvec2 flagBits, uint mesh) {
    const uint v = s / pc.binCount;
    const bool flag = ((flagBits[v >> 5u] >> (v & 31u)) & 1u) != 0u;
    return flag ? binDraws(mesh, s % pc.binCount, pc.binCount) : 0u;
}

// The same from nothing (the look-back's fallback for a silent predecessor).
uint keyDraws(uint i, uint s) {
    if (i >= pc.instanceCount) return 0u;
    InstanceCache c = emptyCache();
    bool kept, inFrustum, vis, drawnEarly;
    if (!decide(i, s / pc.binCount, c, kept, inFrustum, vis, drawnEarly)) return 0u;
    loadMesh(i, c);
    return c.mesh < uint(meshes.length()) ? binDraws(c.mesh, s % pc.binCount, pc.binCount) : 0u;
}

// ---- Decoupled look-back per stream (packed 64-bit statuses) ----

uint statusIndex(uint s, uint tile) {
    return pc.statusBase + s * pc.maxTiles + tile;
}

void publish(uint s, uint tile, uint value, uint state, uint epoch) {
    atomicStore(status64[statusIndex(s, tile)], packUint2x32(uvec2(value, (epoch << 2u) | state)), gl_ScopeDevice,
                gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}

uvec2 poll(uint s, uint tile, uint epoch) {
    const uvec2 w = unpackUint2x32(
        atomicLoad(status64[statusIndex(s, tile)], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed));
    return (w.y >> 2u) == (epoch & EPOCH_MASK) ? uvec2(w.y & 3u, w.x) : uvec2(STATE_SILENT, 0u);
}

// Exclusive prefix of `tile` (> 0) in stream s; called by every invocation of one subgroup, with
// control flow that depends on ballots only. Lane d inspects predecessor end - 1 - d of each window.
uint lookBack(uint s, uint tile, uint epoch) {
    const uint lane = gl_SubgroupInvocationID;
    const uint width = subgroupBallotBitCount(subgroupBallot(true));  // active, not gl_SubgroupSize
    uint exclusive = 0u;
    uint end = tile;
    for (;;) {
        uvec2 st = lane < end ? uvec2(STATE_SILENT, 0u) : uvec2(STATE_PREFIX, 0u);  // before tile 0: empty
        bool found = false;
        uint stop = width - 1u;  // lanes <= stop make up the prefix
        for (uint spin = 1u;; ++spin) {
            if (lane < end && st.x != STATE_PREFIX && st.x != STATE_REDUCED) st = poll(s, end - 1u - lane, epoch);
            const uvec4 prefixes = subgroupBallot(st.x == STATE_PREFIX);
            found = subgroupBallotBitCount(prefixes) != 0u;
            stop = found ? subgroupBallotFindLSB(prefixes) : width - 1u;
            if (subgroupBallotBitCount(subgroupBallot(lane <= stop && st.x == STATE_SILENT)) == 0u) break;
            if (!FALLBACK || spin < SPIN) continue;
            // Bounded wait: compute the silent predecessors' draws of this stream here.
            const uvec4 quiet = subgroupBallot(lane <= stop && st.x == STATE_SILENT);
            for (uint j = 0u; j < width; ++j) {
                if (!subgroupBallotBitExtract(quiet, j)) continue;
                const uint first = (end - 1u - j) * SIEVE_FUSED_TILE;
                uint sum = 0u;
                for (uint k = lane; k < SIEVE_FUSED_TILE; k += width) sum += keyDraws(first + k, s);
                sum = subgroupAdd(sum);
                if (lane == j) st = uvec2(STATE_REDUCED, sum);
            }
            spin = 0u;
        }
        exclusive += subgroupAdd(lane <= stop ? st.y : 0u);
        if (found) return exclusive;
        end -= width;  // no prefix in the window: every lane was in range
    }
    return exclusive;
}

void writeCounts(uint s, uint total) {
    const uint written = min(total, streams[s].capacity);
    counts[s] = DrawCounts(written, total - written, total, 0u);
}

// What an instance carries from its decisions to its records.
struct Drawn {
    uvec2 flags;  // bit v: drawn by this phase in view v (and its mesh is valid)
    uint mesh;
    uint lods;  // LOD in view v < 8 at bits 4v (views past 8 recompute it)
};

uint lodIn(uint i, uint v, Drawn d) {
    if (v < 8u) return (d.lods >> (4u * v)) & 15u;
    InstanceCache c = emptyCache();
    bool meshValid;
    return lodOf(i, v, c, meshValid);
}

void main() {
    const uint t = gl_LocalInvocationID.x;
    const uint n = pc.instanceCount;
    const uint tiles = (n + SIEVE_FUSED_TILE - 1u) / SIEVE_FUSED_TILE;
    if (sieve_group_index() >= tiles) return;  // spare groups of a folded dispatch take no ticket
    if (t == 0u) {
        // Ticket (low word) and epoch (high word) in one relaxed 64-bit add.
        const uvec2 control = unpackUint2x32(
            atomicAdd(status64[0], uint64_t(1), gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed));
        if (control.x == tiles - 1u)  // every tile of this dispatch has its ticket and epoch
            atomicStore(status64[0], packUint2x32(uvec2(0u, control.y + 1u)), gl_ScopeDevice,
                        gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
        s_tile = control.x;
        s_epoch = control.y;
    }
    if (t < SIEVE_FUSED_TILE / 32u) s_bits[t] = 0u;
    barrier();
    const uint tile = s_tile;
    const uint epoch = s_epoch;
    const uint base = tile * SIEVE_FUSED_TILE + t;

    // Every view of the phase: flags, counters, and what the other phase and the debug views read.
    Drawn drawn[ROUNDS];
    for (uint r = 0u; r < ROUNDS; ++r) {
        const uint i = base + r * SIEVE_FUSED_THREADS;
        const bool valid = i < n;
        InstanceCache cache = emptyCache();
        drawn[r] = Drawn(uvec2(0u), 0u, 0u);
        for (uint v = 0u; v < pc.viewCount; ++v) {
            bool kept, inFrustum, vis, drawnEarly;
            const bool flag = decide(i, v, cache, kept, inFrustum, vis, drawnEarly);
            bool meshValid = false;
            const uint lod = flag || (CULL_LATE != 0 && v == 0u && drawnEarly) ? lodOf(i, v, cache, meshValid) : 0u;
            if (flag && meshValid) {
                drawn[r].flags[v >> 5u] |= 1u << (v & 31u);
                if (v < 8u) drawn[r].lods |= lod << (4u * v);
            }
#if CULL_LATE
            if (valid) visibleLast[v * n + i] = vis ? 1u : 0u;
            if (v == 0u && valid) state[i] = stateOf(kept, inFrustum, vis, drawnEarly, lod, lod);
            countSubgroup(inFrustum, v, 0u);
            countSubgroup(vis, v, 2u);
            countSubgroup(flag, v, 3u);
#else
            if (v == 0u && flag) atomicOr(s_bits[(r * SIEVE_FUSED_THREADS + t) >> 5u], 1u << (t & 31u));
            const bool earlyView = (views[v].toggles & SIEVE_CULL_EARLY) != 0u;
            countSubgroup(flag, v, 1u);
            countSubgroup(earlyView && inFrustum, v, 0u);
            countSubgroup(earlyView && inFrustum, v, 2u);
#endif
        }
        drawn[r].mesh = cache.mesh;
    }

    if (STAGES == 0u) return;
    // Every stream, SIEVE_FUSED_CHUNK at a time.
    const uint streamCount = pc.viewCount * pc.binCount;
    const uint sg = gl_SubgroupID;
    for (uint first = 0u; first < streamCount; first += SIEVE_FUSED_CHUNK) {
        const uint count = min(SIEVE_FUSED_CHUNK, streamCount - first);
        for (uint k = 0u; k < count; ++k)
            for (uint r = 0u; r < ROUNDS; ++r) {
                const uint total = subgroupAdd(streamDraws(first + k, drawn[r].flags, drawn[r].mesh));
                if (subgroupElect()) s_sub[k * PARTS + r * MAX_SUBGROUPS + sg] = total;
            }
        barrier();
        if (t < count) {
            // Totals per (round, subgroup) -> exclusive prefixes in instance order; the tile's aggregate.
            uint sum = 0u;
            for (uint r = 0u; r < ROUNDS; ++r)
                for (uint g = 0u; g < gl_NumSubgroups; ++g) {
                    const uint at = t * PARTS + r * MAX_SUBGROUPS + g;
                    const uint x = s_sub[at];
                    s_sub[at] = sum;
                    sum += x;
                }
            s_aggregate[t] = sum;
            if (ATOMIC != 0u)
                s_exclusive[t] = sum == 0u ? 0u
                                           : atomicAdd(status32[2u * (SIEVE_FUSED_ACCUMULATORS + first + t)], sum,
                                                       gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
            else
                publish(first + t, tile, sum, tile == 0u ? STATE_PREFIX : STATE_AGGREGATE, epoch);
        }
        barrier();
        if (STAGES == 1u) return;
        if (ATOMIC == 0u) {
            // One subgroup per stream finds the tile's place in it.
            for (uint k = sg; k < count; k += gl_NumSubgroups) {
                uint exclusive = 0u;
                if (tile > 0u) {
                    exclusive = lookBack(first + k, tile, epoch);
                    if (subgroupElect()) publish(first + k, tile, exclusive + s_aggregate[k], STATE_PREFIX, epoch);
                }
                if (subgroupElect()) s_exclusive[k] = exclusive;
            }
            barrier();
        }
        if (STAGES == 2u) return;
        for (uint k = 0u; k < count; ++k) {
            const uint s = first + k;
            const uint v = s / pc.binCount;
            for (uint r = 0u; r < ROUNDS; ++r) {
                const uint c = streamDraws(s, drawn[r].flags, drawn[r].mesh);
                const uint local =
                    subgroupExclusiveAdd(c) + s_sub[k * PARTS + r * MAX_SUBGROUPS + sg] + s_exclusive[k];
                if (c == 0u) continue;
                const uint i = base + r * SIEVE_FUSED_THREADS;
                writeInstanceDraws(i, drawn[r].mesh, s % pc.binCount, pc.binCount, lodIn(i, v, drawn[r]), local, c,
                                   streams[s]);
            }
        }
        if (ATOMIC == 0u && tile == tiles - 1u && t < count) writeCounts(first + t, s_exclusive[t] + s_aggregate[t]);
        barrier();  // the shared arrays are reused by the next streams
    }
#if !CULL_LATE
    const uint words = SIEVE_FUSED_TILE / 32u;
    if (t < words && tile * words + t < (n + 31u) / 32u) earlyBits[tile * words + t] = s_bits[t];
#endif
    if (ATOMIC != 0u) {
        // The last tile to finish reads every counter after all tiles' additions (their additions happen
        // before their release of `done`, which the last one acquires) and resets them.
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                       gl_SemanticsAcquireRelease);
        if (t == 0u) {
            const uint done = atomicAdd(status32[2], 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                                        gl_SemanticsAcquireRelease);
            s_done = done == tiles - 1u ? 1u : 0u;
            if (done == tiles - 1u)
                atomicStore(status32[2], 0u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
        }
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                       gl_SemanticsAcquireRelease);
        if (s_done != 0u)
            for (uint s = t; s < streamCount; s += SIEVE_FUSED_THREADS)
                writeCounts(s, atomicExchange(status32[2u * (SIEVE_FUSED_ACCUMULATORS + s)], 0u, gl_ScopeDevice,
                                              gl_StorageSemanticsBuffer, gl_SemanticsRelaxed));
    }
}
