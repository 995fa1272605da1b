#include "camera_path_player.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "camera_setup.h"
#include "window_input.h"

namespace viewer {

CameraPathPlayer::CameraPathPlayer(const LoadedScene& scene, CameraPathSettings settings)
    : scene_(scene), settings_(std::move(settings)), playing_(!settings_.name.empty()) {}

void CameraPathPlayer::stop(const char* why) {
    playing_ = false;
    std::printf("camera path %s: %s, the camera is yours\n", settings_.name.c_str(), why);
    std::fflush(stdout);
}

bool CameraPathPlayer::update(FlyCamera& camera, const CameraInput& input, bool window, float dt, uint64_t frame,
                              float aspect) {
    if (!playing_) return false;
    window_ = window;
    frame_ = frame;
    float t = 0.0f;
    if (window) {
        if (WindowInput::movesCamera(input)) {
            stop("stopped by input");
            return false;
        }
        elapsed_ += dt;
        t = elapsed_ / settings_.seconds;
        if (settings_.loop) t = std::fmod(t, 1.0f);
    } else if (settings_.frames > 1) {
        t = float(frame) / float(settings_.frames - 1);
    }
    if (auto pose = cameraPathPose(scene_, settings_.name, std::min(t, 1.0f), camera, aspect)) camera.setPose(*pose);
    if (window && t >= 1.0f) stop("ended");
    return true;
}

std::string CameraPathPlayer::label() const {
    if (!playing_) return {};
    char text[200];
    if (!window_) {
        std::snprintf(text, sizeof(text), "camera path %s: frame %llu of %d", settings_.name.c_str(),
                      (unsigned long long)frame_ + 1, settings_.frames);
        return text;
    }
    std::snprintf(text, sizeof(text), "camera path %s%s: %.0f s of %.0f s (W/A/S/D/Q/E or a drag takes the camera)",
                  settings_.name.c_str(), settings_.loop ? " (looping)" : "", std::fmod(elapsed_, settings_.seconds),
                  double(settings_.seconds));
    return text;
}

}  // namespace viewer
