#pragma once
// Reads what a frame slot's last frame measured once its fence has been waited for: the GPU time of each
// render-graph pass and of the overlay (in the order they ran), the frame's GPU time, and the culling
// counts and triangles, into the overlay's model.
#include <cstdint>

#include "engine/scene/scene_renderer.h"
#include "engine/ui/frame_stats.h"
#include "engine/vk/timestamps.h"
#include "run_report.h"

namespace viewer {

class FrameCollector {
public:
    FrameCollector(engine::GpuTimestamps& overlayTimer, FrameGpuTimer& frameTimer, engine::SceneRenderer& renderer,
                   engine::ui::OverlayModel& model)
        : overlayTimer_(overlayTimer), frameTimer_(frameTimer), renderer_(renderer), model_(model) {}
    void collect(uint32_t slot);

private:
    void readHiZProbe(uint32_t slot);
    engine::GpuTimestamps& overlayTimer_;
    FrameGpuTimer& frameTimer_;
    engine::SceneRenderer& renderer_;
    engine::ui::OverlayModel& model_;
};

}  // namespace viewer
