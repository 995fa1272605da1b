#ifndef SIEVE_SHARED_HIZ_BINDINGS_H
#define SIEVE_SHARED_HIZ_BINDINGS_H
// The descriptor bindings of the Hi-Z builders (shaders/hiz/), numbered here once for the GLSL and for
// the C++ that records them (passes/src/hiz/hiz_builder.cpp, through sieve::bindingsAt), as
// shared/cull_bindings.h does for the culling shaders.
#include "hiz/hiz_shared.h"
#include "shared/common.h"

SIEVE_NS_BEGIN

// hiz/depth_to_mip0.glsl (depth_to_mip0.comp, depth_to_mip0_ms.comp)
SIEVE_CONST(uint, SIEVE_HIZ_MIP0_DEPTH, 0)  // the host's depth, sampled
SIEVE_CONST(uint, SIEVE_HIZ_MIP0_DST, 1)    // pyramid mip 0 (storage image)
SIEVE_CONST(uint, SIEVE_HIZ_MIP0_BINDINGS, 2)

// hiz/reduce_mip.comp
SIEVE_CONST(uint, SIEVE_HIZ_REDUCE_SRC, 0)  // mip m - 1
SIEVE_CONST(uint, SIEVE_HIZ_REDUCE_DST, 1)  // mip m
SIEVE_CONST(uint, SIEVE_HIZ_REDUCE_BINDINGS, 2)

// hiz/single_pass.comp: mip m at SIEVE_HIZ_SINGLE_MIPS + m, for every m < SIEVE_HIZ_MAX_MIPS.
SIEVE_CONST(uint, SIEVE_HIZ_SINGLE_DEPTH, 0)
SIEVE_CONST(uint, SIEVE_HIZ_SINGLE_COUNTER, 1)  // finished workgroups
SIEVE_CONST(uint, SIEVE_HIZ_SINGLE_MIPS, 2)
SIEVE_CONST(uint, SIEVE_HIZ_SINGLE_BINDINGS, SIEVE_HIZ_SINGLE_MIPS + SIEVE_HIZ_MAX_MIPS)

SIEVE_NS_END

#endif
