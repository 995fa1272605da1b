#ifndef SIEVE_SHARED_TEST_PUSH_H
#define SIEVE_SHARED_TEST_PUSH_H
// Push constants of the test shaders (shaders/test/), shared by GLSL, the tests and the samples.
#include "shared/common.h"

SIEVE_NS_BEGIN

// test/fill.comp: data[i] = value + i for i < count.
struct FillPush {
    uint count;
    uint value;
};

// test/add.comp: dst[i] = src[i] + 1 for i < count.
struct AddPush {
    uint count;
};

// test/depth_write.vert + .frag: one full-screen triangle writing sample `sampleIndex` of every pixel (x, y)
// of a depth attachment with depth[(y * width + x) * samples + sampleIndex].
struct DepthWritePush {
    uint width;
    uint samples;
    uint sampleIndex;
    uint pad;
};

SIEVE_NS_END

#endif
