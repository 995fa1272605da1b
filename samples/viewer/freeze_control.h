#pragma once
// The freeze of the culling camera as the viewer drives it. The plugin freezes the views and the Hi-Z
// pyramid of the last frame culled before the toggle, and that pyramid holds what the early phase drew:
// what the frame before it found visible. A plugin that has culled fewer than two frames at the camera
// (the first frames of a run, or a plugin recreated by a shader reload) has no pyramid worth keeping.
// So a freeze then waits: the frames are drawn and culled at the frozen camera, unfrozen, until two
// have been, and the plugin freezes from the next one; its camera and pyramid are then those a freeze at
// run time would have kept (--freeze on, and R while frozen).
#include <vulkan/vulkan.h>

#include <glm/glm.hpp>
#include <optional>

namespace viewer {

class FreezeControl {
public:
    static constexpr int kWarmUpFrames = 2;  // culled at the frozen camera before the plugin freezes
    // What one frame does: the camera it draws and culls with, and whether the plugin's freeze is on.
    struct Frame {
        glm::mat4 view{1.0f}, projection{1.0f};
        bool freeze = false;
    };
    // wanted: the user's freeze toggle; view/projection: the user's camera; extent: the frame's. Call once
    // per frame recorded.
    Frame next(bool wanted, const glm::mat4& view, const glm::mat4& projection, VkExtent2D extent);
    // The plugin was recreated (shader reload): its frozen camera and pyramid are gone.
    void pluginRecreated() { culledHere_ = 0; }
    // The culling camera a frozen frame culls with: the last one culled unfrozen.
    struct Camera {
        glm::mat4 view, projection;
    };
    const std::optional<Camera>& frozenCamera() const { return last_; }
    // Frames the freeze still waits for (0: frozen, or not wanted).
    int warmUpLeft() const { return wanted_ && culledHere_ < kWarmUpFrames ? kWarmUpFrames - culledHere_ : 0; }

private:
    std::optional<Camera> last_;  // the camera of the last frame culled unfrozen
    int culledHere_ = 0;          // frames culled unfrozen at last_'s camera in a row (plugin's lifetime)
    bool wanted_ = false;
    VkExtent2D extent_{0, 0};
};

}  // namespace viewer
