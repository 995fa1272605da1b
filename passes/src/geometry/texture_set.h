#pragma once
// The texture array of the default geometry pass's material mode: set 1 of its pipelines (binding 0 the
// one sampler, binding 1 SIEVE_MAX_TEXTURES sampled images; geometry/texture_array.h), in a descriptor
// set of its own pool. Too large to push (maxPushDescriptors may be 32), so it is a plain set, written
// once by setTextures while no frame uses it. Move-only; destroys what it created.
#include <vulkan/vulkan.h>

#include <span>

#include "sieve/device.h"
#include "sieve/result.h"

namespace sieve::geometry {

class TextureSet {
public:
    TextureSet() = default;
    // Refuses a device whose per-stage limits cannot hold the array beside the sampler and one colour
    // attachment. maxAnisotropy > 1 turns anisotropic filtering on (the host enabled samplerAnisotropy).
    // `slots`: how many views write() accepts (the array itself always has SIEVE_MAX_TEXTURES).
    static Result<TextureSet> create(const DeviceInfo& dev, float maxAnisotropy, uint32_t slots);
    TextureSet(TextureSet&& o) noexcept { *this = std::move(o); }
    TextureSet& operator=(TextureSet&& o) noexcept;
    TextureSet(const TextureSet&) = delete;
    TextureSet& operator=(const TextureSet&) = delete;
    ~TextureSet() { reset(); }

    Result<void> write(std::span<const VkImageView> views);
    bool written() const { return written_; }
    VkDescriptorSetLayout layout() const { return layout_; }
    VkDescriptorSet set() const { return set_; }

private:
    void reset();
    VkDevice device_ = VK_NULL_HANDLE;
    const VkAllocationCallbacks* allocator_ = nullptr;
    VkDescriptorSetLayout layout_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
    VkSampler sampler_ = VK_NULL_HANDLE;
    uint32_t slots_ = 0;
    bool written_ = false;
};

}  // namespace sieve::geometry
