// Specialization constants shared by the prim shaders, in one place so the host (passes/src/prim) and
// every shader agree on the ids:
//   0 WG        workgroup size (power of two, 32..1024)
//   1 ROUNDS    uvec4 loads per thread and tile (1..4): a tile is WG * ROUNDS * 4 elements
//   2 SUBGROUPS workgroup scan/reduce on subgroup arithmetic (else shared memory only)
//   3..        shader-specific
#extension GL_GOOGLE_include_directive : require
#include "shared/dispatch.h"

layout(constant_id = 0) const uint WG = 256;
layout(constant_id = 1) const uint ROUNDS = 4;
layout(constant_id = 2) const bool SUBGROUPS = false;
layout(local_size_x_id = 0) in;

const uint TILE = WG * ROUNDS * 4;
