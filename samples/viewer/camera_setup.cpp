#include "camera_setup.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/gtc/constants.hpp>

#include "assets/procedural_city.h"

namespace viewer {

namespace {

std::string vec(glm::vec3 v) {
    char b[96];
    std::snprintf(b, sizeof(b), "(%.3g, %.3g, %.3g)", v.x, v.y, v.z);
    return b;
}

std::string describePose(const sieve::assets::CameraPose& p) {
    char b[128];
    std::snprintf(b, sizeof(b), "at %s, yaw %.1f, pitch %.1f, roll %.1f degrees", vec(p.position).c_str(),
                  glm::degrees(p.yaw), glm::degrees(p.pitch), glm::degrees(p.roll));
    return b;
}

// The scene's size sets how near the near plane may be and how fast the camera flies.
void fitToScene(FlyCamera& c, const LoadedScene& s, float distance) {
    if (s.procedural) return;  // the city's defaults fit it
    const glm::vec3 extent = s.boundsMax - s.boundsMin;
    const float size = extent.x >= 0.0f ? std::max({extent.x, extent.y, extent.z}) : 1.0f;
    c.nearPlane = std::clamp(0.01f * distance, 1e-4f, 0.1f);
    c.speed = std::max(0.25f * std::max(size, distance), 0.01f);
}

std::string fromFile(FlyCamera& c, const LoadedScene& s, int index, float aspect, std::string& error) {
    const std::vector<sieve::assets::SceneCamera>& cams = s.data.cameras;
    auto it = std::find_if(cams.begin(), cams.end(),
                           [&](const sieve::assets::SceneCamera& k) { return int(k.index) == index; });
    if (it == cams.end()) {
        error = "--camera-from-file " + std::to_string(index) + ": the scene has no camera " + std::to_string(index);
        if (cams.empty()) {
            error += " (it places no camera)";
        } else {
            error += " (cameras:";
            for (const auto& k : cams) error += " " + std::to_string(k.index);
            error += ")";
        }
        return {};
    }
    const sieve::assets::SceneCamera& k = *it;
    c.setPose(k.pose);
    c.nearPlane = k.znear;
    std::string what;
    if (k.orthographic) {
        c.orthographic = true;
        c.orthoHalfHeight = k.ymag;
        c.farPlane = k.zfar;
        char b[128];
        std::snprintf(b, sizeof(b), "orthographic, ymag %.3g (xmag %.3g from the window's aspect %.3g), z %.3g..%.3g",
                      k.ymag, k.ymag * aspect, aspect, k.znear, k.zfar);
        what = b;
    } else {
        c.fovYDeg = glm::degrees(k.yfov);
        char b[160];
        std::snprintf(b, sizeof(b), "perspective, yfov %.1f degrees, znear %.3g (far plane at infinity)",
                      glm::degrees(k.yfov), k.znear);
        what = b;
        if (k.aspectRatio > 0.0f && std::abs(k.aspectRatio - aspect) > 0.01f * aspect) {
            std::snprintf(b, sizeof(b), "; the file's aspect %.3g differs from the window's %.3g", k.aspectRatio,
                          aspect);
            what += b;
        }
    }
    c.speed = std::max(c.speed, 0.01f);
    return "camera " + std::to_string(k.index) + (k.name.empty() ? "" : " '" + k.name + "'") + " from the file (node " +
           std::to_string(k.node) + "): " + what + ", " + describePose(k.pose);
}

}  // namespace

sieve::assets::Expected<std::string> setUpCamera(FlyCamera& c, const LoadedScene& s, const ViewerOptions& o,
                                                 float aspect) {
    std::string line, notChosen;
    const size_t cameras = s.data.cameras.size();
    if (o.cameraFromFile >= 0) {
        std::string error;
        line = fromFile(c, s, o.cameraFromFile, aspect, error);
        if (!error.empty()) return sieve::assets::Unexpected{error};
        if (cameras > 1) notChosen = std::to_string(cameras - 1) + " other camera(s) of the file not chosen";
    } else {
        const auto framing = sieve::assets::frameBounds(s.boundsMin, s.boundsMax, glm::radians(c.fovYDeg), aspect,
                                                        sieve::assets::kFramingYaw, sieve::assets::kFramingPitch);
        c.setPose(s.procedural ? s.start : framing.pose);
        fitToScene(c, s, framing.depthMin);
        line = std::string(s.procedural ? "the city's street view" : "framing the scene's bounds") + ", " +
               describePose(c.pose());
        if (cameras > 0)
            notChosen = std::to_string(cameras) +
                        " camera(s) of the file not chosen (--camera-from-file N looks "
                        "through one)";
    }
    if (o.camera) {
        c.position = {o.camera->x, o.camera->y, o.camera->z};
        c.yawDeg = o.camera->yawDeg;
        c.pitchDeg = o.camera->pitchDeg;
        c.rollDeg = 0.0f;
        line = "--camera " + describePose(c.pose());
    }
    if (!notChosen.empty()) line += "\nwarning: " + notChosen;
    return "camera: " + line;
}

std::vector<std::string> cameraPathNames(const LoadedScene& s) {
    std::vector<std::string> names = {"orbit"};
    if (s.procedural)
        for (const std::string& n : sieve::assets::cameraPathNames()) names.push_back(n);
    return names;
}

std::optional<sieve::assets::CameraPose> cameraPathPose(const LoadedScene& s, const std::string& name, float t,
                                                        const FlyCamera& c, float aspect) {
    if (name == "orbit") return sieve::assets::orbitPose(s.boundsMin, s.boundsMax, glm::radians(c.fovYDeg), aspect, t);
    if (!s.procedural) return std::nullopt;
    return sieve::assets::cameraPath(s.data, name, t);
}

}  // namespace viewer
