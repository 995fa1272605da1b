#pragma once
// Camera poses for scenes built here. Convention: right-handed, +Y up; yaw and pitch in radians.
// yaw = 0, pitch = 0 looks down -Z; positive yaw turns left (counter-clockwise seen from above, so
// yaw = +pi/2 looks down -X); positive pitch looks up.
//   forward = (-sin(yaw) cos(pitch), sin(pitch), -cos(yaw) cos(pitch))
#include <glm/glm.hpp>
#include <string>

namespace sieve::assets {

struct CameraPose {
    glm::vec3 position{0.0f};
    float yaw = 0.0f;
    float pitch = 0.0f;
};

struct CameraPreset {
    std::string name;
    CameraPose pose;
};

glm::vec3 cameraForward(const CameraPose& pose);

// World-to-view matrix (right-handed, the camera looks down its -Z).
glm::mat4 viewMatrix(const CameraPose& pose);

// A pose at `position` looking at `target` (target must differ from position).
CameraPose lookAtPose(glm::vec3 position, glm::vec3 target);

}  // namespace sieve::assets
