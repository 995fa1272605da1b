#pragma once
// The camera that frames a glTF scene's bounds (no --camera, no file camera) frames them in the part of
// the picture the overlay leaves free: the bounds' projection stays off the overlay's main window and its
// bottom bar. The overlay's size is known once it has been drawn, so the framing follows the overlay's
// rectangles frame by frame (sections opened, the overlay hidden, a resize) until the camera is moved by
// anything else (input, a camera path): from then on the camera is the user's.
#include <vulkan/vulkan.h>

#include <glm/glm.hpp>
#include <optional>
#include <vector>

#include "assets/camera.h"
#include "camera.h"
#include "engine/ui/frame_stats.h"

namespace viewer {

// A part of the picture, as fractions of its width and height (x right, y down).
struct ScreenPart {
    float x0 = 0.0f, y0 = 0.0f, x1 = 1.0f, y1 = 1.0f;
};

// The pose looking along (yaw, pitch) from which a perspective camera (vertical field of view `fovY`,
// `aspect`) sees the box's 8 corners inside `part` (shrunk by `margin` of its size about its centre), as
// close as that allows: the camera moves sideways as well as back. Its distance along the view from the
// box's centre in `distance`.
sieve::assets::Framing frameBoundsIn(glm::vec3 boundsMin, glm::vec3 boundsMax, float fovY, float aspect, float yaw,
                                     float pitch, const ScreenPart& part, float margin = 0.05f);

// The parts of an extent that the overlay's main window and bottom bar (pixels; an empty name: not shown)
// leave free: the strip right of the window and the strip below it, both above the bottom bar; the whole
// picture above the bar without a window.
std::vector<ScreenPart> freeParts(VkExtent2D extent, const engine::ui::UiRect& window,
                                  const engine::ui::UiRect& bottomBar);

class AutoFraming {
public:
    AutoFraming() = default;
    // Frames `bounds` from the viewer's framing angles; `on`: the run's camera is this framing.
    AutoFraming(bool on, glm::vec3 boundsMin, glm::vec3 boundsMax) : on_(on), min_(boundsMin), max_(boundsMax) {}
    // Before the frame moves the camera: frames the bounds into whichever of `parts` gets them closest,
    // unless the camera was moved since the last framing (then never again).
    void follow(FlyCamera& camera, float aspect, const std::vector<ScreenPart>& parts);
    bool on() const { return on_; }

private:
    bool on_ = false;
    glm::vec3 min_{0.0f}, max_{0.0f};
    std::optional<sieve::assets::CameraPose> last_;  // the pose the last framing set
    std::optional<ScreenPart> part_;                 // the part it framed in
};

}  // namespace viewer
