#pragma once
// The camera a run starts from and the path it flies. In order: --camera x,y,z,yaw,pitch; --camera-from-file
// [N] (glTF camera N of the file, perspective or orthographic, at its node's transform); otherwise the
// scene's own start (the city's street) or, for a glTF scene, a view that frames its bounds so that the
// scene fills the picture. --camera-path: the city's named paths, and "orbit" (one turn around the
// scene's bounds) for any scene. Near plane and speed follow the scene's size.
#include <optional>
#include <string>

#include "assets/camera.h"
#include "assets/expected.h"
#include "camera.h"
#include "options.h"
#include "scene_setup.h"

namespace viewer {

// Sets `camera` up for the run and returns a line saying what it is; an error for a file camera that
// the scene does not have. `aspect`: the first frame's width / height.
sieve::assets::Expected<std::string> setUpCamera(FlyCamera& camera, const LoadedScene& scene,
                                                 const ViewerOptions& options, float aspect);

// The names --camera-path accepts for this scene.
std::vector<std::string> cameraPathNames(const LoadedScene& scene);

// The pose at t in [0, 1] along the named path; none for a name the scene does not know.
std::optional<sieve::assets::CameraPose> cameraPathPose(const LoadedScene& scene, const std::string& name, float t,
                                                        const FlyCamera& camera, float aspect);

}  // namespace viewer
