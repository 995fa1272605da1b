#pragma once
// The cluster plugin's stages (core/stage.h: the model both plugins share): what each is created with
// (ClusterKit), what prepare() decided for the frame (ClusterFrame), and the stage factories, in pass
// order (sieve::ClusterPlugin::PassIndex; cluster_plugin.cpp lists them).
#include <memory>

#include "cluster/cluster_slots.h"
#include "core/stage.h"
#include "prim/common.h"
#include "sieve/cluster_tuning.h"

namespace sieve::cluster {

// The device, the resolved capacities (sizes() follows resize()), the scans' tiles and options, and
// (StageCache) what both phases share.
class ClusterKit : public StageCache {
public:
    ClusterKit(const DeviceInfo& dev, const Sizes& sizes, prim::detail::Tiles tiles, const prim::PrimOptions& scan)
        : dev_(dev), sizes_(sizes), tiles_(tiles), scan_(scan) {}
    const DeviceInfo& dev() const { return dev_; }
    const Sizes& sizes() const { return sizes_; }
    Sizes& sizes() { return sizes_; }
    const prim::detail::Tiles& tiles() const { return tiles_; }
    const prim::PrimOptions& scanOptions() const { return scan_; }  // ClusterTuning::scan
    ClusterStats& stats() { return stats_; }
    const ClusterStats& stats() const { return stats_; }

private:
    DeviceInfo dev_;
    Sizes sizes_;
    prim::detail::Tiles tiles_;
    prim::PrimOptions scan_;
    ClusterStats stats_;
};

// What the plugin decided for this frame in prepare(); every stage reads the same.
struct ClusterFrame {
    FrameInfo info;
    gpu::CullParams params{};  // the view, with this frame's toggles
    gpu::ClusterPush push{};   // capacities and toggles (each phase stage adds its own fields)
    // Persistent slots were (re)created and hold whatever memory the host gave, until a stats pass ran.
    bool fresh = true;
};

using ClusterStage = Stage<ClusterKit, ClusterFrame>;

// The stages, in pass order: cluster.early, cluster.late, cluster.stats.
std::unique_ptr<ClusterStage> makePhaseStage(uint32_t phase);
std::unique_ptr<ClusterStage> makeStatsStage();

}  // namespace sieve::cluster
