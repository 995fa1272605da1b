#pragma once
// Facts about sync2 flags the graph checks declarations against, in one place.
#include <volk.h>

namespace engine::graph {

// The write bits of an access mask.
VkAccessFlags2 writeAccessBits(VkAccessFlags2 access);
// The read bits of an access mask.
inline VkAccessFlags2 readAccessBits(VkAccessFlags2 access) {
    return access & ~writeAccessBits(access);
}

// The bits of `access` that no stage of `stage` can perform (0 when all are fine). Access bits this table
// does not know are not reported.
VkAccessFlags2 accessUnsupportedByStages(VkPipelineStageFlags2 stage, VkAccessFlags2 access);

// Layouts in which nothing can write the image.
bool isReadOnlyLayout(VkImageLayout layout);

}  // namespace engine::graph
