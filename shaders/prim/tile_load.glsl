// Tile loads with 16-byte vectors. The shader declares its input twice on one binding, as `src1`
// (uint v[]) and `src4` (uvec4 v[]), or defines SIEVE_TILE_VALUE (below); full vectors use src4, the
// ragged end of the input falls back to scalar loads so nothing past `n` is read. Invocation t owns the
// uvec4 at r * WG + t of its tile for r < ROUNDS: each round is one fully coalesced 16-byte-per-lane access.

// Element index (relative to the binding) of component 0 of round r of this invocation.
uint tileElement(uint tileBase, uint r) { return tileBase + 4 * (r * WG + gl_LocalInvocationID.x); }

#if defined(SIEVE_TILE_VEC)
// The input is computed four elements at a time: the shader defines tileVec(e, n, identity), elements
// e .. e + 3 (e a multiple of 4), those at or past n being `identity`.
uvec4 tileVec(uint e, uint n, uint identity);
uvec4 loadVec(uint e, uint n, uint identity) { return tileVec(e, n, identity); }
#elif defined(SIEVE_TILE_VALUE)
// The input is computed, not loaded: the shader defines tileValue(e), the value of element e < n.
uint tileValue(uint e);
uvec4 loadVec(uint e, uint n, uint identity) {
    uvec4 x = uvec4(identity);
    for (uint c = 0; c < 4; ++c)
        if (e + c < n) x[c] = tileValue(e + c);
    return x;
}
#else
uvec4 loadVec(uint e, uint n, uint identity) {
    if (e + 4 <= n) return src4.v[e >> 2];
    uvec4 x = uvec4(identity);
    for (uint c = 0; c < 4; ++c)
        if (e + c < n) x[c] = src1.v[e + c];
    return x;
}
#endif

// Sum of the components of a uvec4 and its exclusive prefix per component.
uvec4 vecExclusive(uvec4 x) { return uvec4(0, x.x, x.x + x.y, x.x + x.y + x.z); }
uint vecSum(uvec4 x) { return x.x + x.y + x.z + x.w; }
