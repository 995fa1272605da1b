#pragma once
// The debug overlay: one ImGui window built from sections, each a function of the structs in
// frame_stats.h, so hosts can compose their own. Call between ImGuiLayer::newFrame and render.
//
// Layout: the main window is pinned at the top left, as tall as its open sections but never taller than
// the display (the pass table is the one scroll region and takes what is left); a bottom bar shows the
// last action's result and the frozen-culling banner. Every section collapses. Sizes follow the scale
// ImGuiLayer::newFrame was given; under OverlayPolicy::quarter the overlay stays within a quarter of
// the display and asks for a smaller scale (OverlayModel::fitScale) until it fits there.
#include "engine/ui/frame_stats.h"
#include "engine/ui/imgui_layer.h"

namespace engine::ui {

// The whole overlay: the "Sieve" window at the top left, the bottom bar, and the Hi-Z view at the top
// right when shown; returns what the user clicked and records where things went (model.layout).
OverlayActions drawOverlay(OverlayModel& model);
// newFrame + drawOverlay. Under OverlayPolicy::quarter (no interaction: headless) the layout is settled
// first, in up to a few discarded ImGui frames, so that even the first frame fits its quarter (ImGui
// sizes auto-resizing windows from the previous frame's contents).
OverlayActions newOverlayFrame(ImGuiLayer& layer, OverlayModel& model, VkExtent2D extent, float dtSeconds);

// Sections (inside an open ImGui window).
void drawFrameSection(const OverlayModel& model);  // frame time (plot), resolution, device
// Instance counts with their share of all instances, then draw records and triangles (no share), what
// each test culled and the false-culling check: the same lines whatever the switches (greyed where they
// do not apply), then the views table (binNames: the streams' bins).
void drawCountsSection(const sieve::CullingStats& counts, uint64_t triangles, const CullingSwitches& switches,
                       const std::vector<std::string>& binNames);
void drawViewsTable(const sieve::CullingStats& counts, const std::vector<std::string>& binNames);
// Per pass of the last frame, in its order: last, mean, plot, in a scroll region ending at most at screen
// y = maxScreenY.
// Passes named in `idle` do no work with the model's switches (idlePasses): greyed, "(off)".
// Where the table and each pass's row went goes to `layout` (when given).
void drawTimingsSection(const PassTimings& timings, float maxScreenY, const std::vector<std::string>& idle,
                        OverlayLayout* layout = nullptr);
std::vector<std::string> idlePasses(const OverlayModel& model);
// Cluster culling's counts, and the mesh path's mesh-primitives-generated query (absent: not counted).
void drawClusterCounts(const std::string& path, const sieve::ClusterStats& stats,
                       const std::optional<uint64_t>& meshPrimitives);
bool drawTogglesSection(CullingSwitches& switches);  // true when something changed
// off / culling / LOD / clusters, with a legend of two lines (clusters: the draws are cluster lists).
bool drawDebugViewSection(DebugView& view, bool clusters);
void drawHiZSection(HiZView& view);  // show, min/max, mip slider
// The image (with the frame's aspect), in its own window (top right); the texel under the cursor goes to
// view.probe and its readout, when the host has it, is shown below.
void drawHiZWindow(HiZView& view);
OverlayActions drawActionsSection(bool captureAvailable);  // screenshot, RenderDoc capture, reload shaders
// The pick window at the bottom right, above the bottom bar (closing it clears `pick`).
void drawPickWindow(std::optional<PickPanel>& pick, float bottomMargin);

}  // namespace engine::ui
