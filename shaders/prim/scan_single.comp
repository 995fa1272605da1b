#version 460
// Tier c with two status words per tile (devices without 64-bit buffer atomics): see scan_single.glsl.
#extension GL_GOOGLE_include_directive : require
#define SIEVE_PACKED_STATUS 0
#include "prim/scan_single.glsl"
