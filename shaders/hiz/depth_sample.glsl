// Reading the host's depth image, single-sample or multisampled (included by the Hi-Z builders and the
// false-culling check). The includer defines SIEVE_DEPTH_MS first for a multisampled depth.
#ifndef SIEVE_DEPTH_SAMPLE_GLSL
#define SIEVE_DEPTH_SAMPLE_GLSL
#ifdef SIEVE_DEPTH_MS
#define SIEVE_DEPTH_SAMPLER sampler2DMS
// Every sample of a pixel counts: its min is the farthest sample, its max the nearest (never sample 0
// alone: a pixel occludes only what each of its samples occludes).
int depthSampleCount(sampler2DMS depth) { return textureSamples(depth); }
float depthSample(sampler2DMS depth, ivec2 p, int s) { return texelFetch(depth, p, s).r; }
#else
#define SIEVE_DEPTH_SAMPLER sampler2D
int depthSampleCount(sampler2D depth) { return 1; }
float depthSample(sampler2D depth, ivec2 p, int s) { return texelFetch(depth, p, 0).r; }
#endif
#endif
