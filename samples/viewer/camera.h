#pragma once
// A fly camera. Right-handed, Y up; at yaw 0 and pitch 0 it looks down -Z; yaw is a right-handed rotation
// about +Y (yaw 90 looks down -X), pitch > 0 looks up (at most straight up or down,
// +-90 degrees), roll turns the view about its direction (assets/camera.h).
//
// Projection: reverse-Z, depth 1 at the near plane, so the depth test is GREATER_OR_EQUAL and depth is
// cleared to 0. Perspective: an infinite far plane (depth tends to 0 at infinity). Orthographic (a glTF
// camera): depth 0 at the far plane, orthoHalfHeight world units from the centre to the top of the view.
// Clip-space Y is flipped so that +Y (world up) is up on screen with Vulkan's downward framebuffer Y.
#include <glm/glm.hpp>

#include "assets/camera.h"

namespace viewer {

// One frame of input, independent of the windowing library.
struct CameraInput {
    bool forward = false, back = false, left = false, right = false, down = false, up = false;
    bool fast = false;
    // A look-around drag: started this frame (the camera remembers its angles), going on (the cursor is
    // dragX/dragY pixels from where the button went down: x right, y down), or neither.
    bool dragStarted = false;
    bool dragging = false;
    float dragX = 0, dragY = 0;
};

class FlyCamera {
public:
    glm::vec3 position{0.0f, 0.0f, 0.0f};
    float yawDeg = 0.0f;
    float pitchDeg = 0.0f;
    float speed = 10.0f;  // units per second (x4 with fast)
    float degreesPerPixel = 0.15f;
    float rollDeg = 0.0f;
    float fovYDeg = 60.0f;
    float nearPlane = 0.1f;
    // Moving never takes the camera below groundY + minHeight (it can start there: --camera).
    float groundY = 0.0f;
    float minHeight = 0.25f;
    bool orthographic = false;
    float orthoHalfHeight = 1.0f;
    float farPlane = 1000.0f;  // orthographic only

    sieve::assets::CameraPose pose() const;  // radians
    void setPose(const sieve::assets::CameraPose& pose);
    glm::vec3 forward() const;
    glm::vec3 right() const;  // horizontal
    glm::mat4 view() const;
    glm::mat4 projection(float aspect) const;  // reverse-Z (perspective: infinite far)
    // Angles follow a drag from where it started (so a slow frame never turns further than the cursor
    // went); movement is along the view (WASD) and world up/down (Q/E).
    void update(const CameraInput& input, float dtSeconds);

private:
    float dragYaw_ = 0.0f, dragPitch_ = 0.0f;  // angles when the current drag started
};

// Reverse-Z infinite perspective (right-handed view space, camera looks down -Z, Vulkan clip space).
glm::mat4 perspectiveReverseZInfinite(float fovYRadians, float aspect, float nearPlane);
// Reverse-Z orthographic: depth 1 at nearPlane, 0 at farPlane (> nearPlane); the view spans
// +-halfHeight vertically and +-halfHeight * aspect horizontally.
glm::mat4 orthographicReverseZ(float halfHeight, float aspect, float nearPlane, float farPlane);

}  // namespace viewer
