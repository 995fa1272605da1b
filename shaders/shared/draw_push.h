#ifndef SIEVE_SHARED_DRAW_PUSH_H
#define SIEVE_SHARED_DRAW_PUSH_H
// Push constants of the draw-list shaders (shaders/draw/), shared by GLSL and C++.
#include "shared/common.h"

SIEVE_NS_BEGIN

// draw/expand.comp.
struct DrawExpandPush {
    uint instanceCount;
    uint capacity;  // draw records the list holds
};

// draw/finish_atomic.comp.
struct DrawFinishPush {
    uint capacity;
};

SIEVE_NS_END

#endif
