#version 460
// draw/list_scan.glsl with two status words per tile (devices without 64-bit buffer atomics).
#extension GL_GOOGLE_include_directive : require
#define SIEVE_PACKED_STATUS 0
#include "draw/list_scan.glsl"
