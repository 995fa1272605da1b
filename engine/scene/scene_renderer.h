#pragma once
// The viewer's frame graph: the culling plugin's passes with the default geometry pass interleaved
// (draw.early after cull.early.compact, draw.late after cull.late.compact), on the reference render
// graph. Rebuilt when the viewport changes.
#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "assets/scene.h"
#include "engine/graph/compile.h"
#include "engine/graph/executor.h"
#include "engine/graph/graph_desc.h"
#include "engine/scene/cluster_renderer.h"
#include "engine/scene/draw_queries.h"
#include "engine/scene/draw_readback.h"
#include "engine/scene/gpu_scene.h"
#include "engine/scene/shadow_pass.h"
#include "engine/target/target.h"
#include "engine/ui/cull_debug_pass.h"
#include "engine/ui/hiz_view_pass.h"
#include "engine/ui/pick_readback_pass.h"
#include "engine/vk/context.h"
#include "sieve/cull_flags.h"
#include "sieve/culling.h"
#include "sieve/culling_tuning.h"
#include "sieve/geometry_pass.h"

namespace engine {

struct FrameCounts {
    sieve::CullingStats cull;
    // Triangles of the frame of `cull` (of the latest frame while there are no counts): from the draw
    // records where they were read back (checkTriangles), with clusters from the cluster plugin's sum over
    // the cluster records drawn (both paths), otherwise from the pipeline-statistics query (not on the mesh
    // path, where input assembly counts nothing).
    uint64_t triangles = 0;
    bool trianglesValid = false;
    bool clustersOn = false;  // the draw passes drew the cluster lists
    sieve::ClusterStats clusters;
    const char* trianglesSource = "none";      // "draw_records" | "cluster_records" | "pipeline_statistics" | "none"
    std::optional<uint64_t> trianglesQuery;    // the query's count of that frame, where it has one
    std::optional<uint64_t> trianglesRecords;  // the draw records' count of that frame, where read back
    // The pipeline-statistics query's clipper counts of that frame, where it has them (every path; with the
    // mesh path's triangle culling, the triangles it culled never reach the clipper).
    std::optional<uint64_t> clippingInvocations, clippingPrimitives;
    // The mesh path's VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT count of that frame (both draw passes),
    // where the device was created with meshShaderQueries; absent elsewhere (never 0 for "not counted").
    std::optional<uint64_t> meshPrimitivesGenerated;
};

// How a SceneRenderer is made (beside the scene and its target).
struct SceneRendererOptions {
    uint32_t framesInFlight = 2;
    uint32_t drawCapacity = 0;  // records per stream; 0: the scene's own need
    uint32_t maxViews = 1;      // at least 1 + shadowCascades
    uint32_t shadowCascades = 0;
    const ClusterSetup* clusters = nullptr;
    bool materials = true;                // the scene's materials (false: plain shading)
    VkFormat depthFormat = kDepthFormat;  // the target's (engine::HeadlessTargetDesc::depthFormat)
    // The plugin writes cull.state every frame (sieve::CullingConfig::instanceState): the culling debug
    // colours and the pick readback read it, and are refused without it.
    bool instanceState = true;
    // The split late pass (sieve::CullingTuning::lateSplit, fixed at create; benches and tests).
    sieve::CullLayout::LateSplit lateSplit = sieve::CullLayout::LateSplit::Off;
    // The draw marks (sieve::CullingTuning::drawMarks, fixed at create; benches and tests).
    sieve::CullingTuning::DrawMarks drawMarks = sieve::CullingTuning::DrawMarks::Auto;
};

class SceneRenderer {
public:
    static sieve::Result<std::unique_ptr<SceneRenderer>> create(Context& ctx, const sieve::assets::SceneData& scene,
                                                                VkFormat colorFormat, VkExtent2D extent,
                                                                const SceneRendererOptions& options);
    ~SceneRenderer();

    sieve::CullingPlugin& plugin() { return *plugin_; }
    // Null unless created with clusters (engine/scene/cluster_renderer.h).
    sieve::ClusterPlugin* clusterPlugin() { return clusters_ ? &clusters_->plugin() : nullptr; }
    // Views culled after the camera (view 0) every frame, up to maxViews - 1 (their streams are not drawn).
    void setExtraViews(std::vector<sieve::CullView> views) { extraViews_ = std::move(views); }
    // The camera's view (view 0) as record() hands it to the plugin: every field of `view` (tests,
    // instanceMask, name, kind, ...) but its desc, which record() sets from its matrices and the frame's
    // extent every frame. Default: a CullView named "camera".
    void setCameraView(sieve::CullView view) { cameraView_ = std::move(view); }
    // The camera view's draw distance (sieve::CullView::drawDistance; 0: no limit), from the next frame.
    void setDrawDistance(float distance) { cameraView_.drawDistance = distance; }
    // Records of the camera's streams (all bins) of one phase: what the triangle check copies per phase.
    uint64_t cameraDrawCapacity() const;
    // The name of each bin stream (assets/bins.h names; one "mixed" stream with clusters).
    std::vector<std::string> streamNames() const;
    const GpuScene& scene() const { return scene_; }

    // After the target's beginFrame (the slot's fence is waited): reads the slot's old timings and counts.
    void collect(uint32_t slot, std::vector<graph::PassTiming>& timings, FrameCounts& counts);
    // Records the whole frame into frame.cmd; the colour image ends in COLOR_ATTACHMENT_OPTIMAL.
    sieve::Result<void> record(Target& target, const Frame& frame, const glm::mat4& view, const glm::mat4& proj);
    std::string graphDump() const;
    // Reads back the draw lists of the frames recorded from now on and counts their triangles
    // (draw_readback.h), the source FrameCounts::triangles then prefers.
    sieve::Result<void> checkTriangles(bool on) { return drawReadback_->arm(on); }

    // Adds the overlay's Hi-Z view pass (engine/ui/hiz_view_pass.h) to the graph; call before the first frame.
    sieve::Result<void> enableHiZView();
    ui::HiZViewPass* hizView() { return hizView_.get(); }
    // Adds the culling debug view's line pass (engine/ui/cull_debug_pass.h); call before the first frame.
    sieve::Result<void> enableCullDebug();
    ui::CullDebugPass* cullDebug() { return cullDebug_.get(); }
    // Adds the pick's readback of the culling decisions and the pyramid (engine/ui/pick_readback_pass.h,
    // unarmed); call before the first frame.
    sieve::Result<void> enablePickReadback();
    ui::PickReadbackPass* pickReadback() { return pickReadback_.get(); }
    // Debug colouring of the geometry passes (sieve::GeometryInputs::tint / tintByLod), per phase.
    struct DrawTints {
        std::array<float, 4> early{1, 1, 1, 1}, late{1, 1, 1, 1};
        bool byLod = false;
        bool byDraw = false;  // a colour per draw record (per cluster with clusters)
    };
    void setDrawTints(const DrawTints& tints) { tints_ = tints; }

    // Shader hot reload: recreates the plugin, the geometry pass and the Hi-Z view from sieve::embeddedSpirv()
    // (where overrides take effect) and rebuilds the graph. The caller has waited for the GPU
    // (Target::finish). On failure everything stays as it was. Run-time toggles carry over; the culling
    // history (visibility, pyramid) starts again.
    sieve::Result<void> reloadPipelines();
    // The current binding of a graph slot by name (plugin slots keep their names), e.g. "draws.early".
    // Null when there is no such slot.
    const sieve::SlotBinding* binding(std::string_view slotName) const;

private:
    SceneRenderer(Context& ctx) : ctx_(ctx) {}
    // The frame graph for `extent`, in steps: the host's slots, the plugin's passes with the draws between
    // them, the overlay's passes, the executor.
    sieve::Result<void> build(VkExtent2D extent);
    void addSceneSlots(graph::GraphBuilder& g, VkExtent2D extent);
    // After plugin pass `pass` (m: the plugin's slots in the graph): the cluster passes, the shadow draws and
    // the camera's draw pass of the phase whose lists it wrote.
    void addAfterPluginPass(graph::GraphBuilder& g, uint32_t pass, const std::vector<graph::SlotId>& m,
                            sieve::Result<void>& clusterSlots);
    void addDrawPass(graph::GraphBuilder& g, bool late, const std::vector<graph::SlotId>& m, graph::SlotId draws,
                     graph::SlotId counts);
    sieve::Result<void> addViewPasses(graph::GraphBuilder& g, const std::vector<graph::SlotId>& m, VkExtent2D extent);
    sieve::Result<void> createExecutor(graph::GraphBuilder& g);
    graph::SlotId pluginSlot(const std::vector<graph::SlotId>& m, const char* name) const {
        return m[plugin_->slot(name)];
    }
    template <typename T>
    sieve::Result<void> addOptional(std::unique_ptr<T>& member, sieve::Result<std::unique_ptr<T>> made);
    void recordDraw(bool late, VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo& frame);
    void recordMeshDraw(bool late, const ClusterMeshSlots& s, VkCommandBuffer cmd, const sieve::Bindings& b,
                        const sieve::FrameInfo& frame);
    void beginStats(VkCommandBuffer cmd, bool late, const sieve::FrameInfo& f) const;
    void endStats(VkCommandBuffer cmd, bool late, const sieve::FrameInfo& f) const;

    Context& ctx_;
    GpuScene scene_;
    std::unique_ptr<sieve::CullingPlugin> plugin_;
    std::optional<sieve::GeometryPass> geometry_;
    std::unique_ptr<ClusterRenderer> clusters_;
    sieve::ViewDesc clusterView_;  // kept while culling is frozen
    std::unique_ptr<graph::GraphExecutor> executor_;
    VkExtent2D extent_{0, 0};
    VkFormat colorFormat_ = VK_FORMAT_UNDEFINED;
    VkFormat depthFormat_ = kDepthFormat;
    std::unique_ptr<ui::HiZViewPass> hizView_;
    std::unique_ptr<ui::CullDebugPass> cullDebug_;
    std::unique_ptr<ui::PickReadbackPass> pickReadback_;
    DrawTints tints_;
    // Graphs replaced by a rebuild inside a frame (viewport change) while earlier frames in flight may
    // still use their resources: destroyed once every frame slot has been waited for since (no stall).
    struct Retired {
        uint64_t frameIndex = 0;  // the first frame recorded with the replacement
        std::unique_ptr<graph::GraphExecutor> executor;
        Image hizImage;
    };
    std::vector<Retired> retired_;
    uint64_t frameIndex_ = 0;  // of the frame being recorded
    uint32_t framesInFlight_ = 2;
    glm::mat4 viewProj_{1.0f};
    std::vector<sieve::CullView> extraViews_;
    sieve::CullView cameraView_{.name = "camera"};
    // Cascaded shadows (engine/scene/shadow_pass.h): views 1..cascades of the plugin, before extraViews_.
    std::unique_ptr<ShadowPass> shadow_;
    graph::SlotId shadowBuffer_ = sieve::kNoSlot;
    glm::vec3 sceneMin_{0.0f}, sceneMax_{0.0f};
    // Graph slots of the host's resources.
    graph::SlotId color_{}, depth_{}, vertices_{}, indices_{}, uvs_{}, materials_{};
    graph::SlotId instances_{}, bounds_{}, meshes_{}, primitives_{}, drawsEarly_{}, countsEarly_{}, drawsLate_{},
        countsLate_{};
    DrawQueries queries_;  // around the draw passes (pipeline statistics, mesh primitives generated)
    std::unique_ptr<DrawReadback> drawReadback_;
    bool materialMode_ = true;                        // the geometry pass draws materials (plain colours otherwise)
    std::vector<std::optional<uint64_t>> slotFrame_;  // the frame last recorded into each slot
    TriangleHistory triangles_{8};
};

}  // namespace engine
