#ifndef SIEVE_SHARED_GEOMETRY_PUSH_H
#define SIEVE_SHARED_GEOMETRY_PUSH_H
// Push constants of the default geometry pass (geometry/mesh.vert and mesh.frag share the block).
#include "shared/common.h"

SIEVE_NS_BEGIN

struct GeometryPush {
    mat4 viewProj;  // column-major
    vec4 lightDir;  // xyz: towards the light; w: shadow cascades (shared/shadow.h; 0: none)
};

SIEVE_NS_END

#ifdef __cplusplus
static_assert(sizeof(sieve::gpu::GeometryPush) == 80, "mat4 + vec4 as the GLSL block lays them out");
#endif

#endif
