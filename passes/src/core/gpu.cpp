#include "sieve/gpu.h"

#include "core/vk.h"

namespace sieve {

void setDebugName(const DeviceInfo& dev, VkObjectType type, uint64_t handle, const char* name) {
    if (!dev.debugNames || !handle || !name) return;
    VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    info.objectType = type;
    info.objectHandle = handle;
    info.pObjectName = name;
    vkSetDebugUtilsObjectNameEXT(dev.device, &info);
}

Result<NearestSampler> NearestSampler::create(const DeviceInfo& dev, const char* name) {
    if (auto r = detail::checkDescribed(dev.device, nullptr, "NearestSampler"); !r) return r.error();
    NearestSampler s;
    s.device_ = dev.device;
    s.allocator_ = dev.allocator;
    VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    si.magFilter = VK_FILTER_NEAREST;
    si.minFilter = VK_FILTER_NEAREST;
    si.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    si.maxLod = VK_LOD_CLAMP_NONE;
    SIEVE_VK_TRY(vkCreateSampler(dev.device, &si, dev.allocator, &s.sampler_));
    setDebugName(dev, VK_OBJECT_TYPE_SAMPLER, s.sampler_, name);
    return s;
}

NearestSampler& NearestSampler::operator=(NearestSampler&& o) noexcept {
    if (this != &o) {
        if (sampler_) vkDestroySampler(device_, sampler_, allocator_);
        device_ = std::exchange(o.device_, VK_NULL_HANDLE);
        allocator_ = std::exchange(o.allocator_, nullptr);
        sampler_ = std::exchange(o.sampler_, VK_NULL_HANDLE);
    }
    return *this;
}

NearestSampler::~NearestSampler() {
    if (sampler_) vkDestroySampler(device_, sampler_, allocator_);
}

ScopedLabel::ScopedLabel(VkCommandBuffer cmd, const char* name)
    : cmd_(detail::hasFunction(cmd, &detail::DeviceTable::vkCmdBeginDebugUtilsLabelEXT) ? cmd : nullptr) {
    if (!cmd_) return;
    VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
    label.pLabelName = name;
    vkCmdBeginDebugUtilsLabelEXT(cmd_, &label);
}

ScopedLabel::~ScopedLabel() {
    if (cmd_) vkCmdEndDebugUtilsLabelEXT(cmd_);
}

}  // namespace sieve
