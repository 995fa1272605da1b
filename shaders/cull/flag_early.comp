#version 460
// Culling flags, early phase (see flag.glsl).
#define CULL_LATE 0
#extension GL_GOOGLE_include_directive : require
#include "cull/flag.glsl"
