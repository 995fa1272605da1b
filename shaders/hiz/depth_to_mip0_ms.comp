#version 460
// Pyramid mip 0 from a multisampled depth image: every sample of every covered pixel
// (hiz/depth_to_mip0.glsl).
#extension GL_GOOGLE_include_directive : require
#define SIEVE_DEPTH_MS 1
#include "hiz/depth_to_mip0.glsl"
