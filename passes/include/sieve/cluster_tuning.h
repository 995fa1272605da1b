#pragma once
// Tuning of the cluster plugin, for this repository's benches, tests and viewer: not installed
// (cmake/SieveInstall.cmake), as a host never needs it. The defaults are what ClusterPlugin::create gives.
#include <memory>

#include "sieve/cluster.h"
#include "sieve/prim/config.h"

namespace sieve {

// The cluster scans' tile: one uvec4 per invocation (1024 values at 256 invocations), not the prim default
// of four. A tile's records are written by its workgroup and each takes dependent loads (candidate -> listed
// draw -> cluster), so a phase's records, tens of thousands, need many workgroups: 4096-value tiles left
// 15k records to 4 workgroups (bench/RESULTS.md, 2026-12-03).
inline constexpr uint32_t kClusterScanVectors = 1;

// `o` with the cluster scans' tile (a host passing its culling plugin's scan options keeps their other
// choices).
inline prim::PrimOptions clusterScanOptions(prim::PrimOptions o = {}) {
    o.vectorsPerThread = kClusterScanVectors;
    return o;
}

struct ClusterTuning {
    // The phases' single-pass scans: their tiles (workgroupSize, vectorsPerThread, subgroups) and look-back
    // (lookbackSpins, packedLookbackStatus, lookbackPerLane); the tier and persistentLookback do not apply:
    // the cluster scans are their own, sized on the GPU, with a status zeroed once per frame.
    prim::PrimOptions scan = clusterScanOptions();
};

// ClusterPlugin::create with tuning.
Result<std::unique_ptr<ClusterPlugin>> createClusterPlugin(const DeviceInfo& dev, const ClusterConfig& config,
                                                           const ClusterTuning& tuning);
const ClusterTuning& tuning(const ClusterPlugin& plugin);

}  // namespace sieve
