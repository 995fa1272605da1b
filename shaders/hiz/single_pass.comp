#version 460
// Single-dispatch Hi-Z builder. One 256-thread workgroup per 64x64 tile of pyramid mip 0 reduces its
// tile to one texel, writing mips 0..6 on the way (mip 1 and mips 2-6 through shared memory).
// The last workgroup to finish (atomic counter) then builds mips 7.. from mip 6 and resets the counter
// to zero for the next build.
//
// Hand-off between workgroups (memory scopes and semantics of GL_KHR_memory_scope_semantics; device
// scope is the queue family's without the Vulkan memory model): every mip image is `coherent`. Each
// group's mip-6 stores are released at device scope by a barrier of the whole group and by the counter
// increment itself (release); the incrementing invocation of the last group acquires the other groups'
// stores with the same atomic (acquire), and passes them on to the rest of its group with a
// device-scope image barrier: a workgroup-scope barrier would order only what this group wrote.
// Within the last group, mips 7.. pass between invocations through workgroup-scope image barriers.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
#include "hiz/hiz_shared.h"
#include "hiz/hiz_reduce.glsl"
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) uniform sampler2D depth;
layout(set = 0, binding = 1) coherent buffer Counter { uint counter; };

#define MIP_BINDING(n) layout(set = 0, binding = 2 + n, rg32f) uniform coherent image2D mip##n;
MIP_BINDING(0) MIP_BINDING(1) MIP_BINDING(2) MIP_BINDING(3) MIP_BINDING(4) MIP_BINDING(5) MIP_BINDING(6)
MIP_BINDING(7) MIP_BINDING(8) MIP_BINDING(9) MIP_BINDING(10) MIP_BINDING(11) MIP_BINDING(12)
MIP_BINDING(13) MIP_BINDING(14) MIP_BINDING(15)

layout(push_constant) uniform Push { HiZSinglePush pc; };

shared vec2 sMip1[32 * 32];
shared vec2 sTile[256];
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

void main() {
    const uint t = gl_LocalInvocationIndex;
    const uvec2 tile = gl_WorkGroupID.xy;
    const uvec2 extent = uvec2(pc.width, pc.height);
    const uvec2 depthExtent = uvec2(pc.depthWidth, pc.depthHeight);

    // Mips 0 and 1: four rounds over the tile's 32x32 mip-1 texels, a row of 32 per subgroup-sized run of
    // invocations, so that neighbouring invocations read neighbouring depth pixels (coalesced).
    for (uint round = 0; round < 4u; ++round) {
        const uvec2 q = uvec2(t & 31u, round * 8u + (t >> 5u));  // mip-1 texel in the tile
        vec2 r1 = kHizIdentity;
        for (uint j = 0; j < 2; ++j)
            for (uint i = 0; i < 2; ++i) {
                uvec2 p = tile * SIEVE_HIZ_TILE + q * 2u + uvec2(i, j);
                vec2 r0 = kHizIdentity;
                if (all(lessThan(p, extent))) r0 = hizReduceDepth(depth, p, depthExtent, extent);
                storeMip(0, p, r0);
                r1 = hizCombine(r1, r0);
            }
        storeMip(1, tile * (SIEVE_HIZ_TILE / 2u) + q, r1);
        sMip1[q.y * 32u + q.x] = r1;
    }
    barrier();
    // Mip 2: one texel per invocation, laid out in sTile as the loop below expects (row-major, 16 wide).
    {
        const uvec2 q = uvec2(t & 15u, t >> 4u);
        vec2 r2 = kHizIdentity;
        for (uint j = 0; j < 2; ++j)
            for (uint i = 0; i < 2; ++i) r2 = hizCombine(r2, sMip1[(2u * q.y + j) * 32u + 2u * q.x + i]);
        storeMip(2, tile * (SIEVE_HIZ_TILE / 4u) + q, r2);
        sTile[t] = r2;
    }
    barrier();

    // Mips 3..6 through shared memory: level k has (64 >> k)^2 texels in the tile.
    for (uint k = 3; k < SIEVE_HIZ_TILE_MIPS; ++k) {
        const uint side = SIEVE_HIZ_TILE >> k;
        vec2 r = kHizIdentity;
        uvec2 q = uvec2(t % side, t / side);
        if (t < side * side) {
            for (uint j = 0; j < 2; ++j)
                for (uint i = 0; i < 2; ++i) r = hizCombine(r, sTile[(2u * q.y + j) * (2u * side) + 2u * q.x + i]);
        }
        barrier();
        if (t < side * side) {
            sTile[t] = r;
            storeMip(k, tile * side + q, r);
        }
        barrier();
    }
    if (pc.mipCount <= SIEVE_HIZ_TILE_MIPS) return;  // one tile: it was the whole pyramid

    // Publish this tile's mip-6 texel (whichever invocation stored it), then count the finished tiles.
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsImage | gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease);
    if (t == 0)
        sLast = atomicAdd(counter, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsImage,
                          gl_SemanticsAcquireRelease) == pc.tileCount - 1u;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsImage | gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease);
    if (!sLast) return;
    if (t == 0) atomicExchange(counter, 0u);

    for (uint k = SIEVE_HIZ_TILE_MIPS; k < pc.mipCount; ++k) {
        uvec2 e = mipExtent(k);
        for (uint idx = t; idx < e.x * e.y; idx += 256u) {
            uvec2 p = uvec2(idx % e.x, idx / e.x);
            vec2 r = kHizIdentity;
            for (uint j = 0; j < 2; ++j)
                for (uint i = 0; i < 2; ++i) r = hizCombine(r, loadMip(k - 1u, 2u * p + uvec2(i, j)));
            storeMip(k, p, r);
        }
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsImage, gl_SemanticsAcquireRelease);
    }
}
