#pragma once
// The cluster plugin: culling below the instance. It reads the culling plugin's exported draw lists
// (draws.early/late, counts.early/late: one record per visible (instance, primitive) at its LOD) and the
// Hi-Z pyramid, tests every cluster (meshlet, shared/cluster.h) of every listed draw for frustum,
// back-facing cone and occlusion, and writes cluster draw lists with the same record layout
// (shared/draw.h DrawCommand: one indexed draw per cluster), ready for the same geometry pass, plus the
// cluster index of each record and a mesh-task indirect command for mesh-shader hosts.
//
//   cluster.early  candidates: the clusters of draws.early (in list order, then cluster order);
//                  drawn = visibleLast && inFrustum && !backfacing
//   [host draw.early of clusters.draws.early]  [hiz.build]
//   cluster.late   candidates: the clusters of draws.early, then those of draws.late;
//                  vis = inFrustum && !backfacing && !occluded(new pyramid);
//                  drawn = vis && !(drawn early); visibleLast = vis
//   [host draw.late of clusters.draws.late]
//   cluster.stats  counters -> readback ring (read framesInFlight frames later, never waiting)
// Order: every output list is in candidate order, so stable frame to frame (the early list: instance then
// cluster order; the late list: the early-list instances' clusters, then the late-list instances').
// Capacity: at most candidateCapacity candidates are tested per phase (the rest are dropped and counted,
// ClusterStats::dropped) and at most outputCapacity records written (count clamped, overflow counted).
// Cost: each phase's first dispatch reads the input lists' counts; every later one is dispatched
// indirectly from the sizes the GPU wrote (shared/cluster.h ClusterWork), so a phase's work follows the
// records listed and the clusters tested, not the capacities.
// Like the culling plugin's lists, an instance is in at most one of the two input lists.
// Visibility is per cluster slot and persistent (instance's first slot + primitive's slot + cluster).
#include <vulkan/vulkan.h>

#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "shared/cluster.h"
#include "shared/draw.h"
#include "sieve/device.h"
#include "sieve/plugin.h"
#include "sieve/view.h"

namespace sieve {

struct ClusterConfig {
    uint32_t maxInstances = 0;        // size of the instance table
    uint32_t drawCapacity = 0;        // records of each input draw list (CullingPlugin::drawCapacity())
    uint32_t maxClustersPerDraw = 0;  // largest ClusterRange::clusterCount
    uint32_t visibilitySlots = 0;     // sum of the instances' cluster slots (assets::ClusterData)
    uint32_t candidateCapacity = 0;   // clusters tested per phase; 0: drawCapacity * maxClustersPerDraw (capped)
    uint32_t outputCapacity = 0;      // records per output list; 0: candidateCapacity
    uint32_t coneBins = ~0u;          // bit b: bin b culls back faces, so its clusters may be cone culled
    uint32_t framesInFlight = 2;
    uint32_t meshGroupsX = 65535;  // mesh-task command: workgroups per row (maxMeshWorkGroupCount[0])
    VkExtent2D viewport{0, 0};     // the host's depth attachment (the pyramid is derived from it)
};

struct ClusterToggles {
    bool frustum = true;
    bool cone = true;
    bool occlusion = true;
};

struct ClusterStats {
    bool valid = false;
    uint64_t frame = 0;
    gpu::ClusterCounters counters{};
    gpu::DrawCounts early{};
    gpu::DrawCounts late{};
    uint32_t drawn() const { return early.count + late.count; }
};

class ClusterPlugin final : public Plugin {
public:
    // Imported (the host's tables, shared with the culling plugin where the names match).
    static constexpr const char* kInstances = "scene.instances";
    static constexpr const char* kPrimitives = "scene.primitives";
    static constexpr const char* kClusters = "clusters.table";           // gpu::Cluster[]
    static constexpr const char* kRanges = "clusters.ranges";            // gpu::ClusterRange[primitives * 8]
    static constexpr const char* kInstanceSlots = "clusters.instances";  // u32 first slot per instance
    static constexpr const char* kDrawsEarly = "draws.early";
    static constexpr const char* kCountsEarly = "counts.early";
    static constexpr const char* kDrawsLate = "draws.late";
    static constexpr const char* kCountsLate = "counts.late";
    static constexpr const char* kPyramid = "hiz.pyramid";
    // Exported.
    static constexpr const char* kClusterDrawsEarly = "clusters.draws.early";    // DrawCommand[outputCapacity]
    static constexpr const char* kClusterCountsEarly = "clusters.counts.early";  // DrawCounts
    static constexpr const char* kClusterIdsEarly = "clusters.ids.early";        // u32 cluster index per record
    static constexpr const char* kTasksEarly = "clusters.tasks.early";           // VkDrawMeshTasksIndirectCommandEXT
    static constexpr const char* kClusterDrawsLate = "clusters.draws.late";
    static constexpr const char* kClusterCountsLate = "clusters.counts.late";
    static constexpr const char* kClusterIdsLate = "clusters.ids.late";
    static constexpr const char* kTasksLate = "clusters.tasks.late";
    static constexpr const char* kVisibility = "clusters.visibility";  // persistent u32 per slot
    enum PassIndex : uint32_t { kEarly, kLate, kStats, kPassCount };

    // With the default tuning (sieve/cluster_tuning.h, not installed, has the other).
    static Result<std::unique_ptr<ClusterPlugin>> create(const DeviceInfo& dev, const ClusterConfig& config);
    ~ClusterPlugin() final;

    Result<void> setInstanceCount(uint32_t n);
    // The culling plugin's view of this frame (the same ViewDesc); rejected like CullingPlugin::setView.
    Result<void> setView(const ViewDesc& view);
    ClusterToggles& toggles();
    const ClusterStats& stats() const;
    SlotId slot(std::string_view name) const;
    const ClusterConfig& config() const;
    uint32_t candidateCapacity() const;
    uint32_t outputCapacity() const;
    Result<void> resize(VkExtent2D viewport);

    std::span<const SlotDesc> slots() const final;
    std::span<const PassDesc> passes() const final;
    Result<void> prepare(const FrameInfo& frame) final;
    Result<void> record(uint32_t pass, VkCommandBuffer cmd, const Bindings& b, const FrameInfo& frame) final;

    struct Impl;

private:
    // The repository's benches and tests reach the tuning through these (sieve/cluster_tuning.h, not installed).
    friend Result<std::unique_ptr<ClusterPlugin>> createClusterPlugin(const DeviceInfo&, const ClusterConfig&,
                                                                      const struct ClusterTuning&);
    friend const ClusterTuning& tuning(const ClusterPlugin&);
    explicit ClusterPlugin(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// ---- CPU reference (the spec of shaders/cluster/) ----
struct ClusterSceneRef {
    std::span<const gpu::Instance> instances;
    std::span<const gpu::MeshPrimitive> primitives;
    std::span<const gpu::Cluster> clusters;
    std::span<const gpu::ClusterRange> ranges;
    std::span<const uint32_t> instanceSlots;
};
struct ClusterListRef {
    std::vector<gpu::DrawCommand> draws;
    std::vector<uint32_t> ids;
    gpu::DrawCounts counts{};
};
struct ClusterFrameRef {
    ClusterListRef early, late;
    gpu::ClusterCounters counters{};
};
// One frame of both phases. `visibility` is read and updated in place; `occluded(sphere)` answers the
// occlusion test against this frame's pyramid (occludedReference with a HiZPyramidCpu).
struct ClusterRefParams {
    gpu::CullParams cull{};
    gpu::ClusterPush push{};
};
ClusterFrameRef clusterFrameReference(const ClusterRefParams& p, const ClusterSceneRef& scene,
                                      std::span<const gpu::DrawCommand> drawsEarly,
                                      std::span<const gpu::DrawCommand> drawsLate, std::vector<uint32_t>& visibility,
                                      const std::function<bool(const gpu::vec4&)>& occluded);

}  // namespace sieve
