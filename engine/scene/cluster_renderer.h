#pragma once
// The reference host's side of cluster culling: the cluster tables on the GPU, the cluster plugin, and
// how its passes join the frame graph (cluster.early after cull.early.compact, cluster.late after
// cull.late.compact, cluster.stats after cull.stats; the draw passes then draw the cluster lists).
#include <array>
#include <memory>
#include <vector>

#include "assets/bins.h"
#include "assets/meshlets.h"
#include "engine/graph/executor.h"
#include "engine/graph/graph_desc.h"
#include "engine/scene/gpu_scene.h"
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
    // sieve::ClusterConfig's capacities (0: the plugin's defaults, from the culling plugin's draw capacity),
    // for hosts that know how many clusters can be in view. The mesh path clamps the output capacity to
    // the device's mesh task workgroups.
    uint32_t candidateCapacity = 0;
    uint32_t outputCapacity = 0;
    // Mesh path: per-triangle culling in the mesh shaders (sieve::ClusterMeshOptions::triangleCull).
    bool triangleCull = false;
};

// What the mesh path draws into and with: the attachments' formats and the scene whose materials it shades
// with (materials = false: plain shading, as GeometryOptions::materials).
struct ClusterDrawTarget {
    VkFormat colorFormat = VK_FORMAT_UNDEFINED;
    VkFormat depthFormat = VK_FORMAT_UNDEFINED;
    const GpuScene* scene = nullptr;
    bool materials = true;
};

// The host's graph slots the mesh path's draw passes use beside the cluster lists.
struct ClusterMeshSlots {
    graph::SlotId color = sieve::kNoSlot, depth = sieve::kNoSlot;
    graph::SlotId vertices = sieve::kNoSlot, instances = sieve::kNoSlot, uvs = sieve::kNoSlot;
    graph::SlotId materials = sieve::kNoSlot, primitives = sieve::kNoSlot;
    graph::SlotId shadow = sieve::kNoSlot;  // kNoSlot: no shadows
};

// How the mesh path's draw passes shade: the bins the scene uses (GpuScene::binMask), the shadow
// cascades, and the debug views (a tint per phase, a colour per cluster).
struct ClusterMeshStyle {
    uint32_t binMask = 1;
    uint32_t shadowCascades = 0;
    std::array<float, 4> tintEarly{1, 1, 1, 1}, tintLate{1, 1, 1, 1};
    bool byCluster = false;
};

class ClusterRenderer {
public:
    // `coneBins`: the bins whose pipelines cull back faces (their clusters may be cone culled). The mesh
    // path is refused on a device without mesh shaders.
    static sieve::Result<std::unique_ptr<ClusterRenderer>> create(Context& ctx, const ClusterSetup& setup,
                                                                  const sieve::CullingPlugin& cull,
                                                                  uint32_t instanceCount, uint32_t coneBins,
                                                                  const ClusterDrawTarget& target);
    ClusterPath path() const { return path_; }
    // Mesh path: the draw pass of one phase (its uses; records with recordMeshDraw). draw.early draws the
    // opaque and masked bins of the early list; draw.late those of the late list, then the blend bins of
    // both (engine/scene/scene_geometry.h phaseOrder).
    sieve::PassDesc meshDrawDesc(bool late, const ClusterMeshSlots& s) const;
    void recordMeshDraw(VkCommandBuffer cmd, const sieve::Bindings& b, bool late, const ClusterMeshSlots& s,
                        const ClusterMeshStyle& style, VkExtent2D extent, const float viewProj[16]) const;

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
    static sieve::ClusterConfig configFor(const sieve::CullingPlugin& cull, const ClusterSetup& setup,
                                          uint32_t instanceCount, uint32_t coneBins);
    std::unique_ptr<sieve::ClusterPlugin> plugin_;
    ClusterPath path_ = ClusterPath::Indirect;
    sieve::ClusterMeshInputs meshInputs(const sieve::Bindings& b, bool late, const ClusterMeshSlots& s,
                                        const ClusterMeshStyle& style) const;
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
