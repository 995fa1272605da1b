// Mesh-shader path of the default geometry pass: one workgroup per record of a cluster list
// (sieve/cluster.h: the record's instance and material, its cluster's meshlet vertices and packed
// triangles). Every vertex goes through the same shadeVertex as mesh.vert, and the triangles come in
// the order of the cluster's index range, so the picture equals the indirect path's.
// Compiled twice by the .mesh files that include it: plain, and with SIEVE_TRIANGLE_CULL defined
// (cluster_cull.mesh), which alone culls triangles the rasterizer would draw no sample of
// (geometry/triangle_cull.glsl).
#include "shared/cluster.h"
#include "shared/draw.h"
#include "shared/geometry_push.h"
#include "shared/scene.h"

layout(local_size_x = 32) in;
layout(triangles, max_vertices = 64, max_primitives = 124) out;

layout(set = 0, binding = 0, std430) readonly buffer Instances { Instance instances[]; };
layout(set = 0, binding = 1, std430) readonly buffer Draws { DrawCommand draws[]; };
layout(set = 0, binding = 2, std430) readonly buffer Ids { uint ids[]; };
layout(set = 0, binding = 3, std430) readonly buffer Counts { DrawCounts counts; };
layout(set = 0, binding = 4, std430) readonly buffer Clusters { Cluster clusters[]; };
layout(set = 0, binding = 5, std430) readonly buffer Vertices { Vertex vertices[]; };
layout(set = 0, binding = 6, std430) readonly buffer MeshletVertices { uint meshletVertices[]; };
layout(set = 0, binding = 7, std430) readonly buffer Triangles { uint triangles[]; };
layout(push_constant) uniform Push { GeometryPush pc; };

layout(location = 0) out vec3 outNormal[];
layout(location = 1) flat out uint outMaterial[];
layout(location = 2) flat out uint outInstance[];
layout(location = 3) flat out uint outLod[];
layout(location = 4) out vec3 outWorld[];
layout(location = 5) flat out uint outKey[];  // debug colour per cluster (its first index)
// mesh.frag's shadow lookup would read binding 2 (here the ids): the mesh path pushes 0 cascades, so it
// never does (shadows are drawn by the indirect path only).

#include "geometry/vertex.glsl"
#ifdef SIEVE_TRIANGLE_CULL
#include "geometry/triangle_cull.glsl"
#endif
#include "geometry/cluster_triangles.glsl"

void main() {
    // The task command folds the count into rows (cluster/scan_emit.glsl): workgroups past it output nothing.
    const uint g = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (g >= counts.count) {
        SetMeshOutputsEXT(0, 0);
        return;
    }
    const DrawCommand d = draws[g];
    const Cluster cl = clusters[ids[g]];
    const Instance inst = instances[d.firstInstance];
    const uint vertexCount = min(cl.vertexCount, SIEVE_CLUSTER_MAX_VERTICES);
    const uint triangleCount = min(cl.triangleCount, SIEVE_CLUSTER_MAX_TRIANGLES);
    SetMeshOutputsEXT(vertexCount, triangleCount);
    for (uint v = gl_LocalInvocationIndex; v < vertexCount; v += gl_WorkGroupSize.x) {
        const Vertex vx = vertices[uint(d.vertexOffset) + meshletVertices[cl.vertexOffset + v]];
        vec4 clip;
        vec3 normal;
        shadeVertex(inst, vec3(vx.px, vx.py, vx.pz), vx.normal, pc.viewProj, clip, normal);
        gl_MeshVerticesEXT[v].gl_Position = clip;
#ifdef SIEVE_TRIANGLE_CULL
        triangleCullKeepVertex(v, clip, pc.viewport);
#endif
        outNormal[v] = normal;
        outMaterial[v] = d.material;
        outInstance[v] = d.firstInstance;
        outLod[v] = d.lod;
        outKey[v] = d.firstIndex;
        const vec4 p = vec4(vx.px, vx.py, vx.pz, 1.0);
        outWorld[v] = vec3(dot(inst.rows[0], p), dot(inst.rows[1], p), dot(inst.rows[2], p));
    }
    writeClusterTriangles(cl.triangleOffset, triangleCount, vertexCount, pc.viewport, pc.options.zw);
}
