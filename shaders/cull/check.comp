#version 460
// The false-culling check on a single-sample depth (cull/check.glsl).
#extension GL_GOOGLE_include_directive : require
#include "cull/check.glsl"
