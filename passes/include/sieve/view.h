#pragma once
// What a host tells the culling about one view: its matrices and viewport exactly as it draws with them.
// The plugin derives everything else (projection kind, depth convention, frustum planes, y orientation;
// makeCullParams in passes/src/cull/cull_params.cpp of the source tree) and refuses, in
// CullingPlugin::setView / setViews, what it cannot cull correctly.
#include <vulkan/vulkan.h>

#include "shared/common.h"

namespace sieve {

struct ViewDesc {
    // World -> view space, column-major (view[c][r], as in shaders/shared). A rigid transform (rotation,
    // optionally a mirror, and translation): bounding spheres keep their radius in view space.
    gpu::mat4 view{1.0f};
    // View space -> Vulkan clip space (x, y in [-w, w], z in [0, w]), column-major. Supported:
    // - perspective: w = -z (right-handed, looking down -Z) or w = +z (left-handed), depth row
    //   (0, 0, P[2][2], P[3][2]) giving standard Z, reverse Z, finite or infinite far; off-centre or
    //   jitter terms in P[2][0], P[2][1];
    // - orthographic: w = 1, looking down orthographicForward (below); off-centre terms in P[3][0], P[3][1].
    // P[1][1] may have either sign. Rejected: x/y mixing, oblique depth rows, any other non-zero term.
    gpu::mat4 projection{1.0f};
    // The viewport the host draws this view with: it must cover the whole depth attachment the Hi-Z
    // pyramid is built from (x = 0, width = attachment width; y = 0, height = attachment height, or
    // y = height, height = -attachment height for a y-flipped viewport). minDepth/maxDepth in [0, 1],
    // different (minDepth 1, maxDepth 0 turns a standard-Z projection into reverse Z).
    VkViewport viewport{};
    // Orthographic projections only: the direction the view looks along in view space, -1 (down -Z:
    // right-handed, glm::ortho / orthoRH) or +1 (down +Z: left-handed, glm::orthoLH). An orthographic
    // matrix cannot say it (w = 1 either way), and the wrong one swaps standard and reverse Z, so a view
    // whose visible depth range would lie wholly behind the camera is rejected, naming this field.
    // Perspective views take the direction from w and ignore it.
    float orthographicForward = -1.0f;
};

}  // namespace sieve
