#version 460
// Single-pass exclusive scan with decoupled look-back (tier c), optionally fused with stable compaction.
// Tiles take their ids from an atomic counter in start order, so every predecessor of a tile has started.
// A tile publishes its aggregate (state 1), looks back over its predecessors, then publishes its
// inclusive prefix (state 2). Waiting is bounded: after SPIN polls of a predecessor that has published
// nothing, the waiting tile reduces that predecessor's input itself and moves on, so it never depends on
// another workgroup being scheduled (no forward-progress guarantee is assumed; lavapipe needs this).
// Status words (scratch, zeroed by the host before the dispatch, bound `coherent`):
//   [flagsWord + tile] state, [aggWord + tile] aggregate, [inclWord + tile] inclusive prefix,
//   [counterWord] tile counter of this chunk. Publication: value, fence, release store of the state;
// readers poll the state atomically, fence, then read the value.
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
shared uint s_value;

void publish(uint tile, uint word, uint value, uint state) {
    status.v[word + tile] = value;
    memoryBarrierBuffer();
    atomicStore(status.v[pc.flagsWord + tile], state, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
}

// Sum of one tile's (binarized) input by one invocation, for the look-back fallback.
uint reduceTileSerial(uint tileBase) {
    uint sum = 0;
    for (uint e = tileBase; e < min(tileBase + TILE, pc.n); e += 4) {
        uvec4 x = loadVec(e, pc.n, 0);
        if (BINARIZE) x = uvec4(notEqual(x, uvec4(0)));
        sum += vecSum(x);
    }
    return sum;
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

    // Look-back by invocation 0 alone, with no barrier inside the data-dependent loop; the others wait
    // at the barrier below. The fallback reduces a silent predecessor's tile serially: rare on GPUs,
    // and it bounds every wait.
    if (t == 0) {
        uint exclusive = 0;
        uint p = tile;
        while (p > 0) {
            p -= 1;
            uint state = 0;
            // A relaxed atomic poll, then an acquire fence (memoryBarrierBuffer is device-scope
            // acquire-release): it pairs with the release store in publish(). Acquire semantics on the
            // polling atomic itself make Mesa lavapipe (LLVM 15) abandon the workgroup, so the fence
            // form is used everywhere.
            for (uint s = 0; s < SPIN && state == 0; ++s) state = atomicOr(status.v[pc.flagsWord + p], 0u);
            memoryBarrierBuffer();
            if (state == STATE_PREFIX) {
                exclusive += status.v[pc.inclWord + p];
                break;
            }
            if (state == STATE_AGGREGATE) {
                exclusive += status.v[pc.aggWord + p];
            } else if (p >= pc.firstTile) {
                exclusive += reduceTileSerial((p - pc.firstTile) * TILE);
            } else {
                p += 1;  // a tile of an earlier, completed chunk: it is published; poll it again
            }
        }
        s_value = exclusive;
    }
    barrier();
    const uint exclusive = s_value;
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
