#pragma once
// The culling plugin on engine::SceneRenderer (render graph + default geometry pass) with a headless
// target: renders the procedural city from a fixed street-level camera and collects the per-pass GPU
// times of the graph (timestamps around every pass, read back when the frame slot comes round again).
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "assets/procedural_city.h"
#include "bench_util.h"
#include "engine/scene/scene_renderer.h"
#include "engine/target/headless_target.h"

namespace bench {

// Pass names of the graph (SceneRenderer: plugin passes with draw.early/draw.late interleaved).
inline const char* const kCullPasses[] = {"cull.early.flag",   "cull.early.compact", "hiz.build",  "cull.late.flag",
                                          "cull.late.compact", "cull.check",         "cull.stats", "cluster.early",
                                          "cluster.late",      "cluster.stats"};
inline const char* const kDrawPasses[] = {"draw.early", "draw.late"};

struct SceneRun {
    std::map<std::string, std::vector<double>> passUs;  // per pass, one value per timed frame
    std::vector<double> cullUs;                         // per frame: sum of the culling passes (kCullPasses)
    std::vector<double> frameUs;                        // per frame: sum of every pass of the graph
    sieve::CullingStats stats;                          // counts of a late frame (the camera does not move)
    sieve::ClusterStats clusters;                       // cluster counts of a late frame (with clusters)
    uint64_t triangles = 0;                             // pipeline statistics of a late frame (indirect draws)
    // Pipeline statistics of a late frame, where the device has them: primitives that reached the clipper
    // (clipping invocations) and those it passed on (clipping primitives), both draw passes, every path.
    std::optional<uint64_t> clippingInvocations, clippingPrimitives;
    // The mesh path's mesh-primitives-generated query of a late frame (both draw passes), where the device
    // counts them (meshShaderQueries); absent elsewhere.
    std::optional<uint64_t> meshPrimitives;
};

// Adds the per-pass medians and the frame/culling totals to a JSON line.
void addRun(Json& j, const SceneRun& run);
// The cluster counts of a run: tested per phase (tested: the late phase's, every listed draw's clusters),
// the late phase's frustum, cone and occlusion survivors, drawn per phase, dropped candidates, and
// overflow (dropped plus records past the output capacity).
Json clusterCounts(const sieve::ClusterStats& c);
// "pipeline_statistics": {"clipping_invocations", "clipping_primitives"} of the run, or null without them;
// "mesh_primitives_generated": the mesh-primitives-generated query's count, or null without it.
void addClipping(Json& j, const SceneRun& run);

// How a SceneHarness renders (the fields engine::SceneRendererOptions has, and the camera).
struct HarnessOptions {
    uint32_t maxViews = 1;
    // Draw through cluster lists (the scene's indices must be the ones the cluster data was built from).
    const engine::ClusterSetup* clusters = nullptr;
    const sieve::assets::CameraPose* pose = nullptr;  // null: the city's street camera
    uint32_t drawCapacity = 0;                        // records per draw stream (0: every instance's draws)
    bool instanceState = true;                        // sieve::CullingConfig::instanceState
    sieve::CullLayout::LateSplit lateSplit = sieve::CullLayout::LateSplit::Off;  // sieve::CullingTuning::lateSplit
    sieve::CullingTuning::DrawMarks drawMarks = sieve::CullingTuning::DrawMarks::Auto;  // ... ::drawMarks
};

class SceneHarness {
public:
    static sieve::Result<std::unique_ptr<SceneHarness>> create(engine::Context& ctx, sieve::assets::SceneData scene,
                                                               VkExtent2D extent, const HarnessOptions& options = {});
    // The procedural city of `instances` instances (buildCity).
    static sieve::Result<std::unique_ptr<SceneHarness>> createCity(engine::Context& ctx, uint64_t instances,
                                                                   uint32_t seed, VkExtent2D extent,
                                                                   const HarnessOptions& options = {});
    // Renders warmup + frames frames; times the last `frames`.
    sieve::Result<SceneRun> run(uint32_t warmup, uint32_t frames);
    // Renders for at least `ms` of wall time (the GPU is the bottleneck: an idle GPU clocks down), then
    // run(warmup, frames).
    sieve::Result<SceneRun> runWarm(uint32_t ms, uint32_t warmup, uint32_t frames);

    engine::SceneRenderer& renderer() { return *renderer_; }
    engine::HeadlessTarget& target() { return *target_; }
    const sieve::assets::SceneData& scene() const { return scene_; }
    const glm::mat4& view() const { return view_; }
    const glm::mat4& proj() const { return proj_; }
    // The camera every frame is rendered (and view 0 culled) with; the default is the city's street view.
    void setCamera(const glm::mat4& view, const glm::mat4& proj) {
        view_ = view;
        proj_ = proj;
    }
    // Frame f is rendered with the camera turned by f * degrees about its own vertical axis (0: still): the
    // visible set changes every frame, as under a panning camera.
    void setTurn(float degreesPerFrame) { turnDegrees_ = degreesPerFrame; }
    VkExtent2D extent() const { return extent_; }

private:
    SceneHarness() = default;
    sieve::assets::SceneData scene_;
    std::unique_ptr<engine::HeadlessTarget> target_;
    std::unique_ptr<engine::SceneRenderer> renderer_;
    glm::mat4 view_{1.0f}, proj_{1.0f};
    float turnDegrees_ = 0.0f;
    VkExtent2D extent_{0, 0};
};

// An option taking instance counts to run, N,... (each in 1..kMaxCityInstances).
void addInstanceCounts(cli::Parser& p, const char* name, std::string help, std::vector<uint64_t>& counts);
// --sizes N,...: the city's instance counts to run.
void addCitySizes(cli::Parser& p, std::vector<uint64_t>& sizes);

// The options of every city scenario (cull, cpu, frame). Defaults are the members' initial values.
struct CityOptions {
    uint32_t width = 1920, height = 1080;
    uint32_t frames = 0, warmup = 0;  // timed and warm-up frames (at most maxFrames)
    uint64_t seed = 1;
    bool verify = false;
    float drawDistance = 0.0f;       // the camera view's draw distance (sieve::CullView::drawDistance; 0: none)
    float turn = 0.0f;               // degrees the camera turns per frame (SceneHarness::setTurn)
    bool instanceState = false;      // the plugin writes cull.state every frame (sieve::CullingConfig::instanceState)
    std::string lateSplit = "off";   // sieve::CullingTuning::lateSplit: off, auto, adaptive, all
    std::string drawMarks = "auto";  // sieve::CullingTuning::drawMarks: auto, on, off
    std::string out;                 // JSON lines appended here; empty: stdout
    VkExtent2D extent() const { return {width, height}; }
};
// --width --height --frames --warmup --seed (unless !seeded: a scene without one) --verify (described by
// verifyHelp) --draw-distance --out.
void addCityOptions(cli::Parser& p, CityOptions& o, uint32_t maxFrames, const char* verifyHelp, bool seeded = true);
// --turn and --instance-state, for the scenarios that render through SceneHarness::run; then
// checkCityOptions: empty, or why the options cannot run together.
void addInstancePassOptions(cli::Parser& p, CityOptions& o);
// The plugin's late split that --late-split names.
sieve::CullLayout::LateSplit lateSplitOf(const CityOptions& o);
// The plugin's draw marks that --draw-marks names.
sieve::CullingTuning::DrawMarks drawMarksOf(const CityOptions& o);
std::string checkCityOptions(const CityOptions& o);

// makeCity with a message on failure.
sieve::Result<sieve::assets::SceneData> buildCity(uint64_t instances, uint32_t seed);

// Instances in view of (view, proj): inside the frustum and within the draw distance (shared/cull.h
// sieveInFrustum and sieveWithinDrawDistance, the GPU's tests; alongAxis: the distance is a far plane),
// counted on the host: the reference for the GPU's frustumVisible counter. `visit`, when given, is called
// with each of them. UINT64_MAX when the plugin refuses the matrices.
uint64_t frustumReferenceCount(const sieve::assets::SceneData& scene, const glm::mat4& view, const glm::mat4& proj,
                               float drawDistance = 0.0f, bool alongAxis = false,
                               const std::function<void(const sieve::gpu::vec4& sphere)>& visit = {});

}  // namespace bench
