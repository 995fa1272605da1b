#version 460
// Fused culling, late phase (see fused.glsl).
#define CULL_LATE 1
#extension GL_GOOGLE_include_directive : require
#include "cull/fused.glsl"
