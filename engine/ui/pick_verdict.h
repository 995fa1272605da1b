#pragma once
// Why an instance was culled: every culling test of the main view, in the order the flag shaders apply
// them, computed on the CPU with the plugin's own references (sieve/cull_flags.h, shared/cull.h) from the
// view's CullParams and the Hi-Z pyramid the GPU tested against (read back), beside the GPU's decision
// (cull.state, shared/cull_state.h). Where the two differ, one of them is wrong.
#include <cstdint>
#include <string>

#include "shared/cull.h"
#include "shared/cull_state.h"
#include "sieve/cull_flags.h"
#include "sieve/hiz.h"

namespace engine::ui {

struct PickVerdict {
    uint32_t instance = 0;
    bool masked = false;      // the view's instance mask leaves it out
    bool frustumOn = false;   // the test ran (its toggle and the view's bits)
    bool inFrustum = true;    // sieveInFrustum
    int outsidePlane = -1;    // the first plane (CullParams::planes index) the sphere lies wholly outside
    bool distanceOn = false;  // a draw distance is set and the test is on
    bool withinDistance = true;
    float distance = 0.0f;          // from the eye to the sphere's centre (along the axis where the view says so)
    bool occlusionOn = false;       // with a pyramid
    bool occlusionQueried = false;  // false: visible without reading the pyramid (near plane, off screen, ...)
    sieve::gpu::CullOcclusionQuery query{};                  // where the pyramid was read
    float farthestDepth = 0.0f;                              // the farthest depth over the query's texels
    bool occluded = false;                                   // occludedReference
    uint32_t lod = 0;                                        // lodReference (0 with LOD off)
    uint32_t decision = sieve::gpu::SIEVE_STATE_DRAWN_LATE;  // SIEVE_STATE_*: MASKED, *_CULLED, or DRAWN_LATE (drawn)
};

// The verdicts of instance `i` of `scene` for the view `params` (view 0, as the plugin built it for the
// frame) against `pyramid` (null: no occlusion test).
PickVerdict pickVerdict(const sieve::gpu::CullParams& params, const sieve::CullScene& scene, uint32_t i,
                        const sieve::HiZPyramidCpu* pyramid);

// Whether the GPU's state (kind and LOD) is the verdict's decision: either phase's draw counts as drawn.
bool verdictAgrees(const PickVerdict& v, uint32_t gpuState);
// Of a cull.state word: whether either phase drew it, and the LOD it was drawn with.
bool drawnState(uint32_t gpuState);
uint32_t stateLod(uint32_t gpuState);

// "drawn early", "drawn late", "culled by the frustum", ...: the name of a SIEVE_STATE_* kind.
const char* stateName(uint32_t stateKind);
// "left", "right", "top", "bottom", "near", "far" for CullParams::planes[i] (reverse or standard Z).
const char* planeName(int plane, const sieve::gpu::CullParams& params);

}  // namespace engine::ui
