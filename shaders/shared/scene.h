#ifndef SIEVE_SHARED_SCENE_H
#define SIEVE_SHARED_SCENE_H
// Scene tables on the GPU, shared by GLSL (std430) and C++. All meshes live in one vertex and one
// index buffer. A mesh has one or more primitives (one draw each: several materials or parts); every
// primitive has its own LOD chain. An instance places a mesh in the world.
#include "shared/common.h"

SIEVE_NS_BEGIN

SIEVE_CONST(uint, SIEVE_MAX_LODS, 8)

// Instance::flags: the kinds of an instance. A view culls an instance only when
// (flags & view mask) == view mask (mask 0: every instance).
SIEVE_CONST(uint, SIEVE_INSTANCE_CASTS_SHADOW, 1u)
SIEVE_CONST(uint, SIEVE_INSTANCE_RECEIVES_SHADOW, 2u)
SIEVE_CONST(uint, SIEVE_INSTANCE_DEFAULT_FLAGS, 3u)

struct MeshLod {
    uint firstIndex;  // into the shared index buffer
    uint indexCount;
    float error;  // object-space simplification error of this LOD (0 for LOD 0)
    uint pad;
};

struct MeshPrimitive {
    int vertexOffset;  // added to each index (VkDrawIndexedIndirectCommand::vertexOffset)
    uint lodCount;     // 1..SIEVE_MAX_LODS
    uint material;     // material index (the default geometry pass's material table)
    uint bin;          // host-defined bin (pipeline class: opaque, alpha-masked, ...), < CullingConfig::binCount
    MeshLod lods[SIEVE_MAX_LODS];
};

struct Mesh {
    vec4 sphere;          // object-space bounding sphere: xyz centre, w radius
    uint firstPrimitive;  // into the primitive table
    uint primitiveCount;  // draws produced per visible instance
    uint pad0;
    uint pad1;
};

// An instance is two records at the same index of two tables: its Instance (what the draw needs) and its
// InstanceBounds (what the culling tests read first, for every instance of every frame). Apart, the tests stream
// 16 bytes per instance; inside an 80-byte record the same sphere costs a quarter of the read rate
// (bench/RESULTS.md, session 11: 1.09 against 4.36 TB/s on the H200).
struct Instance {
    vec4 rows[3];  // object-to-world affine transform, row-major 3x4
    uint mesh;
    float scale;         // largest axis scale of the transform (for LOD error)
    uint flags;          // SIEVE_INSTANCE_* kinds; a view's instance mask selects by them
    float cullDistance;  // beyond this distance from a view's eye the instance is culled (0: no limit)
};

struct InstanceBounds {
    vec4 sphere;  // world-space bounding sphere of the instance (xyz centre, w radius), computed at upload
};

// The vertex format of the default geometry pass: 16 bytes.
struct Vertex {
    float px;
    float py;
    float pz;
    uint normal;  // octahedral or packed snorm8x3 normal (see shaders/geometry)
};

SIEVE_NS_END

#ifdef __cplusplus
static_assert(sizeof(sieve::gpu::Instance) == 64, "3 vec4 + 4 words (std430)");
static_assert(sizeof(sieve::gpu::InstanceBounds) == 16, "vec4 (std430)");
#endif

#endif
