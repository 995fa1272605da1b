// Per-triangle culling of the mesh-shader cluster path (geometry/triangle_rule.glsl), included only by the
// culling variants (cluster_cull.mesh, cluster_material_cull.mesh: SIEVE_TRIANGLE_CULL defined). The vertex
// loop keeps each vertex's framebuffer position once (triangleCullKeepVertex), then after triangleCullSync
// every triangle is tested from those (triangleCullWrite), so the divide and the viewport transform are paid
// per vertex, not per corner.
#include "geometry/triangle_rule.glsl"

// Only the cull flag: the implicit block would also declare the primitive shading rate, a capability
// (FragmentShadingRateKHR) the device was not created with.
out perprimitiveEXT gl_MeshPerPrimitiveEXT {
    bool gl_CullPrimitiveEXT;
} gl_MeshPrimitivesEXT[];

// SIEVE_MESH_SPEC_TRIANGLE_CULL: the SIEVE_TRIANGLE_CULL_* bits of the pipeline (its face rule, the
// device's subpixel precision).
layout(constant_id = 2) const uint kTriangleCull = SIEVE_TRIANGLE_CULL_ON;

// Per vertex: its framebuffer xy, and z = 1 where the triangle test may use it (w > 0, finite), 0 where not.
shared vec3 sTriangleCullVertex[SIEVE_CLUSTER_MAX_VERTICES];

void triangleCullKeepVertex(uint v, vec4 clip, vec4 viewport) {
    sTriangleCullVertex[v] = triangleCullVertex(clip, viewport);
}

void triangleCullSync() {
    memoryBarrierShared();
    barrier();
}

// Writes primitive t's cull flag (a declared cull output is written for every primitive); `packed`: its
// three 8-bit local vertex indices (shared/cluster.h).
void triangleCullWrite(uint t, uint packed, uint vertexCount, vec4 viewport, uvec2 scissor) {
    const uvec3 tri = uvec3(packed & 255u, (packed >> 8) & 255u, (packed >> 16) & 255u);
    // The host validates the clusters; a bad index still reads inside the shared array.
    const uvec3 i = min(tri, uvec3(max(vertexCount, 1u) - 1u));
    gl_MeshPrimitivesEXT[t].gl_CullPrimitiveEXT =
        triangleCulledAt(sTriangleCullVertex[i.x], sTriangleCullVertex[i.y], sTriangleCullVertex[i.z], tri,
                         kTriangleCull, viewport, scissor);
}
