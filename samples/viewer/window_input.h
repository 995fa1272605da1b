#pragma once
// GLFW-side helpers of the viewer: camera input from keys and mouse drags, and the test-only resize driver.
#include <optional>
#include <utility>
#include <vector>

#include "camera.h"
#include "options.h"

struct GLFWwindow;

namespace viewer {

class WindowInput {
public:
    explicit WindowInput(GLFWwindow* window);  // turns on GLFW's sticky keys for the window
    // Input for this frame; keys/mouse that ImGui is using do not move the camera. The camera turns
    // only during a drag that started outside the overlay.
    CameraInput poll(bool uiWantsMouse, bool uiWantsKeyboard);
    // Keys that trigger an action once per press (sampled by poll): R reload shaders, P screenshot,
    // C RenderDoc capture, Escape quit, F freeze culling, O or F1 the overlay, V the next debug view,
    // H the Hi-Z view, Space pause, N one frame while paused, L shadows on/off, K clusters on/off.
    struct Actions {
        bool reloadShaders = false, screenshot = false, capture = false, quit = false;
        bool freeze = false, overlay = false, debugView = false, hiz = false, pause = false, step = false;
        bool shadows = false, clusters = false;
    };
    Actions actions() const { return actions_; }
    // A right click on the scene (not the overlay) in this poll: the pixel under the cursor (framebuffer
    // pixels), to pick.
    std::optional<std::pair<int, int>> pickClick() const { return pickClick_; }
    // Whether a camera key is held or a camera drag goes on (what takes the camera from a camera path).
    static bool movesCamera(const CameraInput& in);

private:
    static constexpr int kActionKeys = 13;
    void pollPickClick(double x, double y, bool uiWantsMouse);
    enum class Drag { None, Camera, Overlay };
    GLFWwindow* window_;
    Actions actions_;
    bool wasDown_[kActionKeys] = {};  // the action keys at the previous poll
    Drag drag_ = Drag::None;
    bool rightWasDown_ = false;
    std::optional<std::pair<int, int>> pickClick_;
    double pressX_ = 0, pressY_ = 0;  // cursor where the current drag started
};

// Drives --test-resize-sequence: every `period` loop iterations applies the next step (a size, or
// iconify; the step after an iconify restores first).
class ResizeSequence {
public:
    ResizeSequence(GLFWwindow* window, std::vector<WindowSize> steps, int period = 3)
        : window_(window), steps_(std::move(steps)), period_(period) {}
    void tick();
    // Done one period after the last step, so that the frames after it run at the final size.
    bool done() const { return next_ >= steps_.size() && !iconified_ && ticks_ >= lastStepTick_ + period_; }

private:
    GLFWwindow* window_;
    std::vector<WindowSize> steps_;
    int period_;
    int ticks_ = 0;
    int lastStepTick_ = 0;
    size_t next_ = 0;
    bool iconified_ = false;
};

}  // namespace viewer
