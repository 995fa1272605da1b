#version 460
// Culling flags, late phase, first dispatch of the split late pass (see flag.glsl and shared/cull.h
// SIEVE_CULL_CANDIDATE_*): every instance's view tests; view 0's instances in view go to the candidate list.
#define CULL_LATE 1
#define CULL_DEFER 1
#extension GL_GOOGLE_include_directive : require
#include "cull/flag.glsl"
