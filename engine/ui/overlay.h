#pragma once
// The debug overlay: one ImGui window built from sections, each a function of the structs in
// frame_stats.h, so hosts can compose their own. Call between ImGuiLayer::newFrame and render.
#include "engine/ui/frame_stats.h"

namespace engine::ui {

// The whole overlay: the "Sieve" window at the top left (and the Hi-Z view at the top right when shown);
// returns what the user clicked.
OverlayActions drawOverlay(OverlayModel& model);

// Sections (inside an open ImGui window).
void drawFrameSection(const OverlayModel& model);                               // frame time (plot), resolution, device
void drawCountsSection(const sieve::CullingStats& counts, uint64_t triangles);  // instances ... overflow, shares
void drawClusterCounts(const std::string& path, const sieve::ClusterStats& stats);  // cluster culling's counts
void drawTimingsSection(const PassTimings& timings);                                // per pass: last, mean, plot
bool drawTogglesSection(sieve::CullingToggles& toggles);                            // true when something changed
void drawHiZSection(HiZView& view);                                                 // show, min/max, mip slider
void drawHiZWindow(const HiZView& view);                   // the image, in its own window (top right)
OverlayActions drawActionsSection(bool captureAvailable);  // screenshot, RenderDoc capture, reload shaders

}  // namespace engine::ui
