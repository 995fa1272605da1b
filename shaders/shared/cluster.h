#ifndef SIEVE_SHARED_CLUSTER_H
#define SIEVE_SHARED_CLUSTER_H
// Cluster (meshlet) tables and the per-cluster tests, shared by GLSL (shaders/cluster/) and C++ (the CPU
// reference in passes/src/cluster/): the same source and float operations, no contraction (cull.h's
// SIEVE_CULL_MATH_BEGIN), so GPU and CPU decisions compare exactly.
//
// Tables (std430, built by assets/meshlets.h):
//   ClusterRange[primitive * SIEVE_MAX_LODS + lod]: the clusters of one LOD of one primitive
//   Cluster[]: bounds, cone and where its triangles are: a contiguous range of the shared index buffer
//     (the LOD's indices are stored in cluster order, so a cluster is one indexed draw) and, for mesh
//     shaders, its meshlet vertices (u32 indices relative to MeshPrimitive::vertexOffset) and packed
//     triangles (one u32 per triangle: three 8-bit local vertex indices)
//   per instance: the first of its persistent visibility slots (one u32 per cluster slot; a primitive has
//     as many slots as its largest LOD has clusters, ClusterRange::visibilitySlot says where they start)
#include "shared/cull.h"
#include "shared/scene.h"

SIEVE_NS_BEGIN

SIEVE_CONST(uint, SIEVE_CLUSTER_MAX_VERTICES, 64)
SIEVE_CONST(uint, SIEVE_CLUSTER_MAX_TRIANGLES, 124)

// ClusterPush::toggles (CullParams::toggles supplies frustum and occlusion)
SIEVE_CONST(uint, SIEVE_CLUSTER_CONE, 1u)

// The cone test keeps a cluster unless it is back-facing by this relative margin (float rounding of the
// transform, of meshoptimizer's cone and of the rasterizer's own facing decision near edge-on).
SIEVE_CONST(float, SIEVE_CLUSTER_CONE_EPS, 0.00390625)  // 2^-8
// Instances whose linear part is not a rotation times a uniform positive scale within this relative
// tolerance skip the cone test (a cone of normals does not survive shear, non-uniform scale or mirroring).
SIEVE_CONST(float, SIEVE_CLUSTER_SIMILAR_EPS, 0.0009765625)  // 2^-10

struct Cluster {
    vec4 sphere;          // object space: xyz centre, w radius
    vec4 cone;            // object space: xyz unit axis, w cutoff (cos); >= 1: never back-facing
    uint firstIndex;      // into the shared index buffer: 3 * triangleCount indices
    uint triangleCount;   // 1..SIEVE_CLUSTER_MAX_TRIANGLES
    uint vertexOffset;    // into the meshlet vertex table
    uint vertexCount;     // 1..SIEVE_CLUSTER_MAX_VERTICES
    uint triangleOffset;  // into the packed triangle table
    uint pad0;
    uint pad1;
    uint pad2;
};

struct ClusterRange {
    uint firstCluster;
    uint clusterCount;
    uint visibilitySlot;  // first visibility slot of the primitive, relative to its instance's first
    uint pad;
};

// Push constants of shaders/cluster/*.comp.
struct ClusterPush {
    uint phase;              // 0 early (candidates: the early draw list), 1 late (early list, then late list)
    uint drawCapacity;       // records each input draw list can hold
    uint candidateCapacity;  // candidates tested per phase (more are dropped and counted)
    uint outputCapacity;     // records of each output list
    uint toggles;            // SIEVE_CLUSTER_*
    uint coneBins;           // bit b: primitives of bin b may be cone culled (back faces culled there)
    uint visibilitySlots;    // size of the visibility table (slots past it are never read or written)
    uint maxGroupsX;         // mesh path: task workgroups per row of the indirect command
    uint computeGroupsX;     // workgroups per row of the compute dispatches (maxComputeWorkGroupCount[0])
    uint testGroup;          // workgroup size of test.comp
    uint scanTile;           // elements per workgroup of scan_*.comp
    uint pad0;
    uint pad1;
    uint pad2;
    uint pad3;
    uint pad4;
};

// A VkDispatchIndirectCommand (x, y, z), padded: at most computeGroupsX workgroups per row.
struct ClusterDispatch {
    uint x;
    uint y;
    uint z;
    uint pad;
};

// The live sizes of one phase and the dispatches they need, written on the GPU (shaders/cluster/args.comp
// from the input lists' counts, the scans' last tiles from their totals): every pass after args.comp is
// dispatched indirectly from here, so a phase costs what its frame holds, whatever the capacities.
struct ClusterWork {
    ClusterDispatch slotTiles;       // scan_candidates: one workgroup per tile of the live slots (at least 1)
    ClusterDispatch tests;           // test.comp over the tested candidates
    ClusterDispatch candidateTiles;  // scan_emit: one workgroup per tile of the tested candidates (at least 1)
    uint liveA;                      // records of list A read: min(its count, drawCapacity)
    uint slotCount;                  // live candidate slots: liveA, plus list B's (late phase)
    uint candidateTotal;             // clusters of the live slots
    uint tested;                     // min(candidateTotal, candidateCapacity)
    uint outTotal;                   // candidates flagged (records wanted, before outputCapacity)
    uint pad0;
    uint pad1;
    uint pad2;
};

// Per-frame counts, accumulated with atomics (zeroed before the early phase).
struct ClusterCounters {
    uint earlyTested;  // candidates of the early phase
    uint earlyDrawn;
    uint lateTested;      // candidates of the late phase (every cluster of every instance drawn this frame)
    uint frustumVisible;  // late: in the frustum
    uint coneVisible;     // late: in the frustum and not back-facing
    uint lateVisible;     // late: ... and not occluded
    uint lateDrawn;       // late: visible and not drawn early
    uint dropped;         // candidates past candidateCapacity (both phases)
    uint triangles;       // triangles of the records written (both phases)
    uint pad0;
    uint pad1;
    uint pad2;
};

SIEVE_NS_END

#ifdef __cplusplus
static_assert(sizeof(sieve::gpu::Cluster) == 64 && sizeof(sieve::gpu::ClusterRange) == 16 &&
                  sizeof(sieve::gpu::ClusterPush) == 64 && sizeof(sieve::gpu::ClusterCounters) == 48 &&
                  sizeof(sieve::gpu::ClusterWork) == 80,
              "cluster layouts");
namespace sieve::gpu {
#endif

SIEVE_CULL_MATH_BEGIN

// World-space sphere of a cluster of an instance: centre transformed, radius scaled by the instance's
// largest axis scale (as the instance sphere).
SIEVE_FN vec4 sieveClusterSphere(SIEVE_IN(Instance) inst, vec4 s) {
    SIEVE_PRECISE float x = ((inst.rows[0].x * s.x + inst.rows[0].y * s.y) + inst.rows[0].z * s.z) + inst.rows[0].w;
    SIEVE_PRECISE float y = ((inst.rows[1].x * s.x + inst.rows[1].y * s.y) + inst.rows[1].z * s.z) + inst.rows[1].w;
    SIEVE_PRECISE float z = ((inst.rows[2].x * s.x + inst.rows[2].y * s.y) + inst.rows[2].z * s.z) + inst.rows[2].w;
    SIEVE_PRECISE float r = s.w * inst.scale;
    return vec4(x, y, z, r);
}

// Whether the linear part is a rotation times a uniform positive scale (within SIEVE_CLUSTER_SIMILAR_EPS).
SIEVE_FN bool sieveSimilarTransform(SIEVE_IN(Instance) inst) {
    vec4 a = inst.rows[0];
    vec4 b = inst.rows[1];
    vec4 c = inst.rows[2];
    // Columns of the 3x3: (a.x, b.x, c.x), (a.y, b.y, c.y), (a.z, b.z, c.z).
    SIEVE_PRECISE float g00 = (a.x * a.x + b.x * b.x) + c.x * c.x;
    SIEVE_PRECISE float g11 = (a.y * a.y + b.y * b.y) + c.y * c.y;
    SIEVE_PRECISE float g22 = (a.z * a.z + b.z * b.z) + c.z * c.z;
    SIEVE_PRECISE float g01 = (a.x * a.y + b.x * b.y) + c.x * c.y;
    SIEVE_PRECISE float g02 = (a.x * a.z + b.x * b.z) + c.x * c.z;
    SIEVE_PRECISE float g12 = (a.y * a.z + b.y * b.z) + c.y * c.z;
    SIEVE_PRECISE float tol = g00 * SIEVE_CLUSTER_SIMILAR_EPS;
    SIEVE_PRECISE float det =
        (a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x)) + a.z * (b.x * c.y - b.y * c.x);
    bool finiteAll = sieveFinite(g00) && sieveFinite(g11) && sieveFinite(g22) && sieveFinite(det);
    return finiteAll && g00 > 0.0f && det > 0.0f && abs(g11 - g00) <= tol && abs(g22 - g00) <= tol && abs(g01) <= tol &&
           abs(g02) <= tol && abs(g12) <= tol;
}

// Whether every triangle of the cluster faces away from the camera of `p` (meshoptimizer's sphere form:
// dot(centre - eye, axis) >= cutoff * |centre - eye| + radius, with a margin; orthographic views:
// dot(view direction, axis) >= cutoff, with a margin). `ws` is the cluster's world sphere.
SIEVE_FN bool sieveClusterBackfacing(SIEVE_IN(Instance) inst, vec4 cone, vec4 ws, SIEVE_IN(CullParams) p) {
    if (!(cone.w < 1.0f) || !sieveSphereFinite(ws) || !sieveSimilarTransform(inst)) return false;
    // World axis: rows times the object axis, divided by the uniform scale (|column| = inst.scale).
    SIEVE_PRECISE float ax = ((inst.rows[0].x * cone.x + inst.rows[0].y * cone.y) + inst.rows[0].z * cone.z);
    SIEVE_PRECISE float ay = ((inst.rows[1].x * cone.x + inst.rows[1].y * cone.y) + inst.rows[1].z * cone.z);
    SIEVE_PRECISE float az = ((inst.rows[2].x * cone.x + inst.rows[2].y * cone.y) + inst.rows[2].z * cone.z);
    SIEVE_PRECISE float inv = 1.0f / inst.scale;
    // The view is rigid: the eye is -R^T t and the view axis (direction of growing d) forward * R^T z.
    mat4 v = p.view;
    if (p.kind == SIEVE_PROJ_ORTHOGRAPHIC) {
        SIEVE_PRECISE float dx = p.forward * v[0][2];
        SIEVE_PRECISE float dy = p.forward * v[1][2];
        SIEVE_PRECISE float dz = p.forward * v[2][2];
        SIEVE_PRECISE float dp = ((dx * ax + dy * ay) + dz * az) * inv;
        return dp >= cone.w + SIEVE_CLUSTER_CONE_EPS;
    }
    SIEVE_PRECISE float ex = -((v[0][0] * v[3][0] + v[0][1] * v[3][1]) + v[0][2] * v[3][2]);
    SIEVE_PRECISE float ey = -((v[1][0] * v[3][0] + v[1][1] * v[3][1]) + v[1][2] * v[3][2]);
    SIEVE_PRECISE float ez = -((v[2][0] * v[3][0] + v[2][1] * v[3][1]) + v[2][2] * v[3][2]);
    SIEVE_PRECISE float cx = ws.x - ex;
    SIEVE_PRECISE float cy = ws.y - ey;
    SIEVE_PRECISE float cz = ws.z - ez;
    SIEVE_PRECISE float len = sqrt((cx * cx + cy * cy) + cz * cz);
    SIEVE_PRECISE float dp = ((cx * ax + cy * ay) + cz * az) * inv;
    SIEVE_PRECISE float bound = (cone.w * len + ws.w) + SIEVE_CLUSTER_CONE_EPS * (len + ws.w);
    return sieveFinite(len) && dp >= bound;
}

// Whether a primitive of `bin` may be cone culled under ClusterPush::coneBins.
SIEVE_FN bool sieveConeBin(uint bin, uint coneBins) {
    return bin < 32u && ((coneBins >> bin) & 1u) != 0u;
}

SIEVE_CULL_MATH_END

#ifdef __cplusplus
}  // namespace sieve::gpu
#endif

#endif
