#pragma once
// Camera poses for scenes built here. Convention: right-handed, +Y up; yaw and pitch in radians.
// yaw = 0, pitch = 0 looks down -Z; positive yaw turns left (counter-clockwise seen from above, so
// yaw = +pi/2 looks down -X); positive pitch looks up.
//   forward = (-sin(yaw) cos(pitch), sin(pitch), -cos(yaw) cos(pitch))
// Roll turns the up vector about forward (right-handed); the base up is +Y, or the yaw direction when
// looking straight up or down.
#include <cstdint>
#include <glm/glm.hpp>
#include <string>

namespace sieve::assets {

struct CameraPose {
    glm::vec3 position{0.0f};
    float yaw = 0.0f;
    float pitch = 0.0f;
    float roll = 0.0f;
};

struct CameraPreset {
    std::string name;
    CameraPose pose;
};

glm::vec3 cameraForward(const CameraPose& pose);
// The pose's up vector (unit, perpendicular to forward), roll included.
glm::vec3 cameraUp(const CameraPose& pose);

// World-to-view matrix (right-handed, the camera looks down its -Z).
glm::mat4 viewMatrix(const CameraPose& pose);

// A pose at `position` looking at `target` (target must differ from position).
CameraPose lookAtPose(glm::vec3 position, glm::vec3 target);

// The pose of a camera whose orientation is the linear part of `cameraToWorld` (the glTF convention: it
// looks down its local -Z with +Y up; scale is ignored), at its translation.
CameraPose poseFromTransform(const glm::mat4& cameraToWorld);

// A camera of a glTF file, placed by a node of the scene.
struct SceneCamera {
    uint32_t index = 0;  // in the file's cameras array
    uint32_t node = 0;   // the first node of the scene that places it
    std::string name;
    bool orthographic = false;
    float yfov = 0.8f;               // perspective: vertical field of view (radians)
    float aspectRatio = 0.0f;        // perspective: 0 when the file gives none
    float xmag = 1.0f, ymag = 1.0f;  // orthographic: half width and half height of the view volume
    float znear = 0.1f;
    float zfar = 0.0f;  // 0: infinite (perspective only)
    CameraPose pose;
};

// Framing an axis-aligned box: the pose looking along (yaw, pitch) from which a camera of vertical field
// of view `fovY` and `aspect` sees all 8 corners, as close as that allows (with `margin` of the view
// left free at the tightest side), and its distance from the box's centre. A box with min > max (an empty
// scene) is framed as the unit cube at the origin.
struct Framing {
    CameraPose pose;
    float distance = 0.0f;  // from the centre
    float depthMin = 0.0f;  // the nearest corner's depth in front of the camera
};
Framing frameBounds(glm::vec3 boundsMin, glm::vec3 boundsMax, float fovY, float aspect, float yaw, float pitch,
                    float margin = 0.05f);

// The yaw and pitch the viewer frames scenes from: from the front right, a little above.
inline constexpr float kFramingYaw = 0.5235988f;     // 30 degrees
inline constexpr float kFramingPitch = -0.3926991f;  // -22.5 degrees

// One turn around the box's vertical axis through its centre, t in [0, 1] (0 and 1: the framing pose at
// kFramingYaw), at the largest framing distance of the turn so that the box stays in view throughout.
CameraPose orbitPose(glm::vec3 boundsMin, glm::vec3 boundsMax, float fovY, float aspect, float t);

}  // namespace sieve::assets
