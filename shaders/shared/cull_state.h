#ifndef SIEVE_SHARED_CULL_STATE_H
#define SIEVE_SHARED_CULL_STATE_H
// What the culling decided for each instance in the main view (view 0) this frame: one uint per
// instance in the exported slot CullingPlugin::kInstanceState ("cull.state"), written by the late flag
// pass (the single-phase early pass when two-phase is off). Debug views read it to show what each test
// removed; nothing in the culling itself reads it.
#include "shared/common.h"

SIEVE_NS_BEGIN

// Exactly one of the first six values, plus the LOD the instance was drawn with in bits 8..11.
SIEVE_CONST(uint, SIEVE_STATE_MASKED, 0u)            // not of the kinds the view draws (instance mask)
SIEVE_CONST(uint, SIEVE_STATE_FRUSTUM_CULLED, 1u)    // outside the view frustum
SIEVE_CONST(uint, SIEVE_STATE_OCCLUSION_CULLED, 2u)  // in the frustum, behind the Hi-Z pyramid
SIEVE_CONST(uint, SIEVE_STATE_DRAWN_EARLY, 3u)       // drawn by the early phase
SIEVE_CONST(uint, SIEVE_STATE_DRAWN_LATE, 4u)        // drawn by the late phase (or the single phase)
SIEVE_CONST(uint, SIEVE_STATE_DISTANCE_CULLED, 5u)   // in the frustum, beyond the draw distance
SIEVE_CONST(uint, SIEVE_STATE_KIND_MASK, 15u)
SIEVE_CONST(uint, SIEVE_STATE_LOD_SHIFT, 8u)
SIEVE_CONST(uint, SIEVE_STATE_LOD_MASK, 15u)

SIEVE_NS_END

#endif
