#include "window_input.h"

#include <volk.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdio>

namespace viewer {

WindowInput::WindowInput(GLFWwindow* window) : window_(window) {
    // A key pressed and released between two polls still reads as pressed at the next poll (once), so
    // that a short tap at a few frames per second is not lost.
    glfwSetInputMode(window_, GLFW_STICKY_KEYS, GLFW_TRUE);
    // The same for mouse buttons: a right click (pick) shorter than a frame.
    glfwSetInputMode(window_, GLFW_STICKY_MOUSE_BUTTONS, GLFW_TRUE);
}

CameraInput WindowInput::poll(bool uiWantsMouse, bool uiWantsKeyboard) {
    CameraInput in;
    auto down = [&](int key) { return glfwGetKey(window_, key) == GLFW_PRESS; };
    if (!uiWantsKeyboard) {
        in.forward = down(GLFW_KEY_W);
        in.back = down(GLFW_KEY_S);
        in.left = down(GLFW_KEY_A);
        in.right = down(GLFW_KEY_D);
        in.down = down(GLFW_KEY_Q);
        in.up = down(GLFW_KEY_E);
        in.fast = down(GLFW_KEY_LEFT_SHIFT) || down(GLFW_KEY_RIGHT_SHIFT);
    }
    // Action keys fire on the press, not while held. Escape quits whatever ImGui is doing.
    const int keys[kActionKeys] = {GLFW_KEY_R, GLFW_KEY_P,  GLFW_KEY_C, GLFW_KEY_ESCAPE, GLFW_KEY_F,
                                   GLFW_KEY_O, GLFW_KEY_F1, GLFW_KEY_V, GLFW_KEY_H,      GLFW_KEY_SPACE,
                                   GLFW_KEY_N, GLFW_KEY_L,  GLFW_KEY_K};
    bool fired[kActionKeys];
    for (int i = 0; i < kActionKeys; ++i) {
        const bool isDown = (!uiWantsKeyboard || keys[i] == GLFW_KEY_ESCAPE) && down(keys[i]);
        fired[i] = isDown && !wasDown_[i];
        wasDown_[i] = isDown;
    }
    actions_ = {fired[0], fired[1], fired[2], fired[3],  fired[4],  fired[5] || fired[6],
                fired[7], fired[8], fired[9], fired[10], fired[11], fired[12]};

    double x = 0, y = 0;
    glfwGetCursorPos(window_, &x, &y);
    pollPickClick(x, y, uiWantsMouse);
    const bool pressed = glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
    // The press decides once who owns the drag until the release: the overlay (ImGui wants the mouse)
    // or the camera. The camera's drag is measured from where the press was first seen, never from an
    // older cursor position (a move followed by a click must not turn the camera).
    if (pressed && drag_ == Drag::None) {
        drag_ = uiWantsMouse ? Drag::Overlay : Drag::Camera;
        pressX_ = x;
        pressY_ = y;
        in.dragStarted = drag_ == Drag::Camera;
    }
    if (!pressed) drag_ = Drag::None;
    if (drag_ == Drag::Camera) {
        in.dragging = true;
        in.dragX = float(x - pressX_);
        in.dragY = float(y - pressY_);
    }
    return in;
}

void WindowInput::pollPickClick(double x, double y, bool uiWantsMouse) {
    const bool right = glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS;
    pickClick_.reset();
    if (right && !rightWasDown_ && !uiWantsMouse) {
        // Cursor positions are in screen coordinates; the framebuffer may be denser (content scale).
        int ww = 1, wh = 1, fw = 1, fh = 1;
        glfwGetWindowSize(window_, &ww, &wh);
        glfwGetFramebufferSize(window_, &fw, &fh);
        const int px = int(x * double(fw) / double(std::max(ww, 1))),
                  py = int(y * double(fh) / double(std::max(wh, 1)));
        if (px >= 0 && py >= 0 && px < fw && py < fh) pickClick_ = std::pair{px, py};
    }
    rightWasDown_ = right;
}

bool WindowInput::movesCamera(const CameraInput& in) {
    return in.forward || in.back || in.left || in.right || in.up || in.down || in.dragStarted || in.dragging;
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
