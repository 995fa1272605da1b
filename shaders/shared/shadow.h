#ifndef SIEVE_SHARED_SHADOW_H
#define SIEVE_SHARED_SHADOW_H
// Cascaded shadow maps as the default geometry pass reads them (shaders/geometry/shadow.glsl): one
// storage buffer holding this header, then the depth atlas's texels (float, row-major, the atlas is
// count * mapSize wide and mapSize high; cascade k at x in [k * mapSize, (k + 1) * mapSize)), copied
// there from the depth image the cascades were drawn into. Depth is reverse Z (larger = nearer the light).
#include "shared/common.h"

SIEVE_NS_BEGIN

SIEVE_CONST(uint, SIEVE_MAX_CASCADES, 4u)

struct ShadowCascades {
    mat4 lightViewProj[4];  // world -> cascade clip space (orthographic: w = 1)
    vec4 splitFar;          // camera distance where cascade k ends
    vec4 bias;              // depth bias of cascade k (depth units), against acne
    vec4 cameraForward;     // xyz: the camera's forward axis; distance = dot(xyz, p) + w
    uint count;             // cascades (the geometry pass also gets it as a push constant)
    uint mapSize;           // texels per cascade side
    uint pad0;
    uint pad1;
};

SIEVE_NS_END

#ifdef __cplusplus
static_assert(sizeof(sieve::gpu::ShadowCascades) == 320, "std430: 4 mat4, 3 vec4, 4 uint");
#endif

#endif
