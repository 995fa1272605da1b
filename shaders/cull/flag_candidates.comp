#version 460
// Culling flags, late phase, second dispatch of the split late pass (see flag.glsl): view 0's candidates against
// the pyramid, in workgroups of candidates only.
#define CULL_LATE 1
#define CULL_CANDIDATES 1
#extension GL_GOOGLE_include_directive : require
#include "cull/flag.glsl"
