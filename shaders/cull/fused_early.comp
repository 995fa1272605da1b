#version 460
// Fused culling, early phase (see fused.glsl).
#define CULL_LATE 0
#extension GL_GOOGLE_include_directive : require
#include "cull/fused.glsl"
