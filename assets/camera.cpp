#include "assets/camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace sieve::assets {

namespace {

constexpr float kTau = 6.28318531f;

// Up before roll: +Y, or the yaw direction when looking straight up or down.
glm::vec3 baseUp(const CameraPose& p, glm::vec3 f) {
    glm::vec3 y(0, 1, 0);
    // Looking down, the heading is at the top of the view; looking up, at the bottom (as pitch tends there).
    if (std::abs(f.y) > 0.9999f) y = glm::vec3(-std::sin(p.yaw), 0.0f, -std::cos(p.yaw)) * (f.y > 0 ? -1.0f : 1.0f);
    glm::vec3 r = glm::normalize(glm::cross(f, y));
    return glm::cross(r, f);
}

bool emptyBox(glm::vec3 mn, glm::vec3 mx) {
    return !(mn.x <= mx.x && mn.y <= mx.y && mn.z <= mx.z);
}

}  // namespace

glm::vec3 cameraForward(const CameraPose& p) {
    float cp = std::cos(p.pitch);
    return {-std::sin(p.yaw) * cp, std::sin(p.pitch), -std::cos(p.yaw) * cp};
}

glm::vec3 cameraUp(const CameraPose& p) {
    const glm::vec3 f = cameraForward(p), u0 = baseUp(p, f);
    return u0 * std::cos(p.roll) + glm::cross(f, u0) * std::sin(p.roll);
}

glm::mat4 viewMatrix(const CameraPose& p) {
    glm::vec3 f = cameraForward(p);
    return glm::lookAtRH(p.position, p.position + f, cameraUp(p));
}

CameraPose lookAtPose(glm::vec3 position, glm::vec3 target) {
    glm::vec3 d = glm::normalize(target - position);
    CameraPose p;
    p.position = position;
    p.pitch = std::asin(glm::clamp(d.y, -1.0f, 1.0f));
    p.yaw = std::atan2(-d.x, -d.z);
    return p;
}

CameraPose poseFromTransform(const glm::mat4& m) {
    const glm::vec3 f = glm::normalize(-glm::vec3(m[2])), upFile = glm::vec3(m[1]);
    CameraPose p;
    p.position = glm::vec3(m[3]);
    p.pitch = std::asin(glm::clamp(f.y, -1.0f, 1.0f));
    if (std::abs(f.y) > 0.9999f) {
        // Straight up or down: yaw is the heading of the camera's up (down) vector, roll 0.
        const glm::vec3 h = upFile * (f.y > 0 ? -1.0f : 1.0f);
        p.yaw = std::atan2(-h.x, -h.z);
    } else {
        p.yaw = std::atan2(-f.x, -f.z);
    }
    const glm::vec3 u0 = baseUp(p, cameraForward(p));
    p.roll = std::atan2(glm::dot(glm::cross(f, u0), upFile), glm::dot(u0, upFile));
    return p;
}

Framing frameBounds(glm::vec3 mn, glm::vec3 mx, float fovY, float aspect, float yaw, float pitch, float margin) {
    if (emptyBox(mn, mx)) mn = glm::vec3(-0.5f), mx = glm::vec3(0.5f);
    CameraPose p;
    p.yaw = yaw;
    p.pitch = pitch;
    const glm::vec3 f = cameraForward(p), u = cameraUp(p), r = glm::cross(f, u);
    const float scale = 1.0f - std::clamp(margin, 0.0f, 0.9f);
    const float ty = std::tan(fovY * 0.5f) * scale, tx = ty * aspect;
    const glm::vec3 c = (mn + mx) * 0.5f;
    // A corner q (relative to the centre, in the camera's basis x, y, z along r, u, f) is in view from
    // distance D when |x| <= (D + z) tx and |y| <= (D + z) ty.
    float distance = 0.0f;
    for (int k = 0; k < 8; ++k) {
        const glm::vec3 q = glm::vec3(k & 1 ? mx.x : mn.x, k & 2 ? mx.y : mn.y, k & 4 ? mx.z : mn.z) - c;
        const float x = glm::dot(q, r), y = glm::dot(q, u), z = glm::dot(q, f);
        distance = std::max({distance, std::abs(x) / tx - z, std::abs(y) / ty - z});
    }
    // A flat box seen edge-on needs no distance at all: keep it a little in front.
    distance = std::max(distance, 1e-3f * std::max(glm::length(mx - mn), 1e-3f));
    float depthMin = distance;
    for (int k = 0; k < 8; ++k) {
        const glm::vec3 q = glm::vec3(k & 1 ? mx.x : mn.x, k & 2 ? mx.y : mn.y, k & 4 ? mx.z : mn.z) - c;
        depthMin = std::min(depthMin, distance + glm::dot(q, f));
    }
    p.position = c - f * distance;
    return {p, distance, depthMin};
}

CameraPose orbitPose(glm::vec3 mn, glm::vec3 mx, float fovY, float aspect, float t) {
    if (!std::isfinite(t)) t = 0.0f;
    if (emptyBox(mn, mx)) mn = glm::vec3(-0.5f), mx = glm::vec3(0.5f);
    // The box turns under the camera: the distance that frames it from every heading (sampled finely;
    // the distance varies smoothly with the heading) keeps it in view all the way round.
    float distance = 0.0f;
    for (int k = 0; k < 64; ++k)
        distance = std::max(
            distance, frameBounds(mn, mx, fovY, aspect, kFramingYaw + kTau * float(k) / 64.0f, kFramingPitch).distance);
    CameraPose p;
    p.yaw = kFramingYaw + kTau * (t - std::floor(t));
    p.pitch = kFramingPitch;
    p.position = (mn + mx) * 0.5f - cameraForward(p) * distance;
    return p;
}

}  // namespace sieve::assets
