#pragma once
// host2's second view: the city seen straight from above (orthographic, around the camera), culled by
// the same plugin as view 1 (frustum only) and drawn from its own stream into an inset in the top-right
// corner of the frame, on top of the camera's picture, with a depth image of its own.
#include <glm/glm.hpp>

#include "sieve/culling.h"

namespace host2 {

struct OverheadView {
    float halfSize = 60.0f;      // world units from the centre to each side of the square view
    float height = 400.0f;       // the eye above the camera's ground point
    float insetFraction = 0.3f;  // of the frame's height
    glm::mat4 view{1.0f}, proj{1.0f};

    // Follows the camera (its world-space position).
    void update(const glm::vec3& cameraPosition);
    // The plugin view: frustum test only, every instance, viewport = the inset's pixel extent.
    sieve::CullView cullView(VkExtent2D frame) const;
    // The inset's viewport in the frame (top-right corner, square).
    VkViewport viewport(VkExtent2D frame) const;
};

}  // namespace host2
