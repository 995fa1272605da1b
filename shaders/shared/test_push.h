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

SIEVE_NS_END

#endif
