#include "viewer_setup.h"

#include <cstdio>

namespace viewer {

std::unique_ptr<engine::GlfwWindow> openWindow(const ViewerOptions& opt) {
    if (opt.headless) return nullptr;
    if (!engine::GlfwWindow::displayPresent()) {
        std::printf("no display (DISPLAY/WAYLAND_DISPLAY unset): falling back to headless\n");
        return nullptr;
    }
    auto w = engine::GlfwWindow::create(opt.width, opt.height, "Sieve");
    if (w) return std::move(w).value();
    std::printf("cannot open a window (%s): falling back to headless\n", w.error().message.c_str());
    return nullptr;
}

sieve::Result<Targets> createTarget(engine::Context& ctx, engine::GlfwWindow* window, const ViewerOptions& opt) {
    Targets out;
    if (!window) {
        engine::HeadlessTargetDesc hd;
        hd.extent = {uint32_t(opt.width), uint32_t(opt.height)};
        auto t = engine::HeadlessTarget::create(ctx, hd);
        if (!t) return t.error();
        out.headless = t.value().get();
        out.target = std::move(t).value();
    } else {
        auto t = engine::WindowTarget::create(ctx, *window);
        if (!t) return t.error();
        out.window = t.value().get();
        out.target = std::move(t).value();
    }
    return out;
}

}  // namespace viewer
