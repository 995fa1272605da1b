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

// test/stride_read.comp: reads the vec4 at stride * r of every record r < count (the bench's peer of the
// flag passes' bounds reads); stores only where a sum equals `never`.
struct StrideReadPush {
    uint count;
    uint stride;  // in vec4s
    float never;
    uint pad;
};

// test/depth_write.vert + .frag: one full-screen triangle writing sample `sampleIndex` of every pixel (x, y)
// of a depth attachment with depth[(y * width + x) * samples + sampleIndex].
struct DepthWritePush {
    uint width;
    uint samples;
    uint sampleIndex;
    uint pad;
};

// test/triangle_cull.comp: culled[i] = 1 where the mesh path's per-triangle rule (geometry/triangle_rule.glsl)
// culls cases[i], for i < count.
struct TriangleCullCase {
    vec4 a, b, c;  // clip positions, in the order the pipeline sees them
    uvec4 tri;     // xyz: their local vertex indices (equal ones: a degenerate triangle)
};
struct TriangleCullPush {
    vec4 viewport;  // framebuffer xy = ndc.xy * viewport.xy + viewport.zw
    uint mode;      // SIEVE_TRIANGLE_CULL_* (shared/triangle_cull.h)
    uint count;
    uint scissorWidth;
    uint scissorHeight;
};

SIEVE_NS_END

#ifdef __cplusplus
static_assert(sizeof(sieve::gpu::TriangleCullCase) == 64, "3 vec4 + uvec4 (std430)");
static_assert(sizeof(sieve::gpu::TriangleCullPush) == 32, "vec4 + 4 words");
#endif

#endif
