#include "core/vk.h"
#include "sieve/pipeline.h"

#include <atomic>
#include <utility>
#include <vector>

#include "sieve/graphics_pipeline.h"
#include "sieve/spirv.h"

namespace sieve {

namespace {
std::atomic<uint32_t> g_maxGroupsOverride{0};
}

void overrideMaxGroupsX(uint32_t limit) { g_maxGroupsOverride = limit; }

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
    auto handles = PipelineHandles::createLayouts(dev.device, desc.bindings, VK_SHADER_STAGE_COMPUTE_BIT,
                                                  desc.pushConstantBytes);
    if (!handles) return handles.error();
    p.h_ = std::move(handles).value();

    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    moduleInfo.codeSize = spirv.size() * sizeof(uint32_t);
    moduleInfo.pCode = spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    SIEVE_VK_TRY(vkCreateShaderModule(dev.device, &moduleInfo, nullptr, &module));

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
    VkResult r = vkCreateComputePipelines(dev.device, VK_NULL_HANDLE, 1, &info, nullptr, &p.h_.pipeline);
    vkDestroyShaderModule(dev.device, module, nullptr);
    if (r != VK_SUCCESS)
        return makeError(r, "vkCreateComputePipelines(" + name + ") failed: " + vkResultName(r));
    setDebugName(dev, VK_OBJECT_TYPE_PIPELINE, p.h_.pipeline, name.c_str());
    setDebugName(dev, VK_OBJECT_TYPE_PIPELINE_LAYOUT, p.h_.layout, name.c_str());
    return p;
}

Result<PipelineHandles> PipelineHandles::createLayouts(VkDevice device, std::span<const VkDescriptorType> types,
                                                      VkShaderStageFlags stages, uint32_t pushBytes) {
    PipelineHandles h;
    h.device = device;
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (uint32_t i = 0; i < types.size(); ++i) bindings.push_back({i, types[i], 1, stages, nullptr});
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    setInfo.bindingCount = uint32_t(bindings.size());
    setInfo.pBindings = bindings.data();
    SIEVE_VK_TRY(vkCreateDescriptorSetLayout(device, &setInfo, nullptr, &h.setLayout));
    VkPushConstantRange range{stages, 0, pushBytes};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &h.setLayout;
    layoutInfo.pushConstantRangeCount = pushBytes ? 1 : 0;
    layoutInfo.pPushConstantRanges = &range;
    SIEVE_VK_TRY(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &h.layout));
    return h;
}

PipelineHandles& PipelineHandles::operator=(PipelineHandles&& o) noexcept {
    if (this != &o) {
        reset();
        device = std::exchange(o.device, VK_NULL_HANDLE);
        setLayout = std::exchange(o.setLayout, VK_NULL_HANDLE);
        layout = std::exchange(o.layout, VK_NULL_HANDLE);
        pipeline = std::exchange(o.pipeline, VK_NULL_HANDLE);
    }
    return *this;
}

PipelineHandles::~PipelineHandles() { reset(); }

void PipelineHandles::reset() {
    if (!device) return;
    vkDestroyPipeline(device, pipeline, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
    vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
    device = VK_NULL_HANDLE;
}

void ComputePipeline::dispatch(VkCommandBuffer cmd, std::initializer_list<Binding> bindings, const void* push,
                               uint32_t pushBytes, uint32_t x, uint32_t y, uint32_t z) const {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, h_.pipeline);
    pushDescriptors(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, h_.layout, bindings);
    if (pushBytes) vkCmdPushConstants(cmd, h_.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes, push);
    vkCmdDispatch(cmd, x, y, z);
}

void ComputePipeline::dispatchLinear(VkCommandBuffer cmd, std::initializer_list<Binding> bindings, const void* push,
                                     uint32_t pushBytes, uint32_t groups) const {
    if (!groups) return;
    uint32_t limit = g_maxGroupsOverride ? g_maxGroupsOverride.load() : maxGroupsX_;
    uint32_t x = groups < limit ? groups : limit;
    uint32_t y = (groups + x - 1) / x;
    dispatch(cmd, bindings, push, pushBytes, x, y, 1);
}

}  // namespace sieve
