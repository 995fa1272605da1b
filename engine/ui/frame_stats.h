#pragma once
// What the overlay shows and the stats JSON reports: plain structs the host fills every frame (the culling
// plugin's counts, read back k frames late, and per-pass GPU times from timestamp queries), plus the
// plugin's run-time toggles the overlay edits. The counts and toggles are the plugin's own types
// (sieve::CullingStats, sieve::CullingToggles). No ImGui in here.
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sieve/cluster.h"
#include "sieve/culling.h"

namespace engine::ui {

// A rolling window of samples (milliseconds): last value, mean over the window, and the window in time
// order for ImGui::PlotLines.
class RollingSeries {
public:
    static constexpr size_t kCapacity = 120;
    void add(float value);
    float last() const { return count_ ? samples_[(head_ + kCapacity - 1) % kCapacity] : 0.0f; }
    float average() const;
    float max() const;
    size_t size() const { return count_; }
    std::vector<float> ordered() const;  // oldest first

private:
    std::array<float, kCapacity> samples_{};
    size_t head_ = 0;  // next write position
    size_t count_ = 0;
};

// GPU time per pass. endFrame() after a frame's passes were added orders the entries as that frame
// reported them (its execution order) and marks the passes it did not report (switched off) as not
// current; they keep their history for when they run again.
class PassTimings {
public:
    void add(std::string_view pass, float ms);
    void endFrame();
    void clear() { entries_.clear(); }
    struct Entry {
        std::string name;
        RollingSeries ms;
        bool current = true;  // reported by the last frame
        uint32_t order = 0;   // position in the frame being reported
    };
    const std::vector<Entry>& entries() const { return entries_; }
    std::map<std::string, float> averages() const;  // name -> mean ms over the window
    float totalAverage() const;

private:
    std::vector<Entry> entries_;
    uint32_t reported_ = 0;  // passes added since the last endFrame
};

// A texel of the pyramid: mip, coordinates in that mip.
struct HiZTexel {
    int mip = 0;
    uint32_t x = 0, y = 0;
    bool operator==(const HiZTexel&) const = default;
};

// Which Hi-Z pyramid the overlay shows, and at which mip.
struct HiZView {
    bool show = false;
    bool showMax = false;  // false: min pyramid (farthest occluder depth with reverse-Z)
    int mip = 0;
    int mipCount = 0;                // 0: the host has no pyramid (the section says so)
    uint32_t width = 0, height = 0;  // extent of mip 0
    void* texture = nullptr;         // ImTextureID of the selected min/max mip (a VkImageView), set by the host
    float range = 100.0f;            // the distance shown black (the contrast slider)
    float nearPlane = 0.0f;          // set by the host: distance = nearPlane / depth (0: not a perspective)
    float aspect = 1.0f;             // set by the host: the frame's width / height, which the pyramid covers
    std::optional<HiZTexel> probe;   // written by the overlay: the texel under the cursor, if any
    // Set by the host from a readback: the probed texel's min and max depth.
    struct Readout {
        HiZTexel texel;
        uint32_t mipWidth = 0, mipHeight = 0;  // the extent of the texel's mip
        float min = 0.0f, max = 0.0f;
    };
    std::optional<Readout> readout;
};

// The LOD bias range of the overlay's slider and of the viewer's --lod-bias (in levels).
inline constexpr int kLodBiasMin = -8, kLodBiasMax = 8;

// Debug colouring of the scene (the viewer's --debug-view): culling tints each object by the phase that
// drew it and draws the bounds of culled objects; lod colours each object by the LOD it was drawn with.
enum class DebugView { Off, Culling, Lod, Clusters };
const char* debugViewName(DebugView v);  // "off", "culling", "lod", "clusters"

// Where the overlay put things last frame, in pixels of the display (for tests and the stats JSON).
struct UiRect {
    std::string name;
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool visible = false;  // not clipped away (ImGui::IsItemVisible) and not collapsed into its window
};
struct OverlayLayout {
    UiRect window;                 // the main "Sieve" window
    std::vector<UiRect> sections;  // each collapsing section's header
    std::vector<UiRect> controls;  // each checkbox, radio button, button and slider, by its label
    UiRect status;                 // the bottom bar (status line, frozen banner); empty name when not shown
    UiRect passTable;              // the GPU time table's scroll region (empty name: its section is closed)
    std::vector<UiRect> passRows;  // each pass's name cell, in the table's order (visible: not scrolled away)
    float scale = 1.0f;            // scale the overlay was drawn at (content scale x fit)
};

// How the overlay is sized: `contentScale` is the window's (GLFW content scale, 1 headless); `quarter`
// keeps it within a quarter of the display (headless screenshots), shrinking it to fit there.
struct OverlayPolicy {
    float contentScale = 1.0f;
    bool quarter = false;
};

// The pick window: why the picked instance was culled or drawn (the viewer's right click).
struct PickPanel {
    std::optional<uint32_t> instance;  // none: the sky
    std::string title;
    std::vector<std::string> lines;
    bool mismatch = false;    // the CPU reference and the GPU disagree
    std::vector<size_t> red;  // the lines that say so, or that the final depth shows an instance culled by occlusion
};

// Everything the overlay draws.
// The culling section's switches: the plugin's run-time toggles, the camera view's draw distance
// (sieve::CullView::drawDistance; 0: no limit) and the draw lists' order (sieve::CullingTuning::stable:
// a comparison the viewer offers, not a host's setting).
struct CullingSwitches {
    sieve::CullingToggles toggles;
    float drawDistance = 0.0f;
    bool stable = true;
};

struct OverlayModel {
    std::string deviceName;
    uint32_t width = 0, height = 0;
    RollingSeries frameMs;                 // CPU frame-to-frame time
    RollingSeries gpuFrameMs;              // GPU time of each frame's command buffer (timestamps), where timed
    sieve::CullingStats counts;            // valid = false while no culling plugin reports counts (the overlay says so)
    uint64_t triangles = 0;                // triangles drawn in the frame of `counts`, from `trianglesSource`
    std::string trianglesSource = "none";  // "draw_records" | "pipeline_statistics" | "none"
    std::optional<uint64_t> trianglesQuery;  // the pipeline-statistics count of that frame, where there is one
    PassTimings gpuTimes;
    CullingSwitches switches;  // what the overlay's culling section switches
    std::string clusterPath;   // "mesh" / "indirect" when the draws are cluster lists; "" without clusters
    sieve::ClusterStats clusters;
    // The mesh path's mesh-primitives-generated query of the frame of `counts` (engine::FrameCounts);
    // absent where the device does not count them or the path is not the mesh path.
    std::optional<uint64_t> meshPrimitives;
    HiZView hiz;
    bool captureAvailable = false;  // RenderDoc is loaded
    std::string status;             // last action's result ("screenshot written to ..."), in the bottom bar
    bool statusIsError = false;     // drawn in red (e.g. a shader compile error)
    DebugView debugView = DebugView::Off;
    std::vector<std::string> binNames;  // the draw streams' bins (opaque, mask, blend, ...), for the views table
    std::string cameraPathLabel;        // what camera path plays, in the bottom bar; empty: none
    int freezeWarmUp = 0;               // frames culled at the frozen camera before the freeze takes hold
    std::optional<PickPanel> pick;      // the last pick, shown in its own window until closed
    OverlayPolicy policy;
    OverlayLayout layout;  // written by drawOverlay
    // drawOverlay's own state under policy.quarter, carried between frames: the scale factor, and how many
    // of the sections counts, culling, GPU time (in that order) stay open.
    float fitScale = 1.0f;
    int quarterOpen = 3;
};

// What the user asked for this frame.
struct OverlayActions {
    bool togglesChanged = false;  // toggles or the debug view
    bool screenshot = false;
    bool capture = false;
    bool reloadShaders = false;
};

}  // namespace engine::ui
