#include "engine/target/glfw_window.h"

#include <volk.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstdlib>

namespace engine {

namespace {
std::string g_lastGlfwError;
void onGlfwError(int code, const char* text) {
    g_lastGlfwError = std::to_string(code) + ": " + (text ? text : "");
}
}  // namespace

bool GlfwWindow::displayPresent() {
    const char* x = std::getenv("DISPLAY");
    const char* w = std::getenv("WAYLAND_DISPLAY");
    return (x && *x) || (w && *w);
}

sieve::Result<std::unique_ptr<GlfwWindow>> GlfwWindow::create(int width, int height, const char* title) {
    glfwSetErrorCallback(onGlfwError);
    if (!glfwInit())
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "glfwInit failed (" + g_lastGlfwError + ")");
    if (!glfwVulkanSupported()) {
        glfwTerminate();
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "GLFW finds no Vulkan loader");
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    std::unique_ptr<GlfwWindow> w(new GlfwWindow());
    w->window_ = glfwCreateWindow(width, height, title, nullptr, nullptr);
    if (!w->window_) {
        glfwTerminate();
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "glfwCreateWindow failed (" + g_lastGlfwError + ")");
    }
    return w;
}

GlfwWindow::~GlfwWindow() {
    if (window_) glfwDestroyWindow(window_);
    glfwTerminate();
}

std::vector<const char*> GlfwWindow::requiredInstanceExtensions() const {
    uint32_t count = 0;
    const char** names = glfwGetRequiredInstanceExtensions(&count);
    return names ? std::vector<const char*>(names, names + count) : std::vector<const char*>{};
}

bool GlfwWindow::shouldClose() const {
    return glfwWindowShouldClose(window_);
}
void GlfwWindow::pollEvents() const {
    glfwPollEvents();
}

}  // namespace engine
