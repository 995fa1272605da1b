#pragma once
// GLFW initialisation and one window for Vulkan (no OpenGL context). Create it BEFORE the Vulkan
// context: the instance needs the surface extensions it reports.
#include <memory>
#include <string>
#include <vector>

#include "sieve/result.h"

struct GLFWwindow;

namespace engine {

class GlfwWindow {
public:
    // Fails (with a message) when there is no display or GLFW cannot initialise.
    static sieve::Result<std::unique_ptr<GlfwWindow>> create(int width, int height, const char* title);
    ~GlfwWindow();
    GlfwWindow(const GlfwWindow&) = delete;
    GlfwWindow& operator=(const GlfwWindow&) = delete;

    GLFWwindow* handle() const { return window_; }
    // Instance extensions for the surface (VK_KHR_surface + the platform's).
    std::vector<const char*> requiredInstanceExtensions() const;
    bool shouldClose() const;
    void pollEvents() const;

    // True when DISPLAY or WAYLAND_DISPLAY is set (a window can be tried).
    static bool displayPresent();

private:
    GlfwWindow() = default;
    GLFWwindow* window_ = nullptr;
};

}  // namespace engine
