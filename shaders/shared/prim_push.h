#ifndef SIEVE_SHARED_PRIM_PUSH_H
#define SIEVE_SHARED_PRIM_PUSH_H
// Push constants of the primitives' shaders (shaders/prim/), one struct per shader, used by the GLSL
// block and by the C++ dispatch. A "...Word" member is the index of a single u32 inside a binding that
// starts at an aligned offset below it (prim/common.h: wordAt).
#include "shared/common.h"

SIEVE_NS_BEGIN

// prim/clear.comp: dst[first + i] = value for i < count.
struct ClearPush {
    uint first;
    uint count;
    uint value;
};

// prim/copy.comp: n words.
struct CopyPush {
    uint n;
};

// prim/reduce.comp: n inputs; one output per workgroup, the first at word firstOut.
struct ReducePush {
    uint n;
    uint firstOut;
};

// prim/scan_tile.comp.
struct ScanTilePush {
    uint n;
    uint firstBlock;  // global index of this chunk's first tile (its base, with HAS_BASE)
    uint totalWord;
    uint writeTotal;  // 1: the last tile writes the total
};

// prim/scan_single.comp and scan_single_packed.comp (decoupled look-back).
struct ScanSinglePush {
    uint n;                // elements in this chunk
    uint firstTile;        // global id of this chunk's first tile
    uint lastTile;         // global id of the last tile of the whole scan
    uint firstItem;        // global index of this chunk's element 0
    uint counterWord;      // this chunk's ticket counter; its epoch follows (prim/scan_single.glsl)
    uint flagsWord;        // this chunk's first tile status (packed: index of 64-bit words)
    uint prevStatus;       // the previous chunk's last tile status (same units; chunks > 0)
    uint prevCounterWord;  // the previous chunk's ticket counter (chunks > 0)
    uint totalWord;
    uint overflowWord;
    uint capacity;  // records (MODE 1, 2)
};

// prim/compact_scatter.comp.
struct CompactScatterPush {
    uint n;          // items in this chunk
    uint firstItem;  // global index of the chunk's item 0
    uint capacity;
    uint totalWord;
    uint countWord;
    uint overflowWord;
    uint writeCount;
};

// prim/compact_gather.comp.
struct CompactGatherPush {
    uint n;
    uint capacity;
    uint totalWord;
    uint countWord;
    uint overflowWord;
};

// prim/compact_append.comp.
struct CompactAppendPush {
    uint n;
    uint firstItem;
    uint capacity;
    uint counterWord;
};

// prim/compact_finish.comp: counter -> clamped count and overflow.
struct CompactFinishPush {
    uint counterWord;
    uint countWord;
    uint overflowWord;
    uint capacity;
};

SIEVE_NS_END

#endif
