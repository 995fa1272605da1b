#pragma once
// --camera-path played: headless, along the path by frame number (repeatable runs: the first frame at
// its start, the last at its end); in a window, by time, once (--camera-path-loop: again and again).
// Any camera input in a window (a movement key, a drag) stops it and the camera is the user's again
// from where the path left it; the end of the path does the same. label() says what plays.
#include <cstdint>
#include <string>

#include "camera.h"
#include "scene_setup.h"

namespace viewer {

struct CameraPathSettings {
    std::string name;       // empty: no path
    bool loop = false;      // window: start again at the end
    float seconds = 30.0f;  // window: the time one pass takes
    int frames = 0;         // headless: the run's frames (the path spans them)
};

class CameraPathPlayer {
public:
    CameraPathPlayer(const LoadedScene& scene, CameraPathSettings settings);
    // Poses `camera` for this frame (window: dt seconds after the last; headless: frame `frame`), unless the
    // path has ended or `input` took the camera back. Returns whether the path posed it.
    bool update(FlyCamera& camera, const CameraInput& input, bool window, float dt, uint64_t frame, float aspect);
    bool playing() const { return playing_; }
    // "camera path orbit: 12 s of 30 s (W/A/S/D or a drag takes the camera)"; empty when not playing.
    std::string label() const;

private:
    void stop(const char* why);
    const LoadedScene& scene_;
    CameraPathSettings settings_;
    bool playing_ = false;
    float elapsed_ = 0.0f;
    bool window_ = false;
    uint64_t frame_ = 0;
};

}  // namespace viewer
