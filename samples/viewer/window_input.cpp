#include "window_input.h"

#include <volk.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstdio>

namespace viewer {

CameraInput WindowInput::poll(bool uiWantsMouse, bool uiWantsKeyboard) {
    CameraInput in;
    if (!uiWantsKeyboard) {
        auto down = [&](int key) { return glfwGetKey(window_, key) == GLFW_PRESS; };
        in.forward = down(GLFW_KEY_W);
        in.back = down(GLFW_KEY_S);
        in.left = down(GLFW_KEY_A);
        in.right = down(GLFW_KEY_D);
        in.down = down(GLFW_KEY_Q);
        in.up = down(GLFW_KEY_E);
        in.fast = down(GLFW_KEY_LEFT_SHIFT) || down(GLFW_KEY_RIGHT_SHIFT);
    }
    // Action keys fire on the press, not while held.
    const int keys[3] = {GLFW_KEY_R, GLFW_KEY_P, GLFW_KEY_C};
    bool fired[3];
    for (int i = 0; i < 3; ++i) {
        const bool isDown = !uiWantsKeyboard && glfwGetKey(window_, keys[i]) == GLFW_PRESS;
        fired[i] = isDown && !wasDown_[i];
        wasDown_[i] = isDown;
    }
    actions_ = {fired[0], fired[1], fired[2]};
    double x = 0, y = 0;
    glfwGetCursorPos(window_, &x, &y);
    const bool pressed = glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
    // A drag that starts over the overlay belongs to the overlay until the button is released.
    if (pressed && !dragging_ && !uiWantsMouse) dragging_ = true;
    if (!pressed) dragging_ = false;
    if (dragging_) {
        in.lookDx = float(x - lastX_);
        in.lookDy = float(y - lastY_);
    }
    lastX_ = x;
    lastY_ = y;
    return in;
}

void ResizeSequence::tick() {
    if (done() || ++ticks_ % period_ != 0) return;
    if (next_ >= steps_.size() && !iconified_) return;  // waiting one period after the last step
    lastStepTick_ = ticks_;
    if (iconified_) {
        std::printf("test-resize-sequence: restore\n");
        glfwRestoreWindow(window_);
        iconified_ = false;
        return;
    }
    const WindowSize s = steps_[next_++];
    if (s.width < 0) {
        std::printf("test-resize-sequence: iconify\n");
        glfwIconifyWindow(window_);
        iconified_ = true;
    } else {
        std::printf("test-resize-sequence: %dx%d\n", s.width, s.height);
        glfwSetWindowSize(window_, s.width, s.height);
    }
    std::fflush(stdout);
}

}  // namespace viewer
