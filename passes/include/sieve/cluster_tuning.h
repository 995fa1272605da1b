#pragma once
// Tuning of the cluster plugin, for this repository's benches, tests and viewer: not installed
// (cmake/SieveInstall.cmake), as a host never needs it. The defaults are what ClusterPlugin::create gives.
#include <memory>

#include "sieve/cluster.h"
#include "sieve/prim/config.h"

namespace sieve {

struct ClusterTuning {
    // The tiles of the phases' scans (workgroupSize, vectorsPerThread, subgroups; the tier and the
    // look-back options do not apply: the cluster scans are their own, sized on the GPU).
    prim::PrimOptions scan;
};

// ClusterPlugin::create with tuning.
Result<std::unique_ptr<ClusterPlugin>> createClusterPlugin(const DeviceInfo& dev, const ClusterConfig& config,
                                                           const ClusterTuning& tuning);
const ClusterTuning& tuning(const ClusterPlugin& plugin);

}  // namespace sieve
