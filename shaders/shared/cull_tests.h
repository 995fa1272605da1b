#ifndef SIEVE_SHARED_CULL_TESTS_H
#define SIEVE_SHARED_CULL_TESTS_H
// The culling tests a view asks for (CullView::tests) and the toggle bits of the plugin's per-view
// parameters (CullParams::toggles, declared in the plugin's private shader layouts), shared by GLSL and
// C++; part of the installed surface.
#include "shared/common.h"

SIEVE_NS_BEGIN

// Views per frame at most (CullingConfig::maxViews): the flag passes read CullParams[V] as one uniform
// block of this many entries (240 bytes each: 15360 bytes, within every device's 16 KiB uniform range).
SIEVE_CONST(uint, SIEVE_MAX_CULL_VIEWS, 64u)

// CullParams::toggles
SIEVE_CONST(uint, SIEVE_CULL_FRUSTUM, 1u)
SIEVE_CONST(uint, SIEVE_CULL_OCCLUSION, 2u)
SIEVE_CONST(uint, SIEVE_CULL_LOD, 4u)
SIEVE_CONST(uint, SIEVE_CULL_TWO_PHASE, 8u)
SIEVE_CONST(uint, SIEVE_CULL_ALL, 15u)
// Not a test: the view is culled completely by the early flag pass (no occlusion, no second phase), so
// that its streams are ready before the host's first draws (shadow maps for the main view's shading).
SIEVE_CONST(uint, SIEVE_CULL_EARLY, 16u)

SIEVE_NS_END

#endif
