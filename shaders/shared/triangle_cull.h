#ifndef SIEVE_SHARED_TRIANGLE_CULL_H
#define SIEVE_SHARED_TRIANGLE_CULL_H
// Per-triangle culling of the mesh-shader cluster path (geometry/triangle_cull.glsl, used by cluster.mesh
// and cluster_material.mesh): a specialization constant of the pipeline says whether it culls and with
// which face rule, the push blocks (GeometryPush, MaterialPush) carry the viewport transform and the
// scissor. A triangle is culled only when the rasterizer would draw no sample of it.
#include "shared/common.h"

SIEVE_NS_BEGIN

// The specialization constant (constant_id) of both mesh shaders; 0: no triangle culling.
SIEVE_CONST(uint, SIEVE_MESH_SPEC_TRIANGLE_CULL, 2u)
// Its bits: culling on, the pipeline's face culling and front face (exactly its rasterization state) ...
SIEVE_CONST(uint, SIEVE_TRIANGLE_CULL_ON, 1u)
SIEVE_CONST(uint, SIEVE_TRIANGLE_CULL_FRONT, 2u)      // the pipeline culls front faces
SIEVE_CONST(uint, SIEVE_TRIANGLE_CULL_BACK, 4u)       // the pipeline culls back faces
SIEVE_CONST(uint, SIEVE_TRIANGLE_CULL_CLOCKWISE, 8u)  // frontFace = VK_FRONT_FACE_CLOCKWISE
// ... and in bits 8..15 the device's subPixelPrecisionBits (vertices snap to 2^-bits of a pixel).
SIEVE_CONST(uint, SIEVE_TRIANGLE_CULL_SUBPIXEL_SHIFT, 8u)

SIEVE_NS_END

#endif
