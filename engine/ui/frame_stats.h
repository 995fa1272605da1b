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

// GPU time per pass, in the order passes were first reported.
class PassTimings {
public:
    void add(std::string_view pass, float ms);
    void clear() { entries_.clear(); }
    struct Entry {
        std::string name;
        RollingSeries ms;
    };
    const std::vector<Entry>& entries() const { return entries_; }
    std::map<std::string, float> averages() const;  // name -> mean ms over the window
    float totalAverage() const;

private:
    std::vector<Entry> entries_;
};

// Which Hi-Z pyramid the overlay shows, and at which mip.
struct HiZView {
    bool show = false;
    bool showMax = false;  // false: min pyramid (farthest occluder depth with reverse-Z)
    int mip = 0;
    int mipCount = 0;                // 0: the host has no pyramid (the section says so)
    uint32_t width = 0, height = 0;  // extent of mip 0
    void* texture = nullptr;         // ImTextureID of the selected min/max mip (a VkImageView), set by the host
};

// Everything the overlay draws.
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
    sieve::CullingToggles toggles;
    HiZView hiz;
    bool captureAvailable = false;  // RenderDoc is loaded
    std::string status;             // last action's result ("screenshot written to ...")
    bool statusIsError = false;     // drawn in red (e.g. a shader compile error)
};

// What the user asked for this frame.
struct OverlayActions {
    bool togglesChanged = false;
    bool screenshot = false;
    bool capture = false;
    bool reloadShaders = false;
};

}  // namespace engine::ui
