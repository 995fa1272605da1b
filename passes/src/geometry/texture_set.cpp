#include "geometry/texture_set.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/vk.h"
#include "shared/material.h"

namespace sieve::geometry {

namespace {
constexpr uint32_t kTextures = gpu::SIEVE_MAX_TEXTURES;
}

Result<TextureSet> TextureSet::create(const DeviceInfo& dev, float maxAnisotropy, uint32_t slots) {
    const VkPhysicalDeviceLimits& l = dev.limits;
    // The fragment stage sees the array, the sampler and the colour attachment.
    if (l.maxPerStageDescriptorSampledImages < kTextures || l.maxDescriptorSetSampledImages < kTextures ||
        l.maxPerStageResources < kTextures + 2 || l.maxPerStageDescriptorSamplers < 1)
        return makeError(
            VK_ERROR_FEATURE_NOT_PRESENT,
            "GeometryPass (materials): the device's descriptor limits (maxPerStageDescriptorSampledImages " +
                std::to_string(l.maxPerStageDescriptorSampledImages) + ", maxPerStageResources " +
                std::to_string(l.maxPerStageResources) + ") cannot hold " + std::to_string(kTextures) + " textures");
    if (auto r = detail::checkDescribed(dev.device, nullptr, "GeometryPass (materials)"); !r) return r.error();
    TextureSet t;
    t.device_ = dev.device;
    t.allocator_ = dev.allocator;
    t.slots_ = slots;
    VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sampler.magFilter = sampler.minFilter = VK_FILTER_LINEAR;
    sampler.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
    sampler.addressModeU = sampler.addressModeV = sampler.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
    sampler.maxLod = VK_LOD_CLAMP_NONE;
    if (maxAnisotropy > 1.0f) {
        sampler.anisotropyEnable = VK_TRUE;
        sampler.maxAnisotropy = std::min(maxAnisotropy, l.maxSamplerAnisotropy);
    }
    SIEVE_VK_TRY(vkCreateSampler(dev.device, &sampler, dev.allocator, &t.sampler_));
    const VkDescriptorSetLayoutBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, kTextures, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}};
    VkDescriptorSetLayoutCreateInfo layout{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    layout.bindingCount = 2;
    layout.pBindings = bindings;
    SIEVE_VK_TRY(vkCreateDescriptorSetLayout(dev.device, &layout, dev.allocator, &t.layout_));
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_SAMPLER, 1},
                                          {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, kTextures}};
    VkDescriptorPoolCreateInfo pool{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pool.maxSets = 1;
    pool.poolSizeCount = 2;
    pool.pPoolSizes = sizes;
    SIEVE_VK_TRY(vkCreateDescriptorPool(dev.device, &pool, dev.allocator, &t.pool_));
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = t.pool_;
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &t.layout_;
    SIEVE_VK_TRY(vkAllocateDescriptorSets(dev.device, &alloc, &t.set_));
    return t;
}

Result<void> TextureSet::write(std::span<const VkImageView> views) {
    if (views.empty() || views.size() > slots_)
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "GeometryPass::setTextures: " + std::to_string(views.size()) +
                                                             " textures given, 1 to " + std::to_string(slots_) +
                                                             " fit (GeometryOptions::textureSlots; views[0] is the "
                                                             "white texture)");
    for (size_t i = 0; i < views.size(); ++i)
        if (views[i] == VK_NULL_HANDLE)
            return makeError(VK_ERROR_INITIALIZATION_FAILED,
                             "GeometryPass::setTextures: view " + std::to_string(i) + " is null");
    // Every slot is written: without descriptor indexing's partiallyBound, the whole array must be valid.
    std::vector<VkDescriptorImageInfo> images(kTextures);
    for (uint32_t i = 0; i < kTextures; ++i)
        images[i] = {VK_NULL_HANDLE, i < views.size() ? views[i] : views[0], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    const VkDescriptorImageInfo samplerInfo{sampler_, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED};
    VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET},
                                      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
    writes[0].dstSet = set_;
    writes[0].dstBinding = 0;
    writes[0].descriptorCount = 1;
    writes[0].descriptorType = VK_DESCRIPTOR_TYPE_SAMPLER;
    writes[0].pImageInfo = &samplerInfo;
    writes[1].dstSet = set_;
    writes[1].dstBinding = 1;
    writes[1].descriptorCount = kTextures;
    writes[1].descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    writes[1].pImageInfo = images.data();
    vkUpdateDescriptorSets(device_, 2, writes, 0, nullptr);
    written_ = true;
    return {};
}

TextureSet& TextureSet::operator=(TextureSet&& o) noexcept {
    if (this != &o) {
        reset();
        device_ = std::exchange(o.device_, VK_NULL_HANDLE);
        allocator_ = std::exchange(o.allocator_, nullptr);
        layout_ = std::exchange(o.layout_, VK_NULL_HANDLE);
        pool_ = std::exchange(o.pool_, VK_NULL_HANDLE);
        set_ = std::exchange(o.set_, VK_NULL_HANDLE);
        sampler_ = std::exchange(o.sampler_, VK_NULL_HANDLE);
        slots_ = std::exchange(o.slots_, 0u);
        written_ = std::exchange(o.written_, false);
    }
    return *this;
}

void TextureSet::reset() {
    if (!device_) return;
    if (pool_) vkDestroyDescriptorPool(device_, pool_, allocator_);  // frees the set
    if (layout_) vkDestroyDescriptorSetLayout(device_, layout_, allocator_);
    if (sampler_) vkDestroySampler(device_, sampler_, allocator_);
    device_ = VK_NULL_HANDLE;
    pool_ = VK_NULL_HANDLE;
    layout_ = VK_NULL_HANDLE;
    sampler_ = VK_NULL_HANDLE;
    set_ = VK_NULL_HANDLE;
    written_ = false;
}

}  // namespace sieve::geometry
