#ifndef SIEVE_SHARED_MATERIAL_H
#define SIEVE_SHARED_MATERIAL_H
// The material model of the default geometry pass (material mode): the material table (one Material per
// DrawCommand::material, a storage buffer), the second vertex stream (one VertexUv per Vertex, same
// index), the texture array's size and the push block of geometry/material.vert + material.frag.
// Bins: a primitive's pipeline class is bin = alphaMode * 2 + doubleSided (SIEVE_MATERIAL_BIN_COUNT of
// them; the sample loaders use the same numbers), one pipeline each.
#include "shared/common.h"

SIEVE_NS_BEGIN

SIEVE_CONST(uint, SIEVE_ALPHA_OPAQUE, 0u)
SIEVE_CONST(uint, SIEVE_ALPHA_MASK, 1u)   // fragments with alpha < alphaCutoff are discarded (no depth)
SIEVE_CONST(uint, SIEVE_ALPHA_BLEND, 2u)  // blended over what is drawn, depth tested, no depth writes
SIEVE_CONST(uint, SIEVE_MATERIAL_BIN_COUNT, 6u)
// Textures the pass can bind: fragment stages may see as few as 128 resources (lavapipe's
// maxPerStageResources), which also counts the sampler and the colour attachment.
SIEVE_CONST(uint, SIEVE_MAX_TEXTURES, 120u)
// Texture index of "no texture": the pass's array slot 0 holds the host's 1x1 white texture.
SIEVE_CONST(uint, SIEVE_TEXTURE_WHITE, 0u)

// MaterialPush::flags
SIEVE_CONST(uint, SIEVE_MATERIAL_PUSH_MIXED_BINS, 1u)    // the list holds every bin: drop other bins' triangles
SIEVE_CONST(uint, SIEVE_MATERIAL_PUSH_TINT_BY_LOD, 2u)   // colour by DrawCommand::lod instead of the material
SIEVE_CONST(uint, SIEVE_MATERIAL_PUSH_TINT_BY_DRAW, 4u)  // colour per draw record (cluster) instead

struct Material {
    vec4 baseColorFactor;   // linear RGBA, multiplies the texture
    uint baseColorTexture;  // index into the pass's texture array (SIEVE_TEXTURE_WHITE: none)
    uint alphaMode;         // SIEVE_ALPHA_* (hosts bin by it; the bin's pipeline applies it)
    float alphaCutoff;      // MASK only
    uint doubleSided;       // 1: no face culling, back faces lit with the flipped normal
    // The base colour texture's UV transform (KHR_texture_transform), rows of a 2x3 matrix:
    // uv' = (dot(uvRow0.xyz, (u, v, 1)), dot(uvRow1.xyz, (u, v, 1))). Identity: (1,0,0,0), (0,1,0,0).
    vec4 uvRow0;
    vec4 uvRow1;
    vec4 emissive;         // linear RGB emissive factor (times the emissive texture), added to the lit colour; w unused
    uint normalTexture;    // tangent-space normal map (UNORM) in the texture array; SIEVE_TEXTURE_WHITE: none
    float normalScale;     // scales the map's x and y (glTF normalTexture.scale)
    uint emissiveTexture;  // sRGB emissive texture in the texture array (same UVs); SIEVE_TEXTURE_WHITE: the factor
    uint pad1;
};

struct VertexUv {
    float u;
    float v;
};

struct MaterialPush {
    mat4 viewProj;  // column-major
    vec4 lightDir;  // xyz: towards the light; w: shadow cascades (shared/shadow.h; 0: none)
    vec4 tint;      // multiplies the shaded colour (1,1,1,1: none)
    uint flags;     // SIEVE_MATERIAL_PUSH_*
    // cluster_material_cull.mesh's triangle culling (shared/triangle_cull.h): the scissor's size and the
    // viewport transform, framebuffer xy = ndc.xy * viewport.xy + viewport.zw.
    uint scissorWidth;
    uint scissorHeight;
    uint pad0;
    vec4 viewport;
};

// Specialization constants of geometry/material.vert + material.frag (constant_id = index): the texture
// slots in use (cases of the texture switch) and the pipeline's bin. Compiled in so that a software
// rasteriser's opaque pipelines keep early depth (no discard) and skip unused texture cases.
SIEVE_CONST(uint, SIEVE_MATERIAL_SPEC_TEXTURE_SLOTS, 0u)
SIEVE_CONST(uint, SIEVE_MATERIAL_SPEC_BIN, 1u)

SIEVE_NS_END

#ifdef __cplusplus
static_assert(sizeof(sieve::gpu::Material) == 96, "std430: vec4 + 4 words + 3 vec4 + 4 words");
static_assert(sizeof(sieve::gpu::VertexUv) == 8, "R32G32_SFLOAT");
static_assert(sizeof(sieve::gpu::MaterialPush) == 128,
              "mat4 + 2 vec4 + 4 words + vec4 as the GLSL block lays them out");
#endif

#endif
