#pragma once
// Cascaded shadow maps for a directional light: the camera's view range split into slices, each
// covered by an orthographic light view fitted to the slice and stretched towards the light over the
// whole scene, so that every caster between the light and the slice is inside the cascade's box.
// Each cascade is one culling-plugin view (frustum only, shadow casters only).
#include <glm/glm.hpp>
#include <span>
#include <string>
#include <vector>

#include "shared/scene.h"
#include "sieve/culling.h"

namespace engine {

struct CascadeSetup {
    glm::vec3 toLight{0.4f, 0.8f, 0.45f};  // world-space direction towards the light (any length)
    float fovY = 1.0f;                     // the camera's vertical field of view (radians)
    float aspect = 1.0f;
    float znear = 0.1f;
    float maxDistance = 200.0f;  // the last cascade ends here
    uint32_t count = 3;          // 1..4
    VkExtent2D mapExtent{1024, 1024};
    glm::vec3 sceneMin{0.0f}, sceneMax{0.0f};  // bounds of every caster
};

struct Cascade {
    glm::mat4 view{1.0f};  // world -> light view (rigid, looking down -Z towards the scene)
    glm::mat4 proj{1.0f};  // orthographic, reverse Z (1 at the light's side of the box, 0 at the far side)
    float splitNear = 0.0f, splitFar = 0.0f;  // camera distances the cascade covers
};

// The bounds of every instance's sphere (the casters a cascade must reach back to).
void casterBounds(std::span<const sieve::gpu::InstanceBounds> bounds, glm::vec3& lo, glm::vec3& hi);

// Practical split (half logarithmic, half uniform) of [znear, maxDistance] into `count` slices.
std::vector<float> cascadeSplits(const CascadeSetup& s);
std::vector<Cascade> fitCascades(const glm::mat4& cameraView, const CascadeSetup& s);
// The plugin view of cascade k: its matrices, the shadow map's viewport, frustum test only, shadow
// casters only, named "cascade k".
sieve::CullView cascadeView(const Cascade& c, uint32_t k, VkExtent2D mapExtent);

}  // namespace engine
