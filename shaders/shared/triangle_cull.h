#ifndef SIEVE_SHARED_TRIANGLE_CULL_H
#define SIEVE_SHARED_TRIANGLE_CULL_H
// Per-triangle culling of the mesh-shader cluster path (geometry/triangle_cull.glsl): only the culling
// variants of the mesh shaders (cluster_cull.mesh, cluster_material_cull.mesh) cull, the plain ones carry
// nothing of it. In a culling variant a specialization constant holds the pipeline's face rule and the
// device's subpixel precision; the push blocks (GeometryPush, MaterialPush) carry the viewport transform and
// the scissor. A triangle is culled only when the rasterizer would draw no sample of it.
#include "shared/common.h"

SIEVE_NS_BEGIN

// The specialization constant (constant_id) of the culling variants; the host computes it for every
// pipeline, and 0 (no culling: multisampled, or switched off) picks the plain variant.
SIEVE_CONST(uint, SIEVE_MESH_SPEC_TRIANGLE_CULL, 2u)
// Its bits: culling on (never 0 in a culling variant), the pipeline's face culling and front face (exactly its
// rasterization state) ...
SIEVE_CONST(uint, SIEVE_TRIANGLE_CULL_ON, 1u)
SIEVE_CONST(uint, SIEVE_TRIANGLE_CULL_FRONT, 2u)      // the pipeline culls front faces
SIEVE_CONST(uint, SIEVE_TRIANGLE_CULL_BACK, 4u)       // the pipeline culls back faces
SIEVE_CONST(uint, SIEVE_TRIANGLE_CULL_CLOCKWISE, 8u)  // frontFace = VK_FRONT_FACE_CLOCKWISE
// ... and in bits 8..15 the device's subPixelPrecisionBits (vertices snap to 2^-bits of a pixel).
SIEVE_CONST(uint, SIEVE_TRIANGLE_CULL_SUBPIXEL_SHIFT, 8u)

SIEVE_NS_END

#endif
