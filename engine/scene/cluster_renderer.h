#pragma once
// The reference host's side of cluster culling: the cluster tables on the GPU, the cluster plugin, and
// how its passes join the frame graph (cluster.early after cull.early.compact, cluster.late after
// cull.late.compact, cluster.stats after cull.stats; the draw passes then draw the cluster lists).
#include <memory>
#include <vector>

#include "assets/bins.h"
#include "assets/meshlets.h"
#include "engine/graph/executor.h"
#include "engine/graph/graph_desc.h"
#include "engine/vk/context.h"
#include "engine/vk/resources.h"
#include "sieve/cluster.h"
#include "sieve/cluster_mesh_pass.h"
#include "sieve/culling.h"

namespace engine {

// The bins of the sample hosts whose pipelines cull back faces.
inline constexpr uint32_t kSingleSidedBins =
    (1u << sieve::assets::kBinOpaque) | (1u << sieve::assets::kBinMasked) | (1u << sieve::assets::kBinBlend);

// How the cluster lists are drawn: indexed indirect draws (everywhere) or mesh shaders (VK_EXT_mesh_shader).
enum class ClusterPath { Indirect, Mesh };
inline const char* clusterPathName(ClusterPath p) {
    return p == ClusterPath::Mesh ? "mesh" : "indirect";
}

struct ClusterSetup {
    const sieve::assets::ClusterData* data = nullptr;
    ClusterPath path = ClusterPath::Indirect;
};

class ClusterRenderer {
public:
    // `coneBins`: the bins whose pipelines cull back faces (their clusters may be cone culled). The mesh
    // path is refused on a device without mesh shaders.
    static sieve::Result<std::unique_ptr<ClusterRenderer>> create(Context& ctx, const ClusterSetup& setup,
                                                                  const sieve::CullingPlugin& cull,
                                                                  uint32_t instanceCount, uint32_t coneBins,
                                                                  VkFormat colorFormat, VkFormat depthFormat);
    ClusterPath path() const { return path_; }
    // Mesh path: the draw pass of one phase (its uses; records with recordMeshDraw).
    sieve::PassDesc meshDrawDesc(bool late, graph::SlotId color, graph::SlotId depth, graph::SlotId vertices,
                                 graph::SlotId instances) const;
    void recordMeshDraw(VkCommandBuffer cmd, const sieve::Bindings& b, bool late, graph::SlotId vertices,
                        graph::SlotId instances, const sieve::GeometryAttachments& attachments, VkExtent2D extent,
                        const float viewProj[16], bool tintByCluster = false) const;

    sieve::ClusterPlugin& plugin() { return *plugin_; }
    const Buffer& meshletVertices() const { return vertices_; }
    const Buffer& meshletTriangles() const { return triangles_; }
    const Buffer& clusterTable() const { return clusters_; }

    // A new plugin from the current SPIR-V (shader reload), same configuration and toggles, sized for
    // `cull`'s draw lists. On failure the old one stays.
    sieve::Result<void> recreatePlugin(Context& ctx, const sieve::CullingPlugin& cull);
    // Adds the plugin's slots, sharing the culling plugin's (graph slots `cullMap`) by name.
    sieve::Result<void> addSlots(graph::GraphBuilder& g, const sieve::CullingPlugin& cull,
                                 const std::vector<graph::SlotId>& cullMap);
    void addPass(graph::GraphBuilder& g, sieve::ClusterPlugin::PassIndex pass);
    // The graph slot of a plugin slot (after addSlots).
    graph::SlotId slot(const char* name) const { return map_[plugin_->slot(name)]; }
    // Binds the cluster tables (after the executor is created).
    sieve::Result<void> bind(graph::GraphExecutor& executor) const;

private:
    static sieve::ClusterConfig configFor(const sieve::CullingPlugin& cull, const sieve::assets::ClusterData& data,
                                          uint32_t instanceCount, uint32_t coneBins);
    std::unique_ptr<sieve::ClusterPlugin> plugin_;
    ClusterPath path_ = ClusterPath::Indirect;
    std::unique_ptr<sieve::ClusterMeshPass> mesh_;
    Buffer clusters_, ranges_, instanceSlots_, vertices_, triangles_;
    std::vector<graph::SlotId> map_;
    graph::SlotId meshletVertices_ = sieve::kNoSlot, meshletTriangles_ = sieve::kNoSlot;
};

// The cluster plugin's frame: its frustum and occlusion switches follow the culling plugin's (the cone
// switch is its own), the view is the culling's, then prepare().
sieve::Result<void> prepareClusters(ClusterRenderer& clusters, const sieve::CullingToggles& cull,
                                    const sieve::ViewDesc& view, const sieve::FrameInfo& frame);

}  // namespace engine
