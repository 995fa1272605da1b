#version 460
// Test-only: what the subgroup operations that the scan's look-back relies on return, per invocation, so
// that a test can compare them with what the input says they must be (tests/gpu/test_subgroup_probe.cpp).
// Each invocation i writes 8 words at out[8 i]: subgroup size, subgroup id, lane, ballot bit count of its
// subgroup's predicate, lowest lane whose predicate holds (or ~0), subgroupAdd, subgroupExclusiveAdd, and
// the sum of the lanes whose ballot bit is set, found by extracting every active lane's bit in a uniform
// loop.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "shared/test_push.h"
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Src { uint data[]; } src;
layout(set = 0, binding = 1) writeonly buffer Dst { uint data[]; } dst;
layout(push_constant) uniform Push { AddPush pc; };
void main() {
    const uint i = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (gl_WorkGroupID.x * gl_WorkGroupSize.x >= pc.count) return;  // whole workgroups only
    const uint v = src.data[i];
    const bool pred = (v & 1u) != 0u;
    const uvec4 ballot = subgroupBallot(pred);
    const uint count = subgroupBallotBitCount(ballot);
    const uint lowest = count != 0u ? subgroupBallotFindLSB(ballot) : ~0u;
    // Bits of the active lanes only (as the scans do): lavapipe returns bit j & 31 for j >= 32 of lanes
    // that do not exist (docs/subgroup-matrix.md).
    const uint width = subgroupAdd(1u);
    uint lanes = 0u;
    for (uint j = 0u; j < width; ++j)
        if (subgroupBallotBitExtract(ballot, j)) lanes += j;
    const uint at = 8u * i;
    dst.data[at + 0u] = gl_SubgroupSize;
    dst.data[at + 1u] = gl_SubgroupID;
    dst.data[at + 2u] = gl_SubgroupInvocationID;
    dst.data[at + 3u] = count;
    dst.data[at + 4u] = lowest;
    dst.data[at + 5u] = subgroupAdd(v);
    dst.data[at + 6u] = subgroupExclusiveAdd(v);
    dst.data[at + 7u] = lanes;
}
