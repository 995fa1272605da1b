#pragma once
// What the viewer records into a frame until the render graph takes over: transitions of the target's
// colour and depth images into attachment layouts, and a clear of both (reverse-Z: depth cleared to 0).
#include <volk.h>

#include "engine/target/target.h"

namespace viewer {

inline constexpr VkClearColorValue kClearColor = {{0.08f, 0.10f, 0.14f, 1.0f}};

// Leaves colour in COLOR_ATTACHMENT_OPTIMAL and depth in DEPTH_ATTACHMENT_OPTIMAL, both last written at
// their attachment stages (the default engine::FrameEnd matches the colour state).
void recordClearPass(const engine::Frame& frame);

}  // namespace viewer
