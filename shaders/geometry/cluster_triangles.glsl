// The triangle loop of both mesh-shader cluster paths (geometry/cluster_mesh.glsl,
// geometry/cluster_material_mesh.glsl): a cluster's packed triangles (three 8-bit local vertex indices per
// word) to the primitive indices, in the order of its index range; with SIEVE_TRIANGLE_CULL defined, after
// the vertex loop's positions are shared, each triangle's cull flag too (geometry/triangle_cull.glsl).
// The includer declares triangles[] (packed) and includes triangle_cull.glsl where SIEVE_TRIANGLE_CULL is
// defined. scissor: the framebuffer extent the culled triangles must cover no sample of.
void writeClusterTriangles(uint triangleOffset, uint triangleCount, uint vertexCount, vec4 viewport, uvec2 scissor) {
#ifdef SIEVE_TRIANGLE_CULL
    triangleCullSync();
#endif
    for (uint t = gl_LocalInvocationIndex; t < triangleCount; t += gl_WorkGroupSize.x) {
        const uint p = triangles[triangleOffset + t];
        gl_PrimitiveTriangleIndicesEXT[t] = uvec3(p & 255u, (p >> 8) & 255u, (p >> 16) & 255u);
#ifdef SIEVE_TRIANGLE_CULL
        triangleCullWrite(t, p, vertexCount, viewport, scissor);
#endif
    }
}
