#version 460
// Single-pass exclusive scan with decoupled look-back (tier c), optionally fused with stable compaction.
// Tiles take their ids from an atomic counter in start order, so every predecessor of a tile has started.
// A tile publishes its aggregate (state 1), looks back over its predecessors, then publishes its
// inclusive prefix (state 2). Waiting is bounded: after SPIN polls of a predecessor that has published
// nothing, the waiting tile reduces that predecessor's input itself and moves on, so it never depends on
// another workgroup being scheduled (no forward-progress guarantee is assumed; lavapipe needs this).
// Status words (scratch, zeroed by the host before the dispatch, bound `coherent`):
//   [flagsWord + tile] state, [aggWord + tile] aggregate, [inclWord + tile] inclusive prefix,
//   [counterWord] tile counter of this chunk. Publication: value, then a release store of the state;
// readers acquire-load the state, then read the value.
#include "prim/config.glsl"
#extension GL_KHR_memory_scope_semantics : require

layout(constant_id = 3) const bool BINARIZE = false;
layout(constant_id = 4) const uint MODE = 0;  // 0: write offsets; 1, 2: scatter records (see record.glsl)
layout(constant_id = 5) const bool HAS_PAYLOAD = false;
layout(constant_id = 6) const uint SPIN = 2048;

layout(set = 0, binding = 0) readonly buffer Src1 { uint v[]; } src1;
layout(set = 0, binding = 0) readonly buffer Src4 { uvec4 v[]; } src4;
layout(set = 0, binding = 1) writeonly buffer Dst1 { uint v[]; } dst1;  // offsets (MODE 0) or records
layout(set = 0, binding = 1) writeonly buffer Dst4 { uvec4 v[]; } dst4;
layout(set = 0, binding = 2) coherent buffer Status { uint v[]; } status;
layout(set = 0, binding = 3) writeonly buffer Total { uint v[]; } total;  // total, or count
layout(set = 0, binding = 4) writeonly buffer Overflow { uint v[]; } overflow;
layout(set = 0, binding = 5) readonly buffer Payload { uint v[]; } payload;
layout(push_constant) uniform Push {
    uint n;            // elements in this chunk
    uint firstTile;    // global id of this chunk's first tile
    uint lastTile;     // global id of the last tile of the whole scan
    uint firstItem;    // global index of this chunk's element 0
    uint counterWord;
    uint flagsWord;
    uint aggWord;
    uint inclWord;
    uint totalWord;
    uint overflowWord;
    uint capacity;     // records (MODE 1, 2)
} pc;

#define recOut dst1
#include "prim/tile_load.glsl"
#include "prim/workgroup_scan.glsl"
#include "prim/record.glsl"

const uint STATE_AGGREGATE = 1;
const uint STATE_PREFIX = 2;

shared uint s_tile;
shared uint s_state;
shared uint s_value;

void publish(uint tile, uint word, uint value, uint state) {
    status.v[word + tile] = value;
    memoryBarrierBuffer();
    atomicStore(status.v[pc.flagsWord + tile], state, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
}

uvec4 loadTile(uint tileBase, out uvec4 x[4]) {
    uvec4 sums = uvec4(0);
    for (uint r = 0; r < ROUNDS; ++r) {
        x[r] = loadVec(tileElement(tileBase, r), pc.n, 0);
        if (BINARIZE) x[r] = uvec4(notEqual(x[r], uvec4(0)));
        sums[r] = vecSum(x[r]);
    }
    return sums;
}

void main() {
    const uint t = gl_LocalInvocationID.x;
    const uint tiles = (pc.n + TILE - 1) / TILE;
    if (sieve_group_index() >= tiles) return;  // spare groups of a folded dispatch take no tile id
    if (t == 0) s_tile = atomicAdd(status.v[pc.counterWord], 1u);
    barrier();
    const uint local = s_tile;
    const uint tile = pc.firstTile + local;

    uvec4 x[4];
    uvec4 roundTotals;
    uvec4 ex = workgroupExclusiveScan(loadTile(local * TILE, x), roundTotals);
    const uint aggregate = vecSum(roundTotals);
    if (t == 0) publish(tile, tile == 0 ? pc.inclWord : pc.aggWord, aggregate, tile == 0 ? STATE_PREFIX : STATE_AGGREGATE);

    // Look-back, uniform across the workgroup: invocation 0 polls, everyone reads the outcome.
    uint exclusive = 0;
    uint p = tile;
    bool done = tile == 0;
    while (!done) {
        p -= 1;
        if (t == 0) {
            uint state = 0;
            for (uint s = 0; s < SPIN && state == 0; ++s)
                state = atomicLoad(status.v[pc.flagsWord + p], gl_ScopeDevice, gl_StorageSemanticsBuffer,
                                   gl_SemanticsAcquire);
            memoryBarrierBuffer();
            s_state = state;
            s_value = state == STATE_PREFIX ? status.v[pc.inclWord + p]
                                            : (state == STATE_AGGREGATE ? status.v[pc.aggWord + p] : 0u);
        }
        barrier();
        const uint state = s_state;
        uint value = s_value;
        barrier();  // s_state / s_value are rewritten by the next step
        if (state == 0) {
            if (p < pc.firstTile) {
                // A tile of an earlier chunk: that dispatch has completed, so it is published; poll again.
                p += 1;
                continue;
            }
            // Fallback: the predecessor has not published; reduce its input here.
            uvec4 y[4];
            uvec4 totals;
            workgroupExclusiveScan(loadTile((p - pc.firstTile) * TILE, y), totals);
            value = vecSum(totals);
        }
        exclusive += value;
        done = state == STATE_PREFIX || p == 0;
    }
    const uint inclusive = exclusive + aggregate;
    if (t == 0 && tile != 0) publish(tile, pc.inclWord, inclusive, STATE_PREFIX);

    uint offset = exclusive;
    for (uint r = 0; r < ROUNDS; ++r) {
        const uint e = tileElement(local * TILE, r);
        const uvec4 o = uvec4(offset + ex[r]) + vecExclusive(x[r]);
        if (MODE == 0) {
            if (e + 4 <= pc.n) {
                dst4.v[e >> 2] = o;
            } else {
                for (uint c = 0; c < 4; ++c)
                    if (e + c < pc.n) dst1.v[e + c] = o[c];
            }
        } else {
            for (uint c = 0; c < 4; ++c)
                if (x[r][c] != 0 && o[c] < pc.capacity) writeRecord(o[c], e + c, pc.firstItem + e + c);
        }
        offset += roundTotals[r];
    }
    if (t == 0 && tile == pc.lastTile) {
        if (MODE == 0) {
            total.v[pc.totalWord] = inclusive;
        } else {
            const uint kept = min(inclusive, pc.capacity);
            total.v[pc.totalWord] = kept;
            overflow.v[pc.overflowWord] = inclusive - kept;
        }
    }
}
