#pragma once
// A view as the host draws it: its matrices and the viewport it sets. The culling derives the frustum
// planes, the depth convention and the screen mapping from these; what it cannot serve it refuses.
#include <vulkan/vulkan.h>

#include "shared/common.h"

namespace sieve {

struct ViewDesc {
    gpu::mat4 view{1.0f};        // world -> view space, column-major
    gpu::mat4 projection{1.0f};  // view -> Vulkan clip space (z in [0, w]), column-major: perspective or
                                 // orthographic, finite or infinite far, standard or reverse Z, jittered
    VkViewport viewport{};       // as passed to vkCmdSetViewport when drawing the view: covers the depth
                                 // attachment; height may be negative (flipped y); minDepth/maxDepth any order
};

}  // namespace sieve
