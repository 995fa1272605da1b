// The stable draw list in one dispatch (DrawListBuilder, DrawOrder::Stable, where the single-pass scan
// runs): the exclusive scan of the per-key draw counts (prim/scan_single.glsl, MODE 1) with the expansion
// of draw/expand.comp folded in where the scan writes its records, and no offsets written.
// The scan runs over a virtual index space in which stream s = view * binCount + bin owns elements
// [s * P, (s + 1) * P), P = streamTiles * TILE: element s * P + i is key sieveKey(s, i, N) for i < N, 0
// past it. Every tile lies in one stream, each stream is one segment of the scan, so every prefix is
// relative to the stream's start: a key with c > 0 draws writes its c records (draw/records.glsl) from
// that slot on, within the stream's capacity, and the last tile of each stream writes its DrawCounts.
// Records, counts, overflows and totals are expand.comp's, bit for bit. A key's records take dependent
// loads (instance, mesh, primitives), so the scan defers them to the whole workgroup
// (SIEVE_SCAN_DEFERRED_RECORDS). The includer defines SIEVE_PACKED_STATUS (list_scan.comp,
// list_scan_packed.comp).
#extension GL_GOOGLE_include_directive : require
#define SIEVE_SCAN_HOOKS 1
#define SIEVE_SCAN_DEFERRED_RECORDS 1
#define SIEVE_SCAN_SEGMENTS 1
#define SIEVE_TILE_VALUE 1
#define SIEVE_TILE_VEC 1
#include "prim/scan_single.glsl"
#include "shared/draw.h"
#include "shared/draw_bindings.h"
#include "shared/draw_push.h"
#include "shared/scene.h"

// Bindings 0 (the input is computed) and 1 (records go to draws[]) are unused; 2 is the look-back status.
layout(set = 0, binding = SIEVE_LIST_SCAN_INSTANCES, std430) restrict readonly buffer Instances { Instance instances[]; };
layout(set = 0, binding = SIEVE_LIST_SCAN_MESHES, std430) restrict readonly buffer Meshes { Mesh meshes[]; };
layout(set = 0, binding = SIEVE_LIST_SCAN_PRIMITIVES, std430) restrict readonly buffer Primitives { MeshPrimitive primitives[]; };
layout(set = 0, binding = SIEVE_LIST_SCAN_DRAW_COUNTS, std430) restrict readonly buffer DrawCountsIn { uint drawCount[]; };  // per key
layout(set = 0, binding = SIEVE_LIST_SCAN_DRAW_COUNTS, std430) restrict readonly buffer DrawCountsIn4 { uvec4 drawCount4[]; };
layout(set = 0, binding = SIEVE_LIST_SCAN_LODS, std430) restrict readonly buffer Lods { uint lodOf[]; };  // per (view, instance)
layout(set = 0, binding = SIEVE_LIST_SCAN_DRAWS, std430) writeonly buffer Draws { DrawCommand draws[]; };
layout(set = 0, binding = SIEVE_LIST_SCAN_COUNTS, std430) writeonly buffer Counts { DrawCounts counts[]; };
layout(set = 0, binding = SIEVE_LIST_SCAN_STREAMS, std430) restrict readonly buffer Streams { DrawStream streams[]; };
layout(set = 0, binding = SIEVE_LIST_SCAN_DRAW_MARKS, std430) restrict readonly buffer DrawMarks { uint drawMarks[]; };

layout(push_constant) uniform Push { DrawScanPush pc; };

#include "draw/records.glsl"

// Every virtual element (the host keeps them within 2^31); each stream's capacity bounds its records
// (writeInstanceDraws), not the scan's.
void scanParameters() {
    scanOneChunk(pc.streamCount * pc.streamTiles * TILE, 0xffffffffu);
}

// Stream and instance of virtual element e. An invocation's elements lie in one tile at a time, so the
// stream (a division) is computed once per tile, not per element.
uint cachedTile = 0xffffffffu, cachedStream = 0u;
uvec2 streamInstance(uint e) {
    const uint tile = e / TILE;  // TILE is a constant
    if (tile != cachedTile) {
        cachedTile = tile;
        cachedStream = tile / pc.streamTiles;
    }
    return uvec2(cachedStream, e - cachedStream * pc.streamTiles * TILE);
}

// Whether key k's draw count may be non-zero: with marks (pc.markEpoch), only in a group marked this epoch
// (shared/draw_push.h SIEVE_DRAW_MARK_KEYS); the others are zeros, not read.
bool mayDraw(uint k) {
    if (pc.markEpoch == 0u) return true;
    const uint group = k / SIEVE_DRAW_MARK_KEYS;
    return group >= uint(drawMarks.length()) || drawMarks[group] == pc.markEpoch;
}

// Elements e .. e + 3 (e a multiple of 4, n a multiple of TILE: all four in one stream, or all past n):
// one 16-byte load where the four keys are whole and aligned (every row when N is a multiple of 4; the four
// then share one mark), else one load per key; the elements past N and the keys of unmarked groups are
// `identity` (0).
uvec4 tileVec(uint e, uint n, uint identity) {
    if (e >= n) return uvec4(identity);
    const uvec2 si = streamInstance(e);
    const uint k = sieveKey(si.x, si.y, pc.instanceCount);
    if (si.y + 4u <= pc.instanceCount && (k & 3u) == 0u) return mayDraw(k) ? drawCount4[k >> 2] : uvec4(identity);
    uvec4 x = uvec4(identity);
    for (uint c = 0u; c < 4u; ++c)
        if (si.y + c < pc.instanceCount && mayDraw(k + c)) x[c] = drawCount[k + c];
    return x;
}

uint scanSegmentFirst(uint tile) {
    return pc.streamTiles == 0u ? 0u : tile - tile % pc.streamTiles;
}

// Element `local` (a key with draws) starts at slot `slot` of its stream.
void writeRecord(uint slot, uint local, uint item) {
    const uvec2 si = streamInstance(local);
    const uint s = si.x, i = si.y, n = pc.instanceCount;
    const DrawStream stream = streams[s];
    if (slot >= stream.capacity) return;
    const uint view = s / pc.binCount;
    writeInstanceDraws(i, instances[i].mesh, s % pc.binCount, pc.binCount, lodOf[sieveKey(view, i, n)], slot,
                       drawCount[sieveKey(s, i, n)], stream);
}

// No keys (N = 0): no tile ends a stream, so the one tile writes every stream's empty counts.
void scanTileDone() {
    if (pc.instanceCount != 0u) return;
    for (uint s = gl_LocalInvocationID.x; s < pc.streamCount; s += WG)
        counts[s] = DrawCounts(0u, 0u, 0u, 0u);
}

// The last tile of a stream: its inclusive prefix is the stream's total.
void scanTileEnd(uint tile, uint total) {
    if (pc.streamTiles == 0u || tile % pc.streamTiles != pc.streamTiles - 1u) return;
    const uint s = tile / pc.streamTiles;
    const uint written = min(total, streams[s].capacity);
    counts[s] = DrawCounts(written, total - written, total, 0u);
}

void scanFinish(uint total) {}  // every stream's counts are written by its last tile
