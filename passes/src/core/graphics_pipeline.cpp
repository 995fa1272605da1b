#include "core/vk.h"
#include "sieve/graphics_pipeline.h"

#include <string>

#include "sieve/spirv.h"

namespace sieve {

namespace {
Result<VkShaderModule> makeModule(VkDevice device, std::string_view name) {
    std::span<const uint32_t> spirv = embeddedSpirv(name);
    if (spirv.empty())
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "no embedded shader named '" + std::string(name) + "'");
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = spirv.size_bytes();
    info.pCode = spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    SIEVE_VK_TRY(vkCreateShaderModule(device, &info, nullptr, &module));
    return module;
}
}  // namespace

void pushDescriptors(VkCommandBuffer cmd, VkPipelineBindPoint bindPoint, VkPipelineLayout layout,
                     std::initializer_list<Binding> bindings) {
    if (!bindings.size()) return;
    constexpr uint32_t kMax = 32;  // the minimum maxPushDescriptors Vulkan guarantees
    VkWriteDescriptorSet writes[kMax];
    uint32_t i = 0;
    for (const Binding& b : bindings) {
        if (i == kMax) break;
        VkWriteDescriptorSet& w = writes[i];
        w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstBinding = i;
        w.descriptorCount = 1;
        w.descriptorType = b.type;
        const bool isBuffer = b.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || b.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        if (isBuffer)
            w.pBufferInfo = &b.buffer;
        else
            w.pImageInfo = &b.image;
        ++i;
    }
    vkCmdPushDescriptorSetKHR(cmd, bindPoint, layout, 0, i, writes);
}

Result<GraphicsPipeline> GraphicsPipeline::create(const DeviceInfo& dev, const GraphicsPipelineDesc& desc) {
    GraphicsPipeline p;
    const VkShaderStageFlags stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    p.pushStages_ = stages;
    auto handles = PipelineHandles::createLayouts(dev.device, desc.bindings, stages, desc.pushConstantBytes);
    if (!handles) return handles.error();
    p.h_ = std::move(handles).value();

    auto vs = makeModule(dev.device, desc.vertexShader);
    if (!vs) return vs.error();
    auto fs = makeModule(dev.device, desc.fragmentShader);
    if (!fs) {
        vkDestroyShaderModule(dev.device, *vs, nullptr);
        return fs.error();
    }
    VkPipelineShaderStageCreateInfo shaderStages[2] = {
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, *vs, "main"},
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, *fs, "main"}};

    VkPipelineVertexInputStateCreateInfo vertexInput{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vertexInput.vertexBindingDescriptionCount = uint32_t(desc.vertexBindings.size());
    vertexInput.pVertexBindingDescriptions = desc.vertexBindings.data();
    vertexInput.vertexAttributeDescriptionCount = uint32_t(desc.vertexAttributes.size());
    vertexInput.pVertexAttributeDescriptions = desc.vertexAttributes.data();
    VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewport.viewportCount = 1;
    viewport.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = desc.cullMode;
    raster.frontFace = desc.frontFace;
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    depth.depthTestEnable = desc.depthTest;
    depth.depthWriteEnable = desc.depthWrite;
    depth.depthCompareOp = desc.depthCompare;
    VkPipelineColorBlendAttachmentState blendAttachment{};
    blendAttachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                     VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    if (desc.alphaBlend) {
        blendAttachment.blendEnable = VK_TRUE;
        blendAttachment.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
        blendAttachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        blendAttachment.colorBlendOp = VK_BLEND_OP_ADD;
        blendAttachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
        blendAttachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        blendAttachment.alphaBlendOp = VK_BLEND_OP_ADD;
    }
    VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blend.attachmentCount = desc.colorFormat != VK_FORMAT_UNDEFINED ? 1 : 0;
    blend.pAttachments = &blendAttachment;
    VkDynamicState dynamicStates[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dynamic.dynamicStateCount = 2;
    dynamic.pDynamicStates = dynamicStates;
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    rendering.colorAttachmentCount = desc.colorFormat != VK_FORMAT_UNDEFINED ? 1 : 0;
    rendering.pColorAttachmentFormats = &desc.colorFormat;
    rendering.depthAttachmentFormat = desc.depthFormat;

    VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    info.pNext = &rendering;
    info.stageCount = 2;
    info.pStages = shaderStages;
    info.pVertexInputState = &vertexInput;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewport;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &depth;
    info.pColorBlendState = &blend;
    info.pDynamicState = &dynamic;
    info.layout = p.h_.layout;
    VkResult r = vkCreateGraphicsPipelines(dev.device, VK_NULL_HANDLE, 1, &info, nullptr, &p.h_.pipeline);
    vkDestroyShaderModule(dev.device, *vs, nullptr);
    vkDestroyShaderModule(dev.device, *fs, nullptr);
    if (r != VK_SUCCESS) return makeError(r, std::string("vkCreateGraphicsPipelines failed: ") + vkResultName(r));
    const char* name = desc.debugName ? desc.debugName : desc.vertexShader.data();
    setDebugName(dev, VK_OBJECT_TYPE_PIPELINE, p.h_.pipeline, name);
    return p;
}

void GraphicsPipeline::bind(VkCommandBuffer cmd, std::initializer_list<Binding> bindings, const void* push,
                            uint32_t pushBytes) const {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, h_.pipeline);
    pushDescriptors(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, h_.layout, bindings);
    if (pushBytes) vkCmdPushConstants(cmd, h_.layout, pushStages_, 0, pushBytes, push);
}

}  // namespace sieve
