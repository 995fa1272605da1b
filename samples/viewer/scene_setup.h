#pragma once
// Builds the scene the options ask for (procedural city, or a glTF file replicated on a grid) with
// progress on stdout, and the camera it starts from.
#include <string>

#include "assets/camera.h"
#include "assets/expected.h"
#include "assets/scene.h"
#include "options.h"

namespace viewer {

struct LoadedScene {
    sieve::assets::SceneData data;
    sieve::assets::CameraPose start;  // default camera (radians)
    // The box of the geometry (assets/scene_bounds.h), printed at load; the camera frames it.
    glm::vec3 boundsMin{1e30f}, boundsMax{-1e30f};
    bool procedural = true;
};

sieve::assets::Expected<LoadedScene> loadScene(const ViewerOptions& options);

}  // namespace viewer
