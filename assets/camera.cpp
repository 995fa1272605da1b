#include "assets/camera.h"

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace sieve::assets {

glm::vec3 cameraForward(const CameraPose& p) {
    float cp = std::cos(p.pitch);
    return {-std::sin(p.yaw) * cp, std::sin(p.pitch), -std::cos(p.yaw) * cp};
}

glm::mat4 viewMatrix(const CameraPose& p) {
    glm::vec3 f = cameraForward(p);
    // Up stays +Y except straight up/down, where the yaw direction serves as up.
    glm::vec3 up = std::abs(f.y) > 0.9999f ? glm::vec3(-std::sin(p.yaw), 0.0f, -std::cos(p.yaw)) : glm::vec3(0, 1, 0);
    return glm::lookAtRH(p.position, p.position + f, up);
}

CameraPose lookAtPose(glm::vec3 position, glm::vec3 target) {
    glm::vec3 d = glm::normalize(target - position);
    CameraPose p;
    p.position = position;
    p.pitch = std::asin(glm::clamp(d.y, -1.0f, 1.0f));
    p.yaw = std::atan2(-d.x, -d.z);
    return p;
}

}  // namespace sieve::assets
