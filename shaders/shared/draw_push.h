#ifndef SIEVE_SHARED_DRAW_PUSH_H
#define SIEVE_SHARED_DRAW_PUSH_H
// Push constants of the draw-list shaders (shaders/draw/), shared by GLSL and C++.
#include "shared/common.h"

SIEVE_NS_BEGIN

// draw/expand.comp.
// Keys k = s * instanceCount + i over streams s = view * binCount + bin and instances i.
struct DrawExpandPush {
    uint instanceCount;
    uint streamCount;
    uint binCount;
    uint pad;
};

// draw/finish_atomic.comp.
struct DrawFinishPush {
    uint streamCount;
};

SIEVE_NS_END

#endif
