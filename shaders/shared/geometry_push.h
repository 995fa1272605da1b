#ifndef SIEVE_SHARED_GEOMETRY_PUSH_H
#define SIEVE_SHARED_GEOMETRY_PUSH_H
// Push constants of the default geometry pass (geometry/mesh.vert and mesh.frag share the block).
#include "shared/common.h"

SIEVE_NS_BEGIN

struct GeometryPush {
    mat4 viewProj;  // column-major
    vec4 lightDir;  // xyz: towards the light; w: shadow cascades (shared/shadow.h; 0: none)
    vec4 tint;      // multiplies the base colour (debug views: the phase that drew it); 1 = none
    uvec4 options;  // x: 1 = base colour by the draw's LOD; y: 1 = by the draw record (debug views);
                    // zw: the scissor's width and height (cluster_cull.mesh's triangle culling)
    vec4 viewport;  // cluster_cull.mesh's triangle culling: framebuffer xy = ndc.xy * viewport.xy + viewport.zw
};

SIEVE_NS_END

#ifdef __cplusplus
static_assert(sizeof(sieve::gpu::GeometryPush) == 128, "mat4 + 4 x vec4 as the GLSL block lays them out");
#endif

#endif
