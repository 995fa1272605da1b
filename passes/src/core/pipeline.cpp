#include "sieve/pipeline.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <utility>
#include <vector>

#include "core/spirv_reflect.h"
#include "core/vk.h"
#include "sieve/spirv.h"

namespace sieve {

namespace {
std::atomic<uint32_t> g_maxGroupsOverride{0};
}

uint32_t fittedGroupSize(const DeviceInfo& dev, uint32_t wanted) {
    const uint32_t limit =
        std::min({wanted, dev.limits.maxComputeWorkGroupInvocations, dev.limits.maxComputeWorkGroupSize[0]});
    return limit ? std::bit_floor(limit) : 1u;
}

void overrideMaxGroupsX(uint32_t limit) {
    g_maxGroupsOverride = limit;
}

namespace {

// The device limits a compute shader must fit, checked before Vulkan sees it: a clear error instead of
// an invalid pipeline on a device at the Vulkan minimums (128 invocations, 4 storage buffers / images per
// stage).
Result<void> checkComputeLimits(const DeviceInfo& dev, const spirv::ShaderInfo& info,
                                const std::array<uint32_t, 3>& local, const std::string& name) {
    const VkPhysicalDeviceLimits& l = dev.limits;
    const uint64_t invocations = uint64_t(local[0]) * local[1] * local[2];
    if (invocations > l.maxComputeWorkGroupInvocations || local[0] > l.maxComputeWorkGroupSize[0] ||
        local[1] > l.maxComputeWorkGroupSize[1] || local[2] > l.maxComputeWorkGroupSize[2])
        return makeError(VK_ERROR_FEATURE_NOT_PRESENT,
                         name + ": workgroup " + std::to_string(local[0]) + "x" + std::to_string(local[1]) + "x" +
                             std::to_string(local[2]) + " exceeds the device's limit of " +
                             std::to_string(l.maxComputeWorkGroupInvocations) + " invocations");
    uint32_t buffers = 0, images = 0;
    for (const auto& b : info.bindings) {
        buffers += b.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ? b.count : 0;
        images += b.type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ? b.count : 0;
    }
    if (buffers > l.maxPerStageDescriptorStorageBuffers || images > l.maxPerStageDescriptorStorageImages)
        return makeError(VK_ERROR_FEATURE_NOT_PRESENT,
                         name + ": binds " + std::to_string(buffers) + " storage buffers and " +
                             std::to_string(images) + " storage images; the device allows " +
                             std::to_string(l.maxPerStageDescriptorStorageBuffers) + " and " +
                             std::to_string(l.maxPerStageDescriptorStorageImages) + " per stage");
    return {};
}

}  // namespace

Result<ComputePipeline> ComputePipeline::create(const DeviceInfo& dev, const ComputePipelineDesc& desc) {
    std::span<const uint32_t> spirv = embeddedSpirv(desc.shader);
    if (spirv.empty())
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "no embedded shader named '" + std::string(desc.shader) + "'");
    return createFromSpirv(dev, desc, spirv);
}

Result<ComputePipeline> ComputePipeline::createFromSpirv(const DeviceInfo& dev, const ComputePipelineDesc& desc,
                                                         std::span<const uint32_t> spirv) {
    ComputePipeline p;
    p.maxGroupsX_ = dev.maxComputeWorkGroupCount[0];
    const std::string name(desc.shader);
    auto reflected = spirv::reflect(spirv);
    if (!reflected) return makeError(reflected.error().code, name + ": " + reflected.error().message);
    if (reflected->stage != VK_SHADER_STAGE_COMPUTE_BIT)
        return makeError(VK_ERROR_INITIALIZATION_FAILED, name + ": not a compute shader");
    if (auto r = spirv::checkPushSize(reflected->pushConstantBytes, desc.pushConstantBytes, name); !r) return r.error();
    p.localSize_ = reflected->resolveLocalSize(desc.specialization);
    if (auto r = checkComputeLimits(dev, *reflected, p.localSize_, name); !r) return r.error();
    auto bindings = spirv::setLayoutBindings(reflected->bindings, name);
    if (!bindings) return bindings.error();
    auto handles = PipelineHandles::createLayouts(dev, *bindings, VK_SHADER_STAGE_COMPUTE_BIT, desc.pushConstantBytes);
    if (!handles) return handles.error();
    p.h_ = std::move(handles).value();

    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    moduleInfo.codeSize = spirv.size() * sizeof(uint32_t);
    moduleInfo.pCode = spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    SIEVE_VK_TRY(vkCreateShaderModule(dev.device, &moduleInfo, dev.allocator, &module));

    std::vector<VkSpecializationMapEntry> entries;
    for (uint32_t i = 0; i < desc.specialization.size(); ++i)
        entries.push_back({i, uint32_t(i * sizeof(uint32_t)), sizeof(uint32_t)});
    VkSpecializationInfo spec{uint32_t(entries.size()), entries.data(), desc.specialization.size_bytes(),
                              desc.specialization.data()};

    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroupSize{
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
    subgroupSize.requiredSubgroupSize = desc.requiredSubgroupSize;

    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.pNext = desc.requiredSubgroupSize ? &subgroupSize : nullptr;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = entries.empty() ? nullptr : &spec;
    info.layout = p.h_.layout;
    if (dev.captureStatistics) info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    VkResult r = vkCreateComputePipelines(dev.device, dev.pipelineCache, 1, &info, dev.allocator, &p.h_.pipeline);
    vkDestroyShaderModule(dev.device, module, dev.allocator);
    if (r != VK_SUCCESS) return makeError(r, "vkCreateComputePipelines(" + name + ") failed: " + vkResultName(r));
    setDebugName(dev, VK_OBJECT_TYPE_PIPELINE, p.h_.pipeline, name.c_str());
    setDebugName(dev, VK_OBJECT_TYPE_PIPELINE_LAYOUT, p.h_.layout, name.c_str());
    return p;
}

Result<PipelineHandles> PipelineHandles::createLayouts(const DeviceInfo& dev,
                                                       std::span<const VkDescriptorSetLayoutBinding> bindings,
                                                       VkShaderStageFlags pushStages, uint32_t pushBytes,
                                                       std::span<const VkDescriptorSetLayout> extraSets) {
    if (auto r = detail::checkDescribed(dev.device, nullptr, "pipeline creation"); !r) return r.error();
    PipelineHandles h;
    h.device = dev.device;
    h.allocator = dev.allocator;
    for (const VkDescriptorSetLayoutBinding& b : bindings) {
        if (h.types.size() <= b.binding) h.types.resize(b.binding + 1, VK_DESCRIPTOR_TYPE_MAX_ENUM);
        h.types[b.binding] = b.descriptorType;
    }
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    setInfo.bindingCount = uint32_t(bindings.size());
    setInfo.pBindings = bindings.data();
    SIEVE_VK_TRY(vkCreateDescriptorSetLayout(dev.device, &setInfo, dev.allocator, &h.setLayout));
    VkPushConstantRange range{pushStages, 0, pushBytes};
    std::vector<VkDescriptorSetLayout> sets{h.setLayout};
    sets.insert(sets.end(), extraSets.begin(), extraSets.end());
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = uint32_t(sets.size());
    layoutInfo.pSetLayouts = sets.data();
    layoutInfo.pushConstantRangeCount = pushBytes ? 1 : 0;
    layoutInfo.pPushConstantRanges = &range;
    SIEVE_VK_TRY(vkCreatePipelineLayout(dev.device, &layoutInfo, dev.allocator, &h.layout));
    return h;
}

PipelineHandles& PipelineHandles::operator=(PipelineHandles&& o) noexcept {
    if (this != &o) {
        reset();
        device = std::exchange(o.device, VK_NULL_HANDLE);
        allocator = std::exchange(o.allocator, nullptr);
        setLayout = std::exchange(o.setLayout, VK_NULL_HANDLE);
        layout = std::exchange(o.layout, VK_NULL_HANDLE);
        pipeline = std::exchange(o.pipeline, VK_NULL_HANDLE);
        types = std::move(o.types);
    }
    return *this;
}

PipelineHandles::~PipelineHandles() {
    reset();
}

void PipelineHandles::reset() {
    if (!device) return;
    vkDestroyPipeline(device, pipeline, allocator);
    vkDestroyPipelineLayout(device, layout, allocator);
    vkDestroyDescriptorSetLayout(device, setLayout, allocator);
    device = VK_NULL_HANDLE;
}

void PipelineHandles::pushDescriptors(VkCommandBuffer cmd, VkPipelineBindPoint bindPoint, BindingList bindings) const {
    constexpr uint32_t kMax = 32;  // the minimum maxPushDescriptors Vulkan guarantees
    VkWriteDescriptorSet writes[kMax];
    uint32_t count = 0, binding = 0;
    for (const Binding& b : bindings) {
        const uint32_t at = binding++;
        if (count == kMax) break;
        auto isBuffer = [](VkDescriptorType t) {
            return t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        };
        const VkDescriptorType declared = at < types.size() ? types[at] : VK_DESCRIPTOR_TYPE_MAX_ENUM;
        if (declared == VK_DESCRIPTOR_TYPE_MAX_ENUM) continue;
        VkWriteDescriptorSet& w = writes[count++];
        w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstBinding = at;
        w.descriptorCount = 1;
        // The shader's type when the caller gave the same kind of resource, else the caller's (reported).
        w.descriptorType = isBuffer(declared) == isBuffer(b.type) ? declared : b.type;
        if (isBuffer(w.descriptorType))
            w.pBufferInfo = &b.buffer;
        else
            w.pImageInfo = &b.image;
    }
    if (count) vkCmdPushDescriptorSetKHR(cmd, bindPoint, layout, 0, count, writes);
}

void ComputePipeline::dispatch(VkCommandBuffer cmd, BindingList bindings, const void* push, uint32_t pushBytes,
                               uint32_t x, uint32_t y, uint32_t z) const {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, h_.pipeline);
    h_.pushDescriptors(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, bindings);
    if (pushBytes) vkCmdPushConstants(cmd, h_.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes, push);
    vkCmdDispatch(cmd, x, y, z);
}

void ComputePipeline::dispatchIndirect(VkCommandBuffer cmd, BindingList bindings, const void* push, uint32_t pushBytes,
                                       BufferRange args) const {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, h_.pipeline);
    h_.pushDescriptors(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, bindings);
    if (pushBytes) vkCmdPushConstants(cmd, h_.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes, push);
    vkCmdDispatchIndirect(cmd, args.buffer, args.offset);
}

uint32_t ComputePipeline::maxGroupsX() const {
    return g_maxGroupsOverride ? g_maxGroupsOverride.load() : maxGroupsX_;
}

void ComputePipeline::dispatchLinear(VkCommandBuffer cmd, BindingList bindings, const void* push, uint32_t pushBytes,
                                     uint32_t groups) const {
    if (!groups) return;
    uint32_t limit = maxGroupsX();
    uint32_t x = groups < limit ? groups : limit;
    uint32_t y = (groups + x - 1) / x;
    dispatch(cmd, bindings, push, pushBytes, x, y, 1);
}

}  // namespace sieve
