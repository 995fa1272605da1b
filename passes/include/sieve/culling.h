#pragma once
// The culling plugin: frustum and two-phase Hi-Z occlusion culling, LOD selection, and stable
// (instance-ordered) draw lists for vkCmdDrawIndexedIndirectCount. Data flow (DESIGN.md):
//   cull.early.flag    flagE = visibleLast && inFrustum             (single-phase: the full test, see below)
//   cull.early.compact scan(drawCountsE) -> draws.early, counts.early
//   [host draw.early]  DrawIndexedIndirectCount(draws.early, counts.early)
//   hiz.build          depth -> min/max pyramid
//   cull.late.flag     vis = inFrustum && !occluded; flagL = vis && !flagE; visibleLast = vis
//   cull.late.compact  scan(drawCountsL) -> draws.late, counts.late
//   [host draw.late]
//   cull.stats         counters -> readback ring (read framesInFlight frames later, never waiting)
// Views: the host's camera as it draws it (sieve/view.h: any projection, any depth convention).
// Run-time switches (no pipeline rebuild): frustum, occlusion, two-phase, LOD, stable/atomic order,
// freeze. Two-phase off = single phase: the early slot runs the full test against the previous frame's
// pyramid and the late slot draws nothing. Freeze: the culling camera and the pyramid stay as they were
// while the host's view camera moves.
#include <vulkan/vulkan.h>

#include <memory>
#include <string>
#include <string_view>

#include "shared/draw.h"
#include "sieve/device.h"
#include "sieve/plugin.h"
#include "sieve/prim/config.h"
#include "sieve/view.h"

namespace sieve {

struct CullingConfig {
    uint32_t maxInstances = 0;         // size of the instance table
    uint32_t maxDrawsPerInstance = 1;  // largest Mesh::primitiveCount
    uint32_t drawCapacity = 0;         // records per draw list; 0: maxInstances * maxDrawsPerInstance
    uint32_t framesInFlight = 2;
    VkExtent2D viewport{0, 0};  // extent of the host's depth attachment
    prim::PrimOptions scan;     // scan tier for the draw lists
};

struct CullingToggles {
    bool frustum = true;
    bool occlusion = true;
    bool twoPhase = true;
    bool lod = true;
    bool stable = true;             // false: atomic-append order (comparison only)
    bool freeze = false;            // keep the culling camera and the pyramid
    bool singleDispatchHiZ = true;  // false: one dispatch per mip
    int lodBias = 0;
    float lodThreshold = 1.0f;  // pixels
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
    gpu::DrawCounts early{};   // draw records of the early list
    gpu::DrawCounts late{};
    uint32_t draws() const { return early.count + late.count; }
    uint32_t overflow() const { return early.overflow + late.overflow; }
};

class CullingPlugin final : public Plugin {
public:
    // Slot names, for the host to alias or bind.
    static constexpr const char* kInstances = "scene.instances";    // imported
    static constexpr const char* kMeshes = "scene.meshes";          // imported
    static constexpr const char* kPrimitives = "scene.primitives";  // imported
    static constexpr const char* kDepth = "depth";                  // imported: the host's D32 depth
    static constexpr const char* kDrawsEarly = "draws.early";       // exported: read as indirect arguments
    static constexpr const char* kCountsEarly = "counts.early";
    static constexpr const char* kDrawsLate = "draws.late";
    static constexpr const char* kCountsLate = "counts.late";
    static constexpr const char* kPyramid = "hiz.pyramid";  // persistent, for debug views
    // Persistent, for debug views: u32 per instance, what the main view's test decided this frame
    // (shared/cull_state.h), written by cull.late.flag (cull.early.flag in single phase).
    static constexpr const char* kInstanceState = "cull.state";
    // Pass indices (passes() order). Hosts put draw.early after kEarlyCompact and draw.late after
    // kLateCompact.
    enum PassIndex : uint32_t { kEarlyFlag, kEarlyCompact, kHiZ, kLateFlag, kLateCompact, kStats, kPassCount };

    // Refuses a device without what culling needs (kCullingNeeds), naming each missing extension/feature.
    static Result<std::unique_ptr<CullingPlugin>> create(const DeviceInfo& dev, const CullingConfig& config);
    ~CullingPlugin() override;

    // The number of instances to cull this frame (at most maxInstances).
    Result<void> setInstanceCount(uint32_t n);
    // The camera to cull for, exactly as the host draws it. A projection or viewport the culling cannot
    // serve is refused here (and the previous view stays).
    Result<void> setView(const ViewDesc& view);
    CullingToggles& toggles();
    const CullingStats& stats() const;
    SlotId slot(std::string_view name) const;
    uint32_t drawCapacity() const;
    const CullingConfig& config() const;
    // The host's viewport changed: slot extents change, the host rebuilds its graph (and re-creates the
    // persistent slots, which the plugin initialises again on first use).
    Result<void> resize(VkExtent2D viewport);

    std::span<const SlotDesc> slots() const override;
    std::span<const PassDesc> passes() const override;
    Result<void> prepare(const FrameInfo& frame) override;
    Result<void> record(uint32_t pass, VkCommandBuffer cmd, const Bindings& b, const FrameInfo& frame) override;

    struct Impl;

private:
    explicit CullingPlugin(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace sieve
