#version 460
// draw/list_scan.glsl with one 64-bit status word per tile (shaderInt64 + shaderBufferInt64Atomics).
#extension GL_GOOGLE_include_directive : require
#define SIEVE_PACKED_STATUS 1
#include "draw/list_scan.glsl"
