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

// ui/hiz_view.comp: one mip of the pyramid as grey levels.
struct HiZViewPush {
    uvec2 outSize;
    int mip;
    uint channel;    // 0: min, 1: max
    float logRange;  // depths below 2^-logRange are black
};

SIEVE_NS_END

#ifdef __cplusplus
static_assert(sizeof(sieve::gpu::ImGuiPush) == 16, "two vec2 as the GLSL block lays them out");
static_assert(sizeof(sieve::gpu::HiZViewPush) == 20, "uvec2, int, uint, float as the GLSL block lays them out");
#endif

#endif
