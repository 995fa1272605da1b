// The two flag dispatches (early and late phase) of the culling plugin.
#include "sieve/cull_flags.h"

namespace sieve {

namespace {
constexpr VkDescriptorType kEarlyBindings[] = {
    VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
constexpr VkDescriptorType kLateBindings[] = {
    VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
constexpr uint32_t kGroupSize = 64;  // local_size_x of flag.glsl
}  // namespace

Result<CullFlagPass> CullFlagPass::create(const DeviceInfo& dev) {
    if (!dev.subgroupBallot)
        return makeError(VK_ERROR_FEATURE_NOT_PRESENT, "CullFlagPass: needs subgroup ballot in compute shaders");
    CullFlagPass p;
    p.device_ = dev.device;
    VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    si.magFilter = VK_FILTER_NEAREST;
    si.minFilter = VK_FILTER_NEAREST;
    si.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    si.maxLod = VK_LOD_CLAMP_NONE;
    SIEVE_VK_TRY(vkCreateSampler(dev.device, &si, nullptr, &p.sampler_));
    setDebugName(dev, VK_OBJECT_TYPE_SAMPLER, p.sampler_, "cull pyramid nearest");
    auto early = ComputePipeline::create(dev, {"cull/flag_early.comp", kEarlyBindings, 0});
    if (!early) return early.error();
    p.early_ = std::move(early).value();
    auto late = ComputePipeline::create(dev, {"cull/flag_late.comp", kLateBindings, 0});
    if (!late) return late.error();
    p.late_ = std::move(late).value();
    return p;
}

CullFlagPass& CullFlagPass::operator=(CullFlagPass&& o) noexcept {
    if (this != &o) {
        destroy();
        device_ = o.device_;
        sampler_ = o.sampler_;
        early_ = std::move(o.early_);
        late_ = std::move(o.late_);
        o.device_ = VK_NULL_HANDLE;
        o.sampler_ = VK_NULL_HANDLE;
    }
    return *this;
}

CullFlagPass::~CullFlagPass() {
    destroy();
}

void CullFlagPass::destroy() {
    if (device_ && sampler_) vkDestroySampler(device_, sampler_, nullptr);
    device_ = VK_NULL_HANDLE;
    sampler_ = VK_NULL_HANDLE;
}

void CullFlagPass::recordEarly(VkCommandBuffer cmd, const CullPhaseBuffers& b, uint32_t instanceCount) const {
    if (!instanceCount) return;
    ScopedLabel label(cmd, "cull flags early");
    early_.dispatchLinear(cmd,
                          {Binding::uniform(b.params), Binding::storage(b.instances), Binding::storage(b.meshes),
                           Binding::storage(b.primitives), Binding::storage(b.visibleLast), Binding::storage(b.flags),
                           Binding::storage(b.drawCounts), Binding::storage(b.lods), Binding::storage(b.counters)},
                          nullptr, 0, (instanceCount + kGroupSize - 1) / kGroupSize);
}

void CullFlagPass::recordLate(VkCommandBuffer cmd, const CullPhaseBuffers& b, BufferRange flagsEarly,
                              VkImageView pyramid, VkImageLayout pyramidLayout, uint32_t instanceCount) const {
    if (!instanceCount) return;
    ScopedLabel label(cmd, "cull flags late");
    late_.dispatchLinear(cmd,
                         {Binding::uniform(b.params), Binding::storage(b.instances), Binding::storage(b.meshes),
                          Binding::storage(b.primitives), Binding::storage(b.visibleLast), Binding::storage(b.flags),
                          Binding::storage(b.drawCounts), Binding::storage(b.lods), Binding::storage(b.counters),
                          Binding::storage(flagsEarly), Binding::sampled(pyramid, sampler_, pyramidLayout)},
                         nullptr, 0, (instanceCount + kGroupSize - 1) / kGroupSize);
}

}  // namespace sieve
