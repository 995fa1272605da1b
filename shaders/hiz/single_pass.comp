#version 460
// Single-dispatch Hi-Z builder. One 256-thread workgroup per 64x64 tile of pyramid mip 0 reduces its
// tile to one texel, writing mips 0..6 on the way (mip 1 and mips 2-6 through shared memory).
// The last workgroup to finish (atomic counter) then builds mips 7.. from mip 6 and resets the counter
// to zero for the next build; up to a 2048x2048 pyramid it reads mip 6 once and keeps mips 7.. in shared
// memory.
//
// Mip 0 (specialization constant kMip0): each invocation builds one mip-1 texel (2x2 mip-0 texels) per
// round. kMip0Gather (the default) reads the block's whole depth window (at most 5x5 pixels, see
// reduceBlockGather) with up to 9 independent textureGather calls before reducing it in registers; kMip0Fetch
// is the previous builder's one texelFetch per covered pixel in loops of data-dependent length, whose
// fetches wait on each other (kept for comparison in the benchmark).
//
// Hand-off between workgroups (memory scopes and semantics of GL_KHR_memory_scope_semantics; device
// scope is the queue family's without the Vulkan memory model): mips 6.. are `coherent` (mips 0..5 are
// never read in the dispatch). Each group's mip-6 texel is stored by its invocation 0 and released at
// device scope by that invocation's counter increment (release); the incrementing invocation of the
// last group acquires the other groups' stores with the same atomic (acquire), tells its group with a
// plain barrier, and the last group alone then passes them on with a device-scope image barrier: a
// workgroup-scope barrier would order only what this group wrote. Within the last group, mips 7.. pass between invocations through
// workgroup-scope image barriers.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
#include "hiz/hiz_shared.h"
#include "shared/hiz_bindings.h"
#include "hiz/hiz_reduce.glsl"
layout(local_size_x = 256) in;  // SIEVE_HIZ_SINGLE_THREADS
layout(set = 0, binding = SIEVE_HIZ_SINGLE_DEPTH) uniform sampler2D depth;
layout(set = 0, binding = SIEVE_HIZ_SINGLE_COUNTER) coherent buffer Counter { uint counter; };

// Profiling cuts (constant_id 1, the benchmark's only): kStopAfterMip1 ends after mips 0-1,
// kStopAfterMip1NoStores also skips their image stores, kStopBeforeTail ends after mips 0-6 without the
// counter; all leave the pyramid incomplete on purpose.
const uint kMip0Fetch = 0u, kMip0Gather = 1u;
const uint kStopNever = 0u, kStopAfterMip1 = 1u, kStopBeforeTail = 2u, kStopAfterMip1NoStores = 3u;
// Mip-0 stores (constant_id 2): kStore0Direct stores each invocation's 2x2 texels (stride-2 rows per
// store), kStore0Band passes a round's 64x16 texels through shared memory so that each store of a
// subgroup-sized run writes 32 adjacent texels.
const uint kStore0Direct = 0u, kStore0Band = 1u;  // Band: the default (measured faster on the H200)
layout(constant_id = 0) const uint kMip0 = kMip0Gather;
layout(constant_id = 1) const uint kStop = kStopNever;
layout(constant_id = 2) const uint kStore0 = kStore0Band;

#define MIP_WRITTEN(n) layout(set = 0, binding = SIEVE_HIZ_SINGLE_MIPS + n, rg32f) uniform writeonly image2D mip##n;
#define MIP_BINDING(n) layout(set = 0, binding = SIEVE_HIZ_SINGLE_MIPS + n, rg32f) uniform coherent image2D mip##n;
MIP_WRITTEN(0) MIP_WRITTEN(1) MIP_WRITTEN(2) MIP_WRITTEN(3) MIP_WRITTEN(4) MIP_WRITTEN(5)
MIP_BINDING(6) MIP_BINDING(7) MIP_BINDING(8) MIP_BINDING(9) MIP_BINDING(10) MIP_BINDING(11) MIP_BINDING(12)
MIP_BINDING(13) MIP_BINDING(14) MIP_BINDING(15)

layout(push_constant) uniform Push { HiZSinglePush pc; };

shared vec2 sMip1[32 * 32];
shared vec2 sTile[256];
shared vec2 sBand[64 * 16];  // kStore0Band only
shared bool sLast;

uvec2 mipExtent(uint m) { return max(uvec2(1), uvec2(pc.width, pc.height) >> m); }

void storeMip(uint m, uvec2 p, vec2 v) {
    if (m >= pc.mipCount || any(greaterThanEqual(p, mipExtent(m)))) return;
    ivec2 q = ivec2(p);
    vec4 t = vec4(v, 0, 0);
    switch (m) {
#define STORE(n) case n: imageStore(mip##n, q, t); break;
        STORE(0) STORE(1) STORE(2) STORE(3) STORE(4) STORE(5) STORE(6) STORE(7)
        STORE(8) STORE(9) STORE(10) STORE(11) STORE(12) STORE(13) STORE(14) STORE(15)
    }
}

// Only mips 6.. are read back (by the last workgroup).
vec2 loadMip(uint m, uvec2 p) {
    if (any(greaterThanEqual(p, mipExtent(m)))) return kHizIdentity;
    ivec2 q = ivec2(p);
    switch (m) {
#define LOAD(n) case n: return imageLoad(mip##n, q).xy;
        LOAD(6) LOAD(7) LOAD(8) LOAD(9) LOAD(10) LOAD(11) LOAD(12) LOAD(13) LOAD(14)
    }
    return kHizIdentity;
}

// The four mip-0 texels of mip-1 texel g (r[k]: texel 2g + (k & 1, k >> 1)), one texelFetch per pixel.
void reduceBlockFetch(uvec2 g, uvec2 depthExtent, uvec2 extent, out vec2 r[4]) {
    for (uint k = 0; k < 4u; ++k) {
        const uvec2 p = 2u * g + uvec2(k & 1u, k >> 1u);
        r[k] = kHizIdentity;
        if (all(lessThan(p, extent))) r[k] = hizReduceDepth(depth, p, depthExtent, extent);  // in the depth only
    }
}

// The same from one window of depth pixels. The two mip-0 columns 2g.x and 2g.x + 1 cover the pixel
// columns [a, b) with a = first pixel of column 2g.x and b - a <= 5 (each mip-0 texel covers less than
// 2 pixels plus a partial one: b - a < 2 * 2 + 1); likewise in y. Nine gathers read the 6x6 pixels from
// (a, a_y) (4 or 6 where an axis is narrow); all are issued before any is used. Pixels past the depth
// extent are clamped reads that no span includes.
void reduceBlockGather(uvec2 g, uvec2 depthExtent, uvec2 extent, out vec2 r[4]) {
    const uvec2 x0 = hizSpan(2u * g.x, depthExtent.x, extent.x), x1 = hizSpan(2u * g.x + 1u, depthExtent.x, extent.x);
    const uvec2 y0 = hizSpan(2u * g.y, depthExtent.y, extent.y), y1 = hizSpan(2u * g.y + 1u, depthExtent.y, extent.y);
    const uvec2 origin = uvec2(x0.x, y0.x);
    const vec2 size = vec2(depthExtent);
    // Where the depth is at most 1.5x the pyramid along an axis, the window is at most 4 pixels along it
    // (ceil(frac + 2 * 1.5) <= 4): 2 gathers instead of 3 (uniform: from the extents).
    const bvec2 wide = greaterThan(2u * depthExtent, 3u * extent);
    float v[6][6];  // v[row][column] of the window; rows/columns 4-5 only where wide
    for (uint n = 0; n < 3u; ++n)
        for (uint m = 0; m < 3u; ++m) {
            // At the shared corner of pixels (c, c + 1): the gather returns exactly those 2x2 pixels
            // (the coordinate is half a pixel away from a selection boundary, far beyond rounding).
            vec4 s = vec4(0);
            if ((m < 2u || wide.x) && (n < 2u || wide.y))
                s = textureGather(depth, vec2(origin + uvec2(2u * m + 1u, 2u * n + 1u)) / size);
            v[2u * n][2u * m] = s.w;
            v[2u * n][2u * m + 1u] = s.z;
            v[2u * n + 1u][2u * m] = s.x;
            v[2u * n + 1u][2u * m + 1u] = s.y;
        }
    // Spans relative to the window: column texel 0 starts at 0 and covers [0, e0) within columns 0..2;
    // column texel 1 covers [s1, e1) within columns 1..4 (s1 >= 1: every texel covers at least 1 pixel).
    const uvec4 sx = uvec4(0u, x0.y, x1.x, x1.y) - origin.x;
    const uvec4 sy = uvec4(0u, y0.y, y1.x, y1.y) - origin.y;
    vec2 c[2][5];  // c[texel column][window row]: min/max over the texel column's pixels of that row
    for (uint k = 0; k < 5u; ++k) {
        c[0][k] = vec2(v[k][0]);
        for (uint col = 1; col < 3u; ++col)
            if (col < sx.y) c[0][k] = hizCombine(c[0][k], vec2(v[k][col]));
        c[1][k] = kHizIdentity;
        for (uint col = 1; col < 5u; ++col)
            if (col >= sx.z && col < sx.w) c[1][k] = hizCombine(c[1][k], vec2(v[k][col]));
    }
    for (uint i = 0; i < 2u; ++i) {
        r[i] = c[i][0];
        for (uint k = 1; k < 3u; ++k)
            if (k < sy.y) r[i] = hizCombine(r[i], c[i][k]);
        r[2u + i] = kHizIdentity;
        for (uint k = 1; k < 5u; ++k)
            if (k >= sy.z && k < sy.w) r[2u + i] = hizCombine(r[2u + i], c[i][k]);
    }
}

// Workgroup barrier ordering shared memory and image memory: the last group's fallback tail reads back
// mips other invocations of the group stored. Only the last group uses it: in the tiles, image
// semantics would make every barrier wait for the group's mip-0 stores (measured: mips 2-6 2 -> 17 us).
void groupBarrier() {
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared | gl_StorageSemanticsImage,
                   gl_SemanticsAcquireRelease);
}
void frameBarrier(bool lastGroup) {
    if (lastGroup)
        groupBarrier();
    else
        barrier();
}

// Reduces the 32x32 frame in sMip1 to one texel: its 16x16 level into sTile, then 8x8 .. 1x1 in place.
// Level l (16 >> l texels a side) is stored as mip `first + l` at texel base * (16 >> l) + its position;
// `levels` levels in all (texels outside a mip's extent are never stored: storeMip).
void reduceFrame(uint t, uint first, uint levels, uvec2 base, bool lastGroup) {
    {
        const uvec2 q = uvec2(t & 15u, t >> 4u);
        vec2 r = kHizIdentity;
        for (uint j = 0; j < 2; ++j)
            for (uint i = 0; i < 2; ++i) r = hizCombine(r, sMip1[(2u * q.y + j) * 32u + 2u * q.x + i]);
        storeMip(first, base * 16u + q, r);
        sTile[t] = r;
    }
    frameBarrier(lastGroup);
    for (uint l = 1; l < levels; ++l) {
        const uint side = 16u >> l;
        vec2 r = kHizIdentity;
        const uvec2 q = uvec2(t % side, t / side);
        if (t < side * side) {
            for (uint j = 0; j < 2; ++j)
                for (uint i = 0; i < 2; ++i) r = hizCombine(r, sTile[(2u * q.y + j) * (2u * side) + 2u * q.x + i]);
        }
        frameBarrier(lastGroup);
        if (t < side * side) {
            sTile[t] = r;
            storeMip(first + l, base * side + q, r);
        }
        frameBarrier(lastGroup);
    }
}

void main() {
    const uint t = gl_LocalInvocationIndex;
    const uvec2 tile = gl_WorkGroupID.xy;
    const uvec2 extent = uvec2(pc.width, pc.height);
    const uvec2 depthExtent = uvec2(pc.depthWidth, pc.depthHeight);
    const bool imageStores = kStop != kStopAfterMip1NoStores;

    // Mips 0 and 1: four rounds over the tile's 32x32 mip-1 texels, a row of 32 per subgroup-sized run of
    // invocations, so that neighbouring invocations read neighbouring depth pixels (coalesced).
    for (uint round = 0; round < 4u; ++round) {
        const uvec2 q = uvec2(t & 31u, round * 8u + (t >> 5u));  // mip-1 texel in the tile
        const uvec2 g = tile * (SIEVE_HIZ_TILE / 2u) + q;        // the same, in the pyramid
        vec2 r0[4];
        if (kMip0 == kMip0Gather)
            reduceBlockGather(g, depthExtent, extent, r0);
        else
            reduceBlockFetch(g, depthExtent, extent, r0);
        vec2 r1 = kHizIdentity;
        for (uint k = 0; k < 4u; ++k) {
            const uvec2 p = 2u * g + uvec2(k & 1u, k >> 1u);
            if (any(greaterThanEqual(p, extent))) r0[k] = kHizIdentity;
            if (kStore0 == kStore0Direct && imageStores) storeMip(0, p, r0[k]);
            if (kStore0 == kStore0Band) sBand[(2u * (t >> 5u) + (k >> 1u)) * 64u + 2u * (t & 31u) + (k & 1u)] = r0[k];
            r1 = hizCombine(r1, r0[k]);
        }
        if (imageStores) storeMip(1, g, r1);
        sMip1[q.y * 32u + q.x] = r1;
        if (kStore0 == kStore0Band) {
            // The round's 16 mip-0 rows, 64 texels each: every run of 32 invocations stores 32 texels of one row.
            barrier();
            for (uint k = 0; k < 4u; ++k) {
                const uint idx = t + 256u * k;
                const uvec2 p = tile * SIEVE_HIZ_TILE + uvec2(idx & 63u, round * 16u + (idx >> 6u));
                if (imageStores) storeMip(0, p, sBand[idx]);
            }
            barrier();  // before the next round overwrites the band
        }
    }
    if (kStop == kStopAfterMip1 || kStop == kStopAfterMip1NoStores) return;
    barrier();
    reduceFrame(t, 2u, 5u, tile, false);  // mips 2..6
    if (pc.mipCount <= SIEVE_HIZ_TILE_MIPS || kStop == kStopBeforeTail) return;  // one tile: the whole pyramid

    // Invocation 0 stored this tile's mip-6 texel (reduceFrame's last level): its own increment releases
    // it (program order), so the rest of the group need not wait for its stores at device scope.
    if (t == 0)
        sLast = atomicAdd(counter, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsImage,
                          gl_SemanticsAcquireRelease) == pc.tileCount - 1u;
    barrier();  // shares sLast; the other tiles leave without a device-scope barrier (it waits for stores)
    if (!sLast) return;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsImage | gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease);  // the hand-off of what invocation 0 acquired
    if (t == 0) atomicExchange(counter, 0u);

    // Mip 6 fits the 32x32 frame up to a 2048x2048 pyramid (4K depth): one read of it, then mips 7.. in
    // shared memory. Larger pyramids go through the image, one mip at a time.
    if (pc.mipCount <= SIEVE_HIZ_TILE_MIPS + 5u) {
        for (uint idx = t; idx < 1024u; idx += 256u) sMip1[idx] = loadMip(6, uvec2(idx & 31u, idx >> 5u));
        groupBarrier();
        reduceFrame(t, SIEVE_HIZ_TILE_MIPS, pc.mipCount - SIEVE_HIZ_TILE_MIPS, uvec2(0), true);
        return;
    }
    for (uint k = SIEVE_HIZ_TILE_MIPS; k < pc.mipCount; ++k) {
        uvec2 e = mipExtent(k);
        for (uint idx = t; idx < e.x * e.y; idx += 256u) {
            uvec2 p = uvec2(idx % e.x, idx / e.x);
            vec2 r = kHizIdentity;
            for (uint j = 0; j < 2; ++j)
                for (uint i = 0; i < 2; ++i) r = hizCombine(r, loadMip(k - 1u, 2u * p + uvec2(i, j)));
            storeMip(k, p, r);
        }
        groupBarrier();
    }
}
