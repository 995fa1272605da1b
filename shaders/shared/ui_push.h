#ifndef SIEVE_SHARED_UI_PUSH_H
#define SIEVE_SHARED_UI_PUSH_H
// Push constants of the debug UI's shaders (shaders/ui/), shared by GLSL and engine/ui.
#include "shared/common.h"

SIEVE_NS_BEGIN

// ui/imgui.vert: pixel positions -> clip space.
struct ImGuiPush {
    vec2 scale;
    vec2 translate;
};

// ui/hiz_view.comp: one mip of the pyramid as grey levels of the distance it stands for.
struct HiZViewPush {
    uvec2 outSize;
    int mip;
    uint channel;     // 0: min, 1: max
    float nearPlane;  // reverse-Z infinite perspective: distance = nearPlane / depth; 0: grey = depth itself
    float range;      // distances from 0 (white) to range (black): the contrast
};

// ui/cull_bounds.vert: the bounding sphere of every instance a test culled, as three great circles of
// SIEVE_BOUNDS_SEGMENTS line segments each (one instance per sphere, LINE_LIST).
struct CullBoundsPush {
    mat4 viewProj;  // the view camera's, column-major
    uint instanceCount;
    uint pad0, pad1, pad2;
    // Per SIEVE_STATE_* kind: the colour of the bounds of instances in that state (RGBA8, unpackUnorm4x8);
    // alpha 0: no bounds drawn. Filled from sieve::kCullTests.
    uint stateColour[8];
};
SIEVE_CONST(uint, SIEVE_BOUNDS_SEGMENTS, 16u)
SIEVE_CONST(uint, SIEVE_BOUNDS_VERTICES, 96u)  // 3 circles x 16 segments x 2 vertices

// ui/frustum_lines.vert: the 12 edges of a frustum (24 vertices, LINE_LIST) from its 8 corners,
// already in the view camera's clip space: near face 0..3, far face 4..7, each (-x-y, +x-y, +x+y, -x+y).
struct FrustumLinesPush {
    vec4 corners[8];
};

// ui/pick_pyramid.comp: one mip of the min/max pyramid copied, texel by texel (r = min, g = max), into a
// buffer of vec2 at `offset` (row-major, size.x per row): the viewer's pick reads the pyramid back.
struct PickPyramidPush {
    uvec2 size;  // the mip's extent
    uint mip;
    uint offset;  // in vec2
};

SIEVE_NS_END

#ifdef __cplusplus
static_assert(sizeof(sieve::gpu::PickPyramidPush) == 16, "uvec2 + 2 x uint as the GLSL block lays them out");
static_assert(sizeof(sieve::gpu::CullBoundsPush) == 112, "mat4 + 12 x uint as the GLSL (std430) block lays them out");
static_assert(sizeof(sieve::gpu::FrustumLinesPush) == 128, "8 x vec4 as the GLSL block lays them out");
static_assert(sizeof(sieve::gpu::ImGuiPush) == 16, "two vec2 as the GLSL block lays them out");
static_assert(sizeof(sieve::gpu::HiZViewPush) == 24, "uvec2, int, uint, 2 x float as the GLSL block lays them out");
#endif

#endif
