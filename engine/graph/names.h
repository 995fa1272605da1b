#pragma once
// Short readable names of sync2 flags and layouts, for error messages and dumps.
#include <volk.h>

#include <string>

namespace engine::graph {

std::string stageNames(VkPipelineStageFlags2 stages);  // "COMPUTE_SHADER|DRAW_INDIRECT", "NONE"
std::string accessNames(VkAccessFlags2 access);        // "SHADER_STORAGE_WRITE", "NONE"
const char* layoutName(VkImageLayout layout);          // "SHADER_READ_ONLY_OPTIMAL"

}  // namespace engine::graph
