#version 460
// Culling flags, late phase (see flag.glsl).
#define CULL_LATE 1
#extension GL_GOOGLE_include_directive : require
#include "cull/flag.glsl"
