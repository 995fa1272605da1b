// Mesh-shader path of the default geometry pass, material mode: one workgroup per record of a cluster list
// (sieve/cluster.h), shaded by material.frag with the record's material, exactly as material.vert feeds it
// (geometry/material_vertex.glsl), so the picture equals the indirect path's. One pipeline per bin: a list
// that holds every bin (SIEVE_MATERIAL_PUSH_MIXED_BINS) is drawn once per bin, and each bin's workgroups
// output nothing for the clusters of other bins.
// Compiled twice by the .mesh files that include it: plain, and with SIEVE_TRIANGLE_CULL defined
// (cluster_material_cull.mesh), which alone culls triangles the rasterizer would draw no sample of
// (geometry/triangle_cull.glsl).
#include "shared/cluster.h"
#include "shared/draw.h"
#include "shared/material.h"
#include "shared/scene.h"

layout(local_size_x = 32) in;
layout(triangles, max_vertices = 64, max_primitives = 124) out;

// 0..3 as material.vert, 4 material.frag's shadow buffer (geometry/shadow.glsl), then the cluster tables.
layout(set = 0, binding = 0, std430) readonly buffer Instances { Instance instances[]; };
layout(set = 0, binding = 1, std430) readonly buffer Draws { DrawCommand draws[]; };
layout(set = 0, binding = 2, std430) readonly buffer Materials { Material materials[]; };
layout(set = 0, binding = 3, std430) readonly buffer Primitives { MeshPrimitive primitives[]; };
layout(set = 0, binding = 5, std430) readonly buffer Ids { uint ids[]; };
layout(set = 0, binding = 6, std430) readonly buffer Counts { DrawCounts counts; };
layout(set = 0, binding = 7, std430) readonly buffer Clusters { Cluster clusters[]; };
layout(set = 0, binding = 8, std430) readonly buffer Vertices { Vertex vertices[]; };
layout(set = 0, binding = 9, std430) readonly buffer MeshletVertices { uint meshletVertices[]; };
layout(set = 0, binding = 10, std430) readonly buffer Triangles { uint triangles[]; };
layout(set = 0, binding = 11, std430) readonly buffer Uvs { VertexUv uvs[]; };
layout(push_constant) uniform Push { MaterialPush pc; };
layout(constant_id = 1) const uint kBin = 0u;  // SIEVE_MATERIAL_SPEC_BIN

layout(location = 0) out vec3 outNormal[];
layout(location = 1) out vec2 outUv[];
layout(location = 2) flat out vec4 outBaseColor[];
layout(location = 3) flat out uvec4 outParams[];
layout(location = 4) flat out vec4 outEmissive[];  // factor, emissive texture index (bits)
layout(location = 5) out vec3 outWorld[];
layout(location = 6) flat out vec2 outNormalMap[];
layout(location = 7) flat out uint outKey[];

#include "geometry/vertex.glsl"
#ifdef SIEVE_TRIANGLE_CULL
#include "geometry/triangle_cull.glsl"
#endif
#include "geometry/cluster_triangles.glsl"
#include "geometry/material_vertex.glsl"

void main() {
    // The task command folds the count into rows (cluster/scan_emit.glsl): workgroups past it output nothing.
    const uint g = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (g >= counts.count) {
        SetMeshOutputsEXT(0, 0);
        return;
    }
    const DrawCommand d = draws[g];
    if ((pc.flags & SIEVE_MATERIAL_PUSH_MIXED_BINS) != 0u && primitives[d.primitive].bin != kBin) {
        SetMeshOutputsEXT(0, 0);
        return;
    }
    const Cluster cl = clusters[ids[g]];
    const Instance inst = instances[d.firstInstance];
    // The host validates material indices; a bad one still reads inside the table.
    const Material m = materials[min(d.material, uint(materials.length()) - 1u)];
    const uint vertexCount = min(cl.vertexCount, SIEVE_CLUSTER_MAX_VERTICES);
    const uint triangleCount = min(cl.triangleCount, SIEVE_CLUSTER_MAX_TRIANGLES);
    SetMeshOutputsEXT(vertexCount, triangleCount);
    for (uint v = gl_LocalInvocationIndex; v < vertexCount; v += gl_WorkGroupSize.x) {
        const uint index = uint(d.vertexOffset) + meshletVertices[cl.vertexOffset + v];
        const Vertex vx = vertices[index];
        const VertexUv uv = uvs[index];
        const MaterialVarying o =
            materialVertex(inst, vec3(vx.px, vx.py, vx.pz), vx.normal, vec2(uv.u, uv.v), m, d, pc.viewProj);
        gl_MeshVerticesEXT[v].gl_Position = o.clip;
#ifdef SIEVE_TRIANGLE_CULL
        triangleCullKeepVertex(v, o.clip, pc.viewport);
#endif
        outNormal[v] = o.normal;
        outUv[v] = o.uv;
        outBaseColor[v] = o.baseColor;
        outParams[v] = o.params;
        outEmissive[v] = o.emissive;
        outWorld[v] = o.world;
        outNormalMap[v] = o.normalMap;
        outKey[v] = o.key;
    }
    writeClusterTriangles(cl.triangleOffset, triangleCount, vertexCount, pc.viewport, uvec2(pc.scissorWidth, pc.scissorHeight));
}
