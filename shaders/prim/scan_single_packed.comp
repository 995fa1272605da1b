#version 460
// Tier c with one 64-bit status word per tile (shaderInt64 + shaderBufferInt64Atomics): see scan_single.glsl.
#extension GL_GOOGLE_include_directive : require
#define SIEVE_PACKED_STATUS 1
#include "prim/scan_single.glsl"
