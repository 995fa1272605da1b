#include "sieve/pipeline.h"

#include <atomic>
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
    p.device_ = dev.device;
    p.maxGroupsX_ = dev.maxComputeWorkGroupCount[0];
    p.bindingCount_ = uint32_t(desc.bindings.size());
    const std::string name(desc.shader);

    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (uint32_t i = 0; i < desc.bindings.size(); ++i)
        bindings.push_back({i, desc.bindings[i], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    setInfo.bindingCount = uint32_t(bindings.size());
    setInfo.pBindings = bindings.data();
    SIEVE_VK_TRY(vkCreateDescriptorSetLayout(dev.device, &setInfo, nullptr, &p.setLayout_));

    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, desc.pushConstantBytes};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &p.setLayout_;
    layoutInfo.pushConstantRangeCount = desc.pushConstantBytes ? 1 : 0;
    layoutInfo.pPushConstantRanges = &range;
    SIEVE_VK_TRY(vkCreatePipelineLayout(dev.device, &layoutInfo, nullptr, &p.layout_));

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
    info.layout = p.layout_;
    VkResult r = vkCreateComputePipelines(dev.device, VK_NULL_HANDLE, 1, &info, nullptr, &p.pipeline_);
    vkDestroyShaderModule(dev.device, module, nullptr);
    if (r != VK_SUCCESS)
        return makeError(r, "vkCreateComputePipelines(" + name + ") failed: " + vkResultName(r));
    setDebugName(dev, VK_OBJECT_TYPE_PIPELINE, p.pipeline_, name.c_str());
    setDebugName(dev, VK_OBJECT_TYPE_PIPELINE_LAYOUT, p.layout_, name.c_str());
    return p;
}

ComputePipeline& ComputePipeline::operator=(ComputePipeline&& o) noexcept {
    if (this != &o) {
        destroy();
        device_ = o.device_;
        setLayout_ = o.setLayout_;
        layout_ = o.layout_;
        pipeline_ = o.pipeline_;
        maxGroupsX_ = o.maxGroupsX_;
        bindingCount_ = o.bindingCount_;
        o.device_ = VK_NULL_HANDLE;
        o.setLayout_ = VK_NULL_HANDLE;
        o.layout_ = VK_NULL_HANDLE;
        o.pipeline_ = VK_NULL_HANDLE;
    }
    return *this;
}

ComputePipeline::~ComputePipeline() { destroy(); }

void ComputePipeline::destroy() {
    if (!device_) return;
    vkDestroyPipeline(device_, pipeline_, nullptr);
    vkDestroyPipelineLayout(device_, layout_, nullptr);
    vkDestroyDescriptorSetLayout(device_, setLayout_, nullptr);
    device_ = VK_NULL_HANDLE;
}

void ComputePipeline::dispatch(VkCommandBuffer cmd, std::initializer_list<Binding> bindings, const void* push,
                               uint32_t pushBytes, uint32_t x, uint32_t y, uint32_t z) const {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    pushDescriptors(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, bindings);
    if (pushBytes) vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes, push);
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
