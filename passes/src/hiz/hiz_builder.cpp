// The two Hi-Z builders: one dispatch per mip, or one dispatch for the whole pyramid.
#include <algorithm>
#include <bit>
#include <string>

#include "core/spirv_reflect.h"
#include "core/vk.h"
#include "hiz/hiz_shared.h"
#include "shared/hiz_bindings.h"
#include "sieve/barriers.h"
#include "sieve/hiz.h"
#include "sieve/spirv.h"

namespace sieve {

namespace {

// Mip `mip` written by compute storage stores -> read by the next dispatch's storage loads.
void mipWrittenToRead(VkCommandBuffer cmd, VkImage image, uint32_t mip) {
    imageBarrier(cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_SHADER_STORAGE_READ_BIT, VK_IMAGE_LAYOUT_GENERAL, mip, 1);
}

}  // namespace

VkExtent2D HiZBuilder::pyramidExtent(VkExtent2D depth) {
    return {depth.width ? std::bit_floor(depth.width) : 0, depth.height ? std::bit_floor(depth.height) : 0};
}

uint32_t HiZBuilder::mipCount(VkExtent2D pyramid) {
    const uint32_t m = std::max(pyramid.width, pyramid.height);
    return m ? uint32_t(std::bit_width(m)) : 0;  // floor(log2(m)) + 1
}

VkExtent2D HiZBuilder::mipExtent(VkExtent2D pyramid, uint32_t mip) {
    return {std::max(1u, pyramid.width >> mip), std::max(1u, pyramid.height >> mip)};
}

Result<HiZBuilder> HiZBuilder::create(const DeviceInfo& dev, std::span<const HiZSingleVariant> extraVariants) {
    HiZBuilder h;
    h.created_ = true;
    if (auto ok = take(NearestSampler::create(dev, "hiz nearest"), h.sampler_); !ok) return ok.error();

    if (auto ok = take(ComputePipeline::create(dev, {"hiz/depth_to_mip0.comp", sizeof(gpu::HiZReducePush)}), h.toMip0_);
        !ok)
        return ok.error();
    if (auto ok =
            take(ComputePipeline::create(dev, {"hiz/depth_to_mip0_ms.comp", sizeof(gpu::HiZReducePush)}), h.toMip0Ms_);
        !ok)
        return ok.error();
    if (auto ok = take(ComputePipeline::create(dev, {"hiz/reduce_mip.comp", sizeof(gpu::HiZReducePush)}), h.reduce_);
        !ok)
        return ok.error();

    if (singlePassFits(dev)) {
        std::vector<HiZSingleVariant> variants{kHiZSingleDefault, kHiZSinglePrevious};
        variants.insert(variants.end(), extraVariants.begin(), extraVariants.end());
        for (const HiZSingleVariant v : variants) {
            if (std::ranges::any_of(h.singlePass_, [&](const SinglePass& p) { return p.variant == v; })) continue;
            const uint32_t spec[3] = {uint32_t(v.mip0), uint32_t(v.stop), uint32_t(v.store0)};  // constant_id 0-2
            ComputePipelineDesc desc{"hiz/single_pass.comp", sizeof(gpu::HiZSinglePush)};
            desc.specialization = spec;
            auto single = ComputePipeline::create(dev, desc);
            if (!single) return single.error();
            h.singlePass_.push_back({v, std::move(single).value()});
        }
    }
    return h;
}

bool HiZBuilder::singlePassFits(const DeviceInfo& dev) {
    // The single-pass builder binds every mip at once: as many push descriptors as it declares. Where
    // any limit falls short (the Vulkan minimums are 4 storage images per stage, 16 KiB of shared memory
    // and 128 invocations), only the per-mip builder exists and the culling plugin builds with it.
    auto info = spirv::reflect(embeddedSpirv("hiz/single_pass.comp"));
    if (!info) return false;
    VkPhysicalDevicePushDescriptorPropertiesKHR push{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &push};
    vkGetPhysicalDeviceProperties2(dev.physical, &props);
    return push.maxPushDescriptors >= info->bindings.size() &&
           dev.limits.maxPerStageDescriptorStorageImages >= gpu::SIEVE_HIZ_MAX_MIPS &&
           dev.limits.maxComputeSharedMemorySize >= gpu::SIEVE_HIZ_SINGLE_SHARED_BYTES &&
           dev.limits.maxComputeWorkGroupInvocations >= gpu::SIEVE_HIZ_SINGLE_THREADS &&
           dev.limits.maxComputeWorkGroupSize[0] >= gpu::SIEVE_HIZ_SINGLE_THREADS;
}

bool HiZBuilder::singlePassServes(VkExtent2D depth, uint32_t samples) const {
    return singlePassSupported() && samples == 1 && mipCount(pyramidExtent(depth)) <= gpu::SIEVE_HIZ_MAX_MIPS;
}

Result<void> HiZBuilder::check(const HiZSource& depth, const HiZTarget& pyramid) const {
    if (!created_) return makeError(VK_ERROR_INITIALIZATION_FAILED, "HiZBuilder: not created");
    if (depth.extent.width == 0 || depth.extent.height == 0 || depth.extent.width > 65535 ||
        depth.extent.height > 65535)
        return makeError(VK_ERROR_FORMAT_NOT_SUPPORTED, "HiZBuilder: depth extent must be 1..65535 per side");
    if (!depth.view || !pyramid.image) return makeError(VK_ERROR_INITIALIZATION_FAILED, "HiZBuilder: null handle");
    if (depth.samples == 0 || depth.samples > 64 || !std::has_single_bit(depth.samples))
        return makeError(VK_ERROR_FORMAT_NOT_SUPPORTED, "HiZBuilder: depth sample count " +
                                                            std::to_string(depth.samples) +
                                                            " is not a Vulkan sample count (1, 2, 4 .. 64)");
    const uint32_t mips = mipCount(pyramidExtent(depth.extent));
    if (pyramid.mipViews.size() != mips)
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "HiZBuilder: the pyramid needs " + std::to_string(mips) +
                                                             " mip views, got " +
                                                             std::to_string(pyramid.mipViews.size()));
    return {};
}

Result<void> HiZBuilder::recordPerMip(VkCommandBuffer cmd, const HiZSource& depth, const HiZTarget& pyramid) const {
    if (auto r = check(depth, pyramid); !r) return r;
    ScopedLabel label(cmd, "hiz per-mip");
    const VkExtent2D base = pyramidExtent(depth.extent);
    const uint32_t mips = mipCount(base);
    gpu::HiZReducePush push{depth.extent.width, depth.extent.height, base.width, base.height};
    const ComputePipeline& toMip0 = depth.samples > 1 ? toMip0Ms_ : toMip0_;
    toMip0.dispatch(
        cmd,
        bindingsAt<gpu::SIEVE_HIZ_MIP0_BINDINGS>(
            {bindAt(gpu::SIEVE_HIZ_MIP0_DEPTH, Binding::sampled(depth.view, sampler_.handle(), depth.layout)),
             bindAt(gpu::SIEVE_HIZ_MIP0_DST, Binding::storageImage(pyramid.mipViews[0]))}),
        push, toMip0.groupsFor(base.width, 0), toMip0.groupsFor(base.height, 1));
    for (uint32_t m = 1; m < mips; ++m) {
        mipWrittenToRead(cmd, pyramid.image, m - 1);
        const VkExtent2D src = mipExtent(base, m - 1), dst = mipExtent(base, m);
        push = {src.width, src.height, dst.width, dst.height};
        reduce_.dispatch(cmd,
                         bindingsAt<gpu::SIEVE_HIZ_REDUCE_BINDINGS>(
                             {bindAt(gpu::SIEVE_HIZ_REDUCE_SRC, Binding::storageImage(pyramid.mipViews[m - 1])),
                              bindAt(gpu::SIEVE_HIZ_REDUCE_DST, Binding::storageImage(pyramid.mipViews[m]))}),
                         push, reduce_.groupsFor(dst.width, 0), reduce_.groupsFor(dst.height, 1));
    }
    return {};
}

Result<void> HiZBuilder::recordSingle(VkCommandBuffer cmd, const HiZSource& depth, const HiZTarget& pyramid,
                                      BufferRange counter, HiZSingleVariant variant) const {
    if (auto r = check(depth, pyramid); !r) return r;
    if (!singlePassSupported())
        return makeError(VK_ERROR_FEATURE_NOT_PRESENT,
                         "HiZBuilder: the single-pass builder needs 18 push descriptors, 16 storage images per stage, "
                         "18 KiB of shared memory and 256 invocations per workgroup");
    if (depth.samples > 1)
        return makeError(VK_ERROR_FEATURE_NOT_PRESENT,
                         "HiZBuilder: the single-pass builder reads single-sample depth; use recordPerMip for a "
                         "multisampled depth");
    const VkExtent2D base = pyramidExtent(depth.extent);
    const uint32_t mips = mipCount(base);
    if (mips > gpu::SIEVE_HIZ_MAX_MIPS)
        return makeError(VK_ERROR_FORMAT_NOT_SUPPORTED, "HiZBuilder: single-pass builder supports 16 mips at most");
    const auto found = std::ranges::find_if(singlePass_, [&](const SinglePass& p) { return p.variant == variant; });
    if (found == singlePass_.end())
        return makeError(VK_ERROR_FEATURE_NOT_PRESENT, "HiZBuilder: this single-pass variant was not created");
    const ComputePipeline& pipeline = found->pipeline;
    if (!counter.buffer || (counter.size != VK_WHOLE_SIZE && counter.size < counterBytes()))
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "HiZBuilder: counter buffer range too small");
    ScopedLabel label(cmd, "hiz single-pass");
    const uint32_t tilesX = (base.width + gpu::SIEVE_HIZ_TILE - 1) / gpu::SIEVE_HIZ_TILE;
    const uint32_t tilesY = (base.height + gpu::SIEVE_HIZ_TILE - 1) / gpu::SIEVE_HIZ_TILE;
    const gpu::HiZSinglePush push{
        depth.extent.width, depth.extent.height, base.width, base.height, mips, tilesX * tilesY, 0, 0};
    // Mips past the pyramid's top are never accessed; their bindings repeat the top mip's view so that
    // every declared binding holds a valid descriptor.
    BindingSet<gpu::SIEVE_HIZ_SINGLE_BINDINGS> set{};
    set[gpu::SIEVE_HIZ_SINGLE_DEPTH] = Binding::sampled(depth.view, sampler_.handle(), depth.layout);
    set[gpu::SIEVE_HIZ_SINGLE_COUNTER] = Binding::storage(counter);
    for (uint32_t m = 0; m < gpu::SIEVE_HIZ_MAX_MIPS; ++m)
        set[gpu::SIEVE_HIZ_SINGLE_MIPS + m] = Binding::storageImage(pyramid.mipViews[std::min(m, mips - 1)]);
    pipeline.dispatch(cmd, set, push, tilesX, tilesY);
    return {};
}

}  // namespace sieve
