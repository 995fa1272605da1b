#include "auto_framing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace viewer {

namespace {

// Along one screen axis (camera axis `axis`, tangent `t` of the half field of view): the least distance D
// from which every corner lies within [a, b] of normalized device coordinates for some sideways offset s
// of the camera, and that offset (the middle of those that work). A corner q (relative to the centre;
// x along `axis`, z along the view) is seen at (x - s) / ((D + z) t), so a t (D + z) <= x - s <= b t (D + z):
// s >= max(x - b t z) - b t D and s <= min(x - a t z) - a t D, which meet from D = K / ((b - a) t).
struct AxisFit {
    float distance = 0.0f;
    float lowBase = 0.0f, highBase = 0.0f;  // max(x - b t z), min(x - a t z)
};

AxisFit fitAxis(const glm::vec3 corners[8], const glm::vec3& axis, const glm::vec3& forward, float t, float a,
                float b) {
    AxisFit f{0.0f, -1e30f, 1e30f};
    for (int k = 0; k < 8; ++k) {
        const float x = glm::dot(corners[k], axis), z = glm::dot(corners[k], forward);
        f.lowBase = std::max(f.lowBase, x - b * t * z);
        f.highBase = std::min(f.highBase, x - a * t * z);
    }
    f.distance = (f.lowBase - f.highBase) / ((b - a) * t);
    return f;
}

float offsetAt(const AxisFit& f, float t, float a, float b, float distance) {
    return 0.5f * ((f.lowBase - b * t * distance) + (f.highBase - a * t * distance));
}

}  // namespace

sieve::assets::Framing frameBoundsIn(glm::vec3 mn, glm::vec3 mx, float fovY, float aspect, float yaw, float pitch,
                                     const ScreenPart& part, float margin) {
    if (!(mn.x <= mx.x && mn.y <= mx.y && mn.z <= mx.z)) mn = glm::vec3(-0.5f), mx = glm::vec3(0.5f);
    sieve::assets::CameraPose p;
    p.yaw = yaw;
    p.pitch = pitch;
    const glm::vec3 f = sieve::assets::cameraForward(p), u = sieve::assets::cameraUp(p), r = glm::cross(f, u);
    const glm::vec3 c = (mn + mx) * 0.5f;
    glm::vec3 corners[8];
    for (int k = 0; k < 8; ++k)
        corners[k] = glm::vec3(k & 1 ? mx.x : mn.x, k & 2 ? mx.y : mn.y, k & 4 ? mx.z : mn.z) - c;
    // The part in normalized device coordinates, x right and y up, shrunk by the margin about its centre.
    const float keep = 1.0f - std::clamp(margin, 0.0f, 0.9f);
    const auto shrink = [&](float lo, float hi, float& a, float& b) {
        const float mid = 0.5f * (lo + hi), half = std::max(0.5f * (hi - lo) * keep, 1e-3f);
        a = mid - half;
        b = mid + half;
    };
    float ax, bx, ay, by;
    shrink(2.0f * part.x0 - 1.0f, 2.0f * part.x1 - 1.0f, ax, bx);
    shrink(1.0f - 2.0f * part.y1, 1.0f - 2.0f * part.y0, ay, by);
    const float ty = std::tan(fovY * 0.5f), tx = ty * aspect;
    const AxisFit fx = fitAxis(corners, r, f, tx, ax, bx), fy = fitAxis(corners, u, f, ty, ay, by);
    // A flat box seen edge-on needs no distance at all: keep it a little in front.
    const float distance = std::max({fx.distance, fy.distance, 1e-3f * std::max(glm::length(mx - mn), 1e-3f)});
    float depthMin = distance;
    for (const glm::vec3& q : corners) depthMin = std::min(depthMin, distance + glm::dot(q, f));
    p.position = c - f * distance + r * offsetAt(fx, tx, ax, bx, distance) + u * offsetAt(fy, ty, ay, by, distance);
    return {p, distance, depthMin};
}

std::vector<ScreenPart> freeParts(VkExtent2D extent, const engine::ui::UiRect& window, const engine::ui::UiRect& bar) {
    const float w = float(std::max(extent.width, 1u)), h = float(std::max(extent.height, 1u));
    const float bottom = bar.name.empty() ? 1.0f : std::clamp(bar.y0 / h, 0.05f, 1.0f);
    if (window.name.empty()) return {{0.0f, 0.0f, 1.0f, bottom}};
    std::vector<ScreenPart> parts;
    const float right = window.x1 / w, below = window.y1 / h;
    if (right < 0.9f) parts.push_back({right, 0.0f, 1.0f, bottom});
    if (below < bottom - 0.1f) parts.push_back({0.0f, below, 1.0f, bottom});
    if (parts.empty()) parts.push_back({0.0f, 0.0f, 1.0f, bottom});  // the overlay covers nearly everything
    return parts;
}

void AutoFraming::follow(FlyCamera& camera, float aspect, const std::vector<ScreenPart>& parts) {
    if (!on_ || parts.empty()) return;
    const sieve::assets::CameraPose now = camera.pose();
    if (last_ && (now.position != last_->position || now.yaw != last_->yaw || now.pitch != last_->pitch)) {
        on_ = false;  // moved: the camera is the user's from now on
        return;
    }
    std::optional<sieve::assets::Framing> best;
    ScreenPart chosen;
    for (const ScreenPart& part : parts) {
        const auto f = frameBoundsIn(min_, max_, glm::radians(camera.fovYDeg), aspect, sieve::assets::kFramingYaw,
                                     sieve::assets::kFramingPitch, part);
        if (!best || f.distance < best->distance) best = f, chosen = part;
    }
    camera.setPose(best->pose);
    last_ = camera.pose();
    if (!part_ || part_->x0 != chosen.x0 || part_->y0 != chosen.y0 || part_->x1 != chosen.x1 || part_->y1 != chosen.y1)
        std::printf(
            "camera: framing the scene's bounds in x %.2f..%.2f, y %.2f..%.2f of the picture (what the overlay "
            "leaves free)\n",
            chosen.x0, chosen.x1, chosen.y0, chosen.y1);
    part_ = chosen;
}

}  // namespace viewer
