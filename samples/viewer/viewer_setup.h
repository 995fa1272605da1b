#pragma once
// The viewer's start: a window where a display is present (otherwise headless), and the target frames
// are rendered into (the window's swapchain or an offscreen image).
#include <memory>

#include "engine/target/glfw_window.h"
#include "engine/target/headless_target.h"
#include "engine/target/window_target.h"
#include "engine/vk/context.h"
#include "options.h"

namespace viewer {

// A window unless --headless, no display, or GLFW fails (each said on stdout); null: headless.
std::unique_ptr<engine::GlfwWindow> openWindow(const ViewerOptions& options);

struct Targets {
    std::unique_ptr<engine::Target> target;
    engine::HeadlessTarget* headless = nullptr;  // the same object, where headless
    engine::WindowTarget* window = nullptr;      // ... where a window
};
sieve::Result<Targets> createTarget(engine::Context& ctx, engine::GlfwWindow* window, const ViewerOptions& options);

}  // namespace viewer
