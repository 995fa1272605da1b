#pragma once
// The culling plugin: frustum and two-phase Hi-Z occlusion culling, LOD selection, and stable
// (instance-ordered) draw lists for vkCmdDrawIndexedIndirectCount. Data flow:
//   cull.early.flag    flagE = visibleLast && inFrustum             (single-phase: the full test, see below)
//   cull.early.compact scan(drawCountsE) -> draws.early, counts.early
//   [host draw.early]  DrawIndexedIndirectCount(draws.early, counts.early)
//   hiz.build          depth -> min/max pyramid
//   cull.late.flag     vis = inFrustum && !occluded; flagL = vis && !flagE; visibleLast = vis
//   cull.late.compact  scan(drawCountsL) -> draws.late, counts.late
//   [host draw.late]
//   cull.check         debug (toggles().checkCulling): occlusion-culled instances vs the final depth
//   cull.stats         counters -> readback ring (read framesInFlight frames later, never waiting)
// Hosts find the passes by role: pass(PassRole).
// Views: up to maxViews per frame (setViews), each as the host draws it (sieve/view.h: any projection,
// any depth convention), with its own tests and instance mask. View 0 is the main view: the only one
// with two-phase occlusion (against the pyramid of the host's depth); the others are culled by frustum
// (and LOD) in the early flag pass. Every flag pass reads each instance once for all views.
// Streams: every (view, bin) pair has its own draw list in draws.early / draws.late (the same layout in
// both, stream() gives its offsets) and its own DrawCounts in counts.early / counts.late, in instance
// order then primitive order, with its own capacity and overflow; all come from one scan over
// (view, bin, instance) keys. Bins are MeshPrimitive::bin (bins >= binCount count as the last bin).
// Run-time switches (no pipeline rebuild): frustum, occlusion, two-phase, LOD, stable/atomic order,
// freeze. Two-phase off = single phase: the early slot runs the full test against the previous frame's
// pyramid, looking each instance up through the previous frame's camera (the one that drew that depth),
// and the late slot draws nothing; what the previous camera could not see is kept, what it saw hidden is
// culled for one frame even if the new camera sees it (the price of one phase; the check counts those).
// Freeze: the culling camera and the pyramid stay as they were while the host's view camera moves.
#include <vulkan/vulkan.h>

#include <array>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shared/cull_tests.h"
#include "shared/draw.h"
#include "sieve/device.h"
#include "sieve/plugin.h"
#include "sieve/view.h"

namespace sieve {

inline constexpr uint32_t kMaxCullViews = gpu::SIEVE_MAX_CULL_VIEWS;
inline constexpr uint32_t kMaxCullBins = 64;

struct CullingConfig {
    uint32_t maxInstances = 0;         // size of the instance table
    uint32_t maxDrawsPerInstance = 1;  // largest Mesh::primitiveCount
    uint32_t maxViews = 1;             // views per frame, 1..kMaxCullViews
    uint32_t binCount = 1;             // draw bins per view, 1..kMaxCullBins
    uint32_t drawCapacity = 0;         // records per stream; 0: maxInstances * maxDrawsPerInstance
    // Empty, or one capacity per stream (index view * binCount + bin, maxViews * binCount entries),
    // replacing drawCapacity; 0 is allowed (a stream that never draws).
    std::vector<uint32_t> streamCapacities;
    uint32_t framesInFlight = 2;
    VkExtent2D viewport{0, 0};  // extent of the host's depth attachment
    // The host's depth attachment (slot kDepth): any format of sieve/depth_format.h the device can sample
    // (D16_UNORM, X8_D24_UNORM_PACK32, D24_UNORM_S8_UINT, D32_SFLOAT, D32_SFLOAT_S8_UINT), single-sample
    // or multisampled with a count in the device's sampledImageDepthSampleCounts; create() refuses others.
    VkFormat depthFormat = VK_FORMAT_D32_SFLOAT;
    VkSampleCountFlagBits depthSamples = VK_SAMPLE_COUNT_1_BIT;
    // The instance table carries per-instance cull distances (Instance::cullDistance; 0 for none). Off (the
    // default) the field is never read: only the views' draw distances cull, and a view without one runs
    // no distance test at all.
    bool instanceCullDistances = false;
    // The late flag pass writes kInstanceState (view 0's decision per instance) every frame, for a host's
    // debug views and picking: turn it on for those. Off (the default), it writes it only on frames the
    // false-culling check runs (which reads it), and the slot holds nothing of the other frames: 4 bytes per
    // instance not written (12.4 us of the late pass at 10M instances on the H200, bench/RESULTS.md, session 11).
    bool instanceState = false;
};

// Run-time switches. The culling tests' (frustum, distance, occlusion) are listed with everything else
// known of each test in sieve::kCullTests (sieve/cull_tests.h).
struct CullingToggles {
    bool frustum = true;
    bool distance = true;  // the views' draw distances and the instances' cull distances
    bool occlusion = true;
    bool twoPhase = true;
    bool lod = true;
    bool freeze = false;        // keep the culling camera and the pyramid
    bool checkCulling = false;  // the false-culling check (stats().falselyCulled); not while frozen
    int lodBias = 0;
    float lodThreshold = 1.0f;  // pixels
};

enum class ViewKind : uint32_t { Camera, Shadow, Light, Other };
const char* viewKindName(ViewKind kind);  // "camera", "shadow", "light", "other"

// One view of a frame.
struct CullView {
    ViewDesc desc;
    // SIEVE_CULL_FRUSTUM / DISTANCE / OCCLUSION / LOD (shared/cull_tests.h); the run-time toggles switch
    // them off for every view. OCCLUSION only for view 0.
    uint32_t tests =
        gpu::SIEVE_CULL_FRUSTUM | gpu::SIEVE_CULL_DISTANCE | gpu::SIEVE_CULL_OCCLUSION | gpu::SIEVE_CULL_LOD;
    // Instances whose whole bounding sphere lies farther than this from the view's eye are culled (with
    // SIEVE_CULL_DISTANCE; 0: no limit). With CullingConfig::instanceCullDistances each instance may also
    // carry its own, Instance::cullDistance; the smaller applies.
    float drawDistance = 0.0f;
    // How distances are measured: false, from the eye (Unreal's max draw distance); true, along the view
    // axis, i.e. a far plane at the distance (niagara's drawDistance).
    bool distanceAlongAxis = false;
    // The view culls an instance only when (Instance::flags & instanceMask) == instanceMask (0: all),
    // e.g. SIEVE_INSTANCE_CASTS_SHADOW for a shadow view; the others it never draws.
    uint32_t instanceMask = 0;
    std::string name;  // for stats; empty: "view N"
    ViewKind kind = ViewKind::Camera;
};

// Where a stream lives (drawOffset a multiple of minStorageBufferOffsetAlignment, so the records may be
// bound on their own): records [drawOffset, drawOffset + maxDraws * 32) of draws.early / draws.late and
// its DrawCounts at countOffset of counts.early / counts.late, so that the host draws it with
// vkCmdDrawIndexedIndirectCount(draws, drawOffset, counts, countOffset, maxDraws, SIEVE_DRAW_STRIDE).
struct StreamRange {
    VkDeviceSize drawOffset = 0;
    VkDeviceSize countOffset = 0;
    uint32_t maxDraws = 0;  // the stream's capacity (0: it never draws; skip it)
};

// Counts of one view of a frame.
struct CullingViewStats {
    std::string name;
    ViewKind kind = ViewKind::Camera;
    uint32_t frustumVisible = 0;  // in view: kept by the instance mask, in the frustum and the draw distance
    uint32_t earlyDrawn = 0;
    uint32_t lateVisible = 0;  // ... and not occluded
    uint32_t lateDrawn = 0;
    // Instances each culling test removed, by kCullTests index (the first test that culls one counts it).
    std::array<uint32_t, gpu::SIEVE_CULL_TEST_COUNT> culled{};
    std::vector<gpu::DrawCounts> early, late;  // per bin
    uint32_t drawn() const { return earlyDrawn + lateDrawn; }
    uint32_t draws(uint32_t bin) const { return early[bin].count + late[bin].count; }
};

// Counts of one frame, read back framesInFlight frames later. valid: the plugin wrote this record
// itself (never memory the host did not clear).
struct CullingStats {
    bool valid = false;
    uint64_t frame = 0;
    uint32_t instances = 0;
    uint32_t frustumVisible = 0;
    uint32_t earlyDrawn = 0;   // instances drawn by the early phase
    uint32_t lateVisible = 0;  // instances visible after the late test
    uint32_t lateDrawn = 0;    // instances drawn by the late phase
    gpu::DrawCounts early{};   // draw records of the early lists (of every bin)
    gpu::DrawCounts late{};
    uint32_t draws() const { return early.count + late.count; }
    uint32_t overflow() const { return early.overflow + late.overflow; }
    // The fields above are view 0's; every view of the frame, view 0 first:
    std::vector<CullingViewStats> views;
    // The false-culling check (toggles().checkCulling): instances view 0 culled by occlusion that show
    // at least one pixel of the final depth. valid only for frames the check ran in.
    bool falselyCulledValid = false;
    uint32_t falselyCulled = 0;
};

class CullingPlugin final : public Plugin {
public:
    // Slot names, for the host to alias or bind.
    static constexpr const char* kInstances = "scene.instances";  // imported: gpu::Instance[n]
    // Imported: gpu::InstanceBounds[n], instance i's world-space sphere at index i (shared/scene.h: the culling
    // tests stream these 16 bytes per instance, apart from the 64-byte records the draws read).
    static constexpr const char* kBounds = "scene.bounds";
    static constexpr const char* kMeshes = "scene.meshes";          // imported
    static constexpr const char* kPrimitives = "scene.primitives";  // imported
    // Imported: the host's depth, declared with CullingConfig::depthFormat and depthSamples, 1 mip,
    // SAMPLED usage; bound as a view of its depth aspect alone, sampled in SHADER_READ_ONLY_OPTIMAL by
    // hiz.build and cull.check (their uses name the depth aspect; a host without separateDepthStencilLayouts
    // transitions both aspects of a depth/stencil image: sieve::transitionAspects). A multisampled depth
    // is reduced over every sample (the pyramid's min is each pixel's farthest sample) by the per-mip
    // builder; the false-culling check tests every sample. The plugin cannot see the bound view and
    // trusts it to match the declaration.
    static constexpr const char* kDepth = "depth";
    static constexpr const char* kDrawsEarly = "draws.early";  // exported: read as indirect arguments
    static constexpr const char* kCountsEarly = "counts.early";
    static constexpr const char* kDrawsLate = "draws.late";
    static constexpr const char* kCountsLate = "counts.late";
    // Every stream's count is written on every frame: by the phase's streams pass (pass(EarlyStreams) /
    // pass(LateStreams)), or, where that pass fails (its record() rejected, the frame unprepared, the
    // draw-list builder's checks, an earlier pass of the frame failed), as zero: the phase draws nothing,
    // never what the memory held. Not covered: a counts binding the plugin cannot write (no buffer,
    // shorter than the slot, offset not a multiple of 4), which is the host's record() error.
    static constexpr const char* kPyramid = "hiz.pyramid";  // persistent, for debug views
    // Exported: u32 per instance, view 0's decision (shared/cull_state.h), written by the late flag
    // pass (the early one in a single-phase frame) on every frame with CullingConfig::instanceState, else
    // only on the frames the false-culling check runs.
    static constexpr const char* kInstanceState = "cull.state";
    // The passes (passes() order) by what they do for the host's graph: draw.early goes after
    // pass(EarlyStreams), draw.late (the late streams of every view) after pass(LateStreams); pass(Check)
    // reads the final depth, so nothing may draw into it after that pass. The passes: cull.early.flag,
    // cull.early.compact (EarlyStreams), hiz.build (HiZ), cull.late.flag, cull.late.compact (LateStreams),
    // cull.check (Check), cull.stats (Stats).
    enum class PassRole : uint32_t { EarlyStreams, HiZ, LateStreams, Check, Stats };
    uint32_t pass(PassRole role) const;

    // The paths create() chose for this device: where the device lacks what a path needs, the plugin
    // takes the fallback itself (a toggle never asks for a path that fails every frame).
    struct Paths {
        // The one-dispatch pyramid serves this device and a single-sample depth (used while its toggle is
        // on); else per mip.
        bool singleDispatchHiZ = false;
        bool packedLookback = false;  // tier c's statuses in one 64-bit word; else two words
    };
    Paths paths() const;

    // Refuses a device without what culling needs (kCullingNeeds), naming each missing extension/feature.
    static Result<std::unique_ptr<CullingPlugin>> create(const DeviceInfo& dev, const CullingConfig& config);
    ~CullingPlugin() final;

    // The number of instances to cull this frame (at most maxInstances).
    Result<void> setInstanceCount(uint32_t n);
    // The camera to cull for, exactly as the host draws it: one view with every test. A projection or
    // viewport the culling cannot serve is rejected here (and the previous views stay).
    Result<void> setView(const ViewDesc& view);
    // The views of the next frames (1..maxViews), view 0 the main one. Rejected, naming the view: a
    // projection or viewport it cannot serve (view 0's must cover the host's depth attachment; the
    // others cover their own), occlusion on a view other than 0, unknown test bits. The previous views
    // stay on error.
    Result<void> setViews(std::span<const CullView> views);
    uint32_t viewCount() const;
    // The stream of (view, bin) (view < maxViews, bin < binCount; otherwise maxDraws = 0). Streams of
    // views past viewCount() have count 0.
    StreamRange stream(uint32_t view, uint32_t bin) const;
    CullingToggles& toggles();
    const CullingStats& stats() const;
    SlotId slot(std::string_view name) const;
    uint32_t drawCapacity() const;  // stream (0, 0)'s capacity (with one view and one bin: the list's)
    const CullingConfig& config() const;
    // The host's viewport changed: slot extents change, the host rebuilds its graph (and re-creates the
    // persistent slots, which the plugin initialises again on first use).
    Result<void> resize(VkExtent2D viewport);

    std::span<const SlotDesc> slots() const final;
    std::span<const PassDesc> passes() const final;
    Result<void> prepare(const FrameInfo& frame) final;
    Result<void> record(uint32_t pass, VkCommandBuffer cmd, const Bindings& b, const FrameInfo& frame) final;

    struct Impl;

private:
    // The repository's benches and tests reach their comparison knobs through these (not installed).
    friend Result<std::unique_ptr<CullingPlugin>> createCullingPlugin(const DeviceInfo&, const CullingConfig&,
                                                                      const struct CullingTuning&);
    friend CullingTuning& tuning(CullingPlugin&);
    friend const CullingTuning& tuning(const CullingPlugin&);
    explicit CullingPlugin(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace sieve
