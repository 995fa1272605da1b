#include "sieve/gpu.h"

namespace sieve {

Result<void> loadVulkan(PFN_vkGetInstanceProcAddr getInstanceProcAddr, VkInstance instance, VkDevice device) {
    if (!getInstanceProcAddr) return makeError(VK_ERROR_INITIALIZATION_FAILED, "loadVulkan: no vkGetInstanceProcAddr");
    volkInitializeCustom(getInstanceProcAddr);
    volkLoadInstance(instance);
    volkLoadDevice(device);
    return {};
}

DeviceInfo describeDevice(VkPhysicalDevice physical, VkDevice device) {
    DeviceInfo info;
    info.physical = physical;
    info.device = device;
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
    vkGetPhysicalDeviceProperties2(physical, &props);
    info.limits = props.properties.limits;
    for (int i = 0; i < 3; ++i) info.maxComputeWorkGroupCount[i] = info.limits.maxComputeWorkGroupCount[i];
    info.subgroupSize = subgroup.subgroupSize;
    const bool compute = (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
    info.subgroupArithmetic = compute && (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
    info.subgroupBallot = compute && (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BALLOT_BIT);
    info.debugNames = vkSetDebugUtilsObjectNameEXT != nullptr;
    return info;
}

void setDebugName(const DeviceInfo& dev, VkObjectType type, uint64_t handle, const char* name) {
    if (!dev.debugNames || !handle || !name) return;
    VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    info.objectType = type;
    info.objectHandle = handle;
    info.pObjectName = name;
    vkSetDebugUtilsObjectNameEXT(dev.device, &info);
}

ScopedLabel::ScopedLabel(VkCommandBuffer cmd, const char* name) : cmd_(vkCmdBeginDebugUtilsLabelEXT ? cmd : nullptr) {
    if (!cmd_) return;
    VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
    label.pLabelName = name;
    vkCmdBeginDebugUtilsLabelEXT(cmd_, &label);
}

ScopedLabel::~ScopedLabel() {
    if (cmd_) vkCmdEndDebugUtilsLabelEXT(cmd_);
}

}  // namespace sieve
