#include "camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "assets/camera.h"

namespace viewer {

glm::mat4 perspectiveReverseZInfinite(float fovYRadians, float aspect, float nearPlane) {
    const float f = 1.0f / std::tan(fovYRadians * 0.5f);
    glm::mat4 m(0.0f);  // glm is column-major: m[column][row]
    m[0][0] = f / aspect;
    m[1][1] = -f;         // Vulkan framebuffer Y points down
    m[2][3] = -1.0f;      // w_clip = -z_view (distance in front of the camera)
    m[3][2] = nearPlane;  // z_clip = near, so depth = near / distance: 1 at the near plane, 0 at infinity
    return m;
}

glm::mat4 orthographicReverseZ(float halfHeight, float aspect, float nearPlane, float farPlane) {
    glm::mat4 m(0.0f);
    m[0][0] = 1.0f / (halfHeight * aspect);
    m[1][1] = -1.0f / halfHeight;
    m[2][2] = 1.0f / (farPlane - nearPlane);  // depth = (far + z_view) / (far - near)
    m[3][2] = farPlane / (farPlane - nearPlane);
    m[3][3] = 1.0f;
    return m;
}

sieve::assets::CameraPose FlyCamera::pose() const {
    sieve::assets::CameraPose p;
    p.position = position;
    p.yaw = glm::radians(yawDeg);
    p.pitch = glm::radians(pitchDeg);
    p.roll = glm::radians(rollDeg);
    return p;
}

void FlyCamera::setPose(const sieve::assets::CameraPose& p) {
    position = p.position;
    yawDeg = glm::degrees(p.yaw);
    pitchDeg = glm::degrees(p.pitch);
    rollDeg = glm::degrees(p.roll);
}

glm::vec3 FlyCamera::forward() const {
    const float yaw = glm::radians(yawDeg), pitch = glm::radians(pitchDeg);
    return {-std::sin(yaw) * std::cos(pitch), std::sin(pitch), -std::cos(yaw) * std::cos(pitch)};
}

glm::vec3 FlyCamera::right() const {
    const float yaw = glm::radians(yawDeg);
    return {std::cos(yaw), 0.0f, -std::sin(yaw)};
}

glm::mat4 FlyCamera::view() const {
    return sieve::assets::viewMatrix(pose());
}

glm::mat4 FlyCamera::projection(float aspect) const {
    if (orthographic) return orthographicReverseZ(orthoHalfHeight, aspect, nearPlane, farPlane);
    return perspectiveReverseZInfinite(glm::radians(fovYDeg), aspect, nearPlane);
}

void FlyCamera::update(const CameraInput& in, float dt) {
    if (in.dragStarted) {
        dragYaw_ = yawDeg;
        dragPitch_ = pitchDeg;
    }
    if (in.dragging) {
        yawDeg = std::fmod(dragYaw_ - in.dragX * degreesPerPixel, 360.0f);  // drag right: turn right
        pitchDeg = std::clamp(dragPitch_ - in.dragY * degreesPerPixel, -89.0f, 89.0f);
    }
    glm::vec3 move(0.0f);
    if (in.forward) move += forward();
    if (in.back) move -= forward();
    if (in.right) move += right();
    if (in.left) move -= right();
    if (in.up) move.y += 1.0f;
    if (in.down) move.y -= 1.0f;
    if (glm::dot(move, move) > 0.0f) {
        position += glm::normalize(move) * speed * (in.fast ? 4.0f : 1.0f) * dt;
        position.y = std::max(position.y, groundY + minHeight);
    }
}

}  // namespace viewer
