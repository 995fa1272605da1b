// The occlusion test against a min/max Hi-Z pyramid (sieve/hiz.h: r = min, g = max depth), shared by the
// instance flags (cull/decide.glsl) and the cluster test (cluster/test.comp): a world-space sphere, seen
// through the camera `p` that drew the depth the pyramid was built from, is occluded when it lies behind the
// farthest depth of every texel of its query (shared/cull.h sieveOcclusionQuery, sieveOccludedByTexel).
bool sieveOccludedInPyramid(sampler2D pyramid, vec4 sphere, CullParams p) {
    CullOcclusionQuery q;
    if (!sieveOcclusionQuery(sphere, p, q)) return false;
    bool behind = true;
    for (uint y = q.y0; y <= q.y1; ++y)
        for (uint x = q.x0; x <= q.x1; ++x)
            behind = behind && sieveOccludedByTexel(q, texelFetch(pyramid, ivec2(x, y), int(q.mip)).rg, p);
    return behind;
}
