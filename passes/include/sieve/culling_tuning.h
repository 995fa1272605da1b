#pragma once
// Tuning and comparison knobs of the culling plugin, for this repository's benches, tests and viewer: not
// installed (cmake/SieveInstall.cmake), as a host never needs them. The defaults are what a host gets.
#include <memory>

#include "sieve/cull_flags.h"
#include "sieve/culling.h"
#include "sieve/prim/config.h"

namespace sieve {

// From this many instances the plugin marks its draw counts (CullingTuning::DrawMarks::Auto). On the H200
// (bench/RESULTS.md, session 14) marks took 8 us off each compaction at 10M instances, where few keys draw: whole
// culling 11-13 us faster on the city and on niagara's kitten field. At 1M instances they saved nothing (the mark
// is one more dependent load per tile), and on one million instances in five views (5M keys per phase) they made
// the early compaction 5-7 us slower. So the rule counts instances, not keys; 2^23 lies between 1M and 10M.
inline constexpr uint32_t kDrawMarksFrom = 1u << 23;

struct CullingTuning {
    // The draw lists' scan tier and options, fixed at create (persistentLookback is ignored: the
    // plugin's scan scratch is transient).
    prim::PrimOptions scan;
    // Read by every prepare():
    bool stable = true;             // false: atomic-append order (the same set in any order; a comparison)
    bool singleDispatchHiZ = true;  // false: one dispatch per pyramid mip (where the single one exists)
    // The late pass's split (CullLayout::lateSplit; Auto: from kSplitLateFrom instances). At create: Off declares
    // no candidate list (nor its uses: the plugin's graph as without it); any other value declares one, after which
    // the value of every prepare() applies, Off included. Off by default: on the H200 the adaptive split made the
    // late pass faster on niagara's unordered kitten field at 10M instances and slower on the city (bench/RESULTS.md,
    // session 13).
    CullLayout::LateSplit lateSplit = CullLayout::LateSplit::Off;
    // Draw marks (CullPhaseBuffers::drawMarks, DrawListBuffers::drawMarks), fixed at create: the flag passes mark
    // the groups of draw counts with a draw and the compactions read only those. Off declares no marks; Auto
    // declares them where CullingConfig::maxInstances reaches kDrawMarksFrom.
    enum class DrawMarks { Auto, Off, On } drawMarks = DrawMarks::Auto;
    float debugRadiusShrink = 0.0f;  // view 0's occlusion test shrinks radii by this fraction (0..1): planted
                                     // false culls for the false-culling check's tests
};

// CullingPlugin::create with tuning.
Result<std::unique_ptr<CullingPlugin>> createCullingPlugin(const DeviceInfo& dev, const CullingConfig& config,
                                                           const CullingTuning& tuning);
// The plugin's tuning; the run-time fields apply from the next prepare().
CullingTuning& tuning(CullingPlugin& plugin);
const CullingTuning& tuning(const CullingPlugin& plugin);

}  // namespace sieve
