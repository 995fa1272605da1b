#ifndef SIEVE_SHARED_CULL_TESTS_H
#define SIEVE_SHARED_CULL_TESTS_H
// The culling tests a view asks for (CullView::tests) and the toggle bits of the plugin's per-view
// parameters (CullParams::toggles, declared in the plugin's private shader layouts), shared by GLSL and
// C++; part of the installed surface.
#include "shared/common.h"

SIEVE_NS_BEGIN

// Views per frame at most (CullingConfig::maxViews): the flag passes read CullParams[V] as one uniform
// block of this many entries (256 bytes each: 16384 bytes, the uniform range every device has).
SIEVE_CONST(uint, SIEVE_MAX_CULL_VIEWS, 64u)

// CullParams::toggles. The culling tests themselves (name, toggle, state, counter, debug colour) are one
// table, sieve::kCullTests (sieve/cull_tests.h); their predicates are in shared/cull.h.
SIEVE_CONST(uint, SIEVE_CULL_FRUSTUM, 1u)
SIEVE_CONST(uint, SIEVE_CULL_OCCLUSION, 2u)
SIEVE_CONST(uint, SIEVE_CULL_LOD, 4u)
SIEVE_CONST(uint, SIEVE_CULL_TWO_PHASE, 8u)
SIEVE_CONST(uint, SIEVE_CULL_DISTANCE, 32u)  // the view's draw distance and each instance's cull distance
SIEVE_CONST(uint, SIEVE_CULL_ALL, 47u)       // every bit above
// Not a test: with SIEVE_CULL_DISTANCE, the instances' own cull distances are read (the host said its
// table carries them: CullingConfig::instanceCullDistances); without it only the view's distance counts.
SIEVE_CONST(uint, SIEVE_CULL_INSTANCE_DISTANCE, 64u)

// Index of each culling test in CullCounters::culled and sieve::kCullTests, in the order the flag
// shaders apply them: an instance is counted by the first test that culls it.
SIEVE_CONST(uint, SIEVE_TEST_FRUSTUM, 0u)
SIEVE_CONST(uint, SIEVE_TEST_DISTANCE, 1u)
SIEVE_CONST(uint, SIEVE_TEST_OCCLUSION, 2u)
SIEVE_CONST(uint, SIEVE_CULL_TEST_COUNT, 3u)
// Not a test: the view is culled completely by the early flag pass (no occlusion, no second phase), so
// that its streams are ready before the host's first draws (shadow maps for the main view's shading).
SIEVE_CONST(uint, SIEVE_CULL_EARLY, 16u)

SIEVE_NS_END

#endif
