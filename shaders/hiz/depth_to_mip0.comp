#version 460
// Pyramid mip 0 from a single-sample depth image (hiz/depth_to_mip0.glsl).
#extension GL_GOOGLE_include_directive : require
#include "hiz/depth_to_mip0.glsl"
