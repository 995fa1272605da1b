// The cluster phase's two scans, each one dispatch of the library's single-pass scan with decoupled
// look-back (prim/scan_single.glsl) with the phase's own work folded in through its hooks, on the live
// sizes the GPU wrote (shared/cluster.h ClusterWork): scan_candidates.glsl (the clusters of each listed
// draw, computed where the scan loads them) and scan_emit.glsl (the test's flags, compacted into the
// phase's list where the scan writes them). One workgroup per tile, at least one: an empty scan still
// writes its total. The shader defines SIEVE_PACKED_STATUS (0: two words per tile; 1: one 64-bit word).
//
// The look-back status (binding 2) is zeroed once per frame, before the early phase: its ticket counter and
// epoch start at 0 and each scan advances the epoch (prim/scan_single.glsl), so the frame's four scans run
// in epochs 0..3 and never see each other's statuses. The whole input is one chunk: every binding of a
// phase fits maxStorageBufferRange (ClusterPlugin checks its capacities against it).
#extension GL_GOOGLE_include_directive : require
#define SIEVE_SCAN_HOOKS 1
#include "prim/scan_single.glsl"
#include "shared/cluster.h"
#include "shared/cull_bindings.h"
#include "shared/draw.h"

layout(set = 0, binding = SIEVE_CSCAN_WORK, std430) buffer Work { ClusterWork work; };
// restrict readonly: nothing writes the lists during a phase (A and B may be one buffer, only ever read).
layout(set = 0, binding = SIEVE_CSCAN_DRAWS_A, std430) restrict readonly buffer DrawsA { DrawCommand drawsA[]; };
layout(set = 0, binding = SIEVE_CSCAN_DRAWS_B, std430) restrict readonly buffer DrawsB { DrawCommand drawsB[]; };
layout(set = 0, binding = SIEVE_CSCAN_COUNTERS, std430) buffer Counters { ClusterCounters counters; };
layout(push_constant) uniform Push { ClusterPush pc; };

#include "cluster/lists.glsl"
#include "cluster/work.glsl"

uint liveA;  // ClusterWork::liveA

// The scan's parameters (scanParameters()): n values from the start of the status buffer, records below
// `capacity` (MODE 1).
void scanOf(uint n, uint capacity) {
    scanOneChunk(n, capacity);
    liveA = work.liveA;
}
