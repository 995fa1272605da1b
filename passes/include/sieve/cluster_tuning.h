#pragma once
// Tuning of the cluster plugin, for this repository's benches, tests and viewer: not installed
// (cmake/SieveInstall.cmake), as a host never needs it. The defaults are what ClusterPlugin::create gives.
#include <memory>

#include "sieve/cluster.h"
#include "sieve/prim/config.h"

namespace sieve {

struct ClusterTuning {
    // The phases' single-pass scans: their tiles (workgroupSize, vectorsPerThread, subgroups) and look-back
    // (lookbackSpins, packedLookbackStatus, lookbackPerLane); the tier and persistentLookback do not apply:
    // the cluster scans are their own, sized on the GPU, with a status zeroed once per frame.
    prim::PrimOptions scan;
};

// ClusterPlugin::create with tuning.
Result<std::unique_ptr<ClusterPlugin>> createClusterPlugin(const DeviceInfo& dev, const ClusterConfig& config,
                                                           const ClusterTuning& tuning);
const ClusterTuning& tuning(const ClusterPlugin& plugin);

}  // namespace sieve
