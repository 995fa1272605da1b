#version 460
// The false-culling check on a multisampled depth (cull/check.glsl).
#extension GL_GOOGLE_include_directive : require
#define SIEVE_DEPTH_MS 1
#include "cull/check.glsl"
