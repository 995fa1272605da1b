#pragma once
// The culling tests, declared once: each entry is what the plugin, its CPU reference, the stats, the
// overlay, the CLI, the toggle log, the stats JSON and the culling debug view know of a test. The
// predicates live beside the GLSL that runs them (shared/cull.h: sieveInFrustum, sieveWithinDrawDistance,
// sieveOccludedByTexel), compiled for the GPU and for the CPU reference from the same source.
//
// Adding a test: a bit and an index in shared/cull_tests.h, a SIEVE_STATE_* value in shared/cull_state.h,
// its predicate in shared/cull.h called from cull/decide.glsl (inViewKept, or the occlusion test) and the
// reference (cull_reference.cpp), a toggle in CullingToggles, and an entry here.
#include <array>
#include <cstdint>
#include <string_view>

#include "shared/cull_state.h"
#include "shared/cull_tests.h"

namespace sieve {

struct CullingToggles;

struct CullTest {
    uint32_t index;         // SIEVE_TEST_*: CullCounters::culled[index], CullingViewStats::culled[index]
    std::string_view name;  // "frustum": the CLI's --frustum on|off, the log, the JSON key culled_frustum
    uint32_t bit;           // SIEVE_CULL_*: CullView::tests and the run-time toggle
    bool CullingToggles::*toggle;
    uint32_t state;             // SIEVE_STATE_*: what cull.state says of an instance this test culled
    std::string_view culledBy;  // overlay and debug-view legend: "outside the frustum"
    // Debug-view colour of the bounds of the instances it culled (exact primaries: screenshot tests look
    // for them; the frozen frustum is yellow).
    std::array<float, 3> colour;
};

// In the order the flag shaders apply them (an instance is counted by the first that culls it).
extern const std::array<CullTest, gpu::SIEVE_CULL_TEST_COUNT> kCullTests;

// The entry of `name`, or null.
const CullTest* findCullTest(std::string_view name);

}  // namespace sieve
