#include "sieve/graphics_pipeline.h"

#include <algorithm>
#include <string>

#include "core/spirv_reflect.h"
#include "core/vk.h"
#include "sieve/spirv.h"

namespace sieve {

namespace {
struct Stage {
    std::span<const uint32_t> spirv;
    spirv::ShaderInfo info;
};

Result<Stage> loadStage(std::string_view name, VkShaderStageFlagBits expected) {
    Stage s;
    s.spirv = embeddedSpirv(name);
    if (s.spirv.empty())
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "no embedded shader named '" + std::string(name) + "'");
    auto info = spirv::reflect(s.spirv);
    if (!info) return makeError(info.error().code, std::string(name) + ": " + info.error().message);
    if (info->stage != expected)
        return makeError(VK_ERROR_INITIALIZATION_FAILED, std::string(name) + ": wrong shader stage");
    s.info = std::move(info).value();
    return s;
}

Result<VkShaderModule> makeModule(const DeviceInfo& dev, std::span<const uint32_t> spirv) {
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = spirv.size_bytes();
    info.pCode = spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    SIEVE_VK_TRY(vkCreateShaderModule(dev.device, &info, dev.allocator, &module));
    return module;
}

// The one push range both stages share: the stages that declare a block, sized by the larger one,
// which must be the C++ struct's size.
Result<void> pushRange(const Stage& vs, const Stage& fs, const GraphicsPipelineDesc& desc, VkShaderStageFlags& stages) {
    const std::string name = std::string(desc.vertexShader) + " + " + std::string(desc.fragmentShader);
    const uint32_t bytes = std::max(vs.info.pushConstantBytes, fs.info.pushConstantBytes);
    if (auto r = spirv::checkPushSize(bytes, desc.pushConstantBytes, name); !r) return r;
    stages = 0;
    for (const Stage* s : {&vs, &fs})
        if (s->info.pushConstantBytes) stages |= s->info.stage;
    return {};
}
// Set 0 reflected from both stages into the pushed layout; sets 1.. are the caller's (extraSetLayouts).
Result<PipelineHandles> createLayouts(const DeviceInfo& dev, const Stage& vs, const Stage& fs,
                                      const GraphicsPipelineDesc& desc, VkShaderStageFlags pushStages) {
    const spirv::ShaderInfo* infos[] = {&vs.info, &fs.info};
    auto merged = spirv::mergeBindings(infos);
    if (!merged) return makeError(merged.error().code, std::string(desc.vertexShader) + ": " + merged.error().message);
    std::vector<spirv::DescriptorBinding> pushed;
    for (const spirv::DescriptorBinding& b : *merged) {
        if (b.set == 0)
            pushed.push_back(b);
        else if (b.set > desc.extraSetLayouts.size())
            return makeError(VK_ERROR_INITIALIZATION_FAILED,
                             std::string(desc.vertexShader) + ": binding " + std::to_string(b.binding) + " is in set " +
                                 std::to_string(b.set) + ", for which no layout was given");
    }
    auto bindings = spirv::setLayoutBindings(pushed, desc.vertexShader);
    if (!bindings) return bindings.error();
    return PipelineHandles::createLayouts(dev, *bindings, pushStages, desc.pushConstantBytes, desc.extraSetLayouts);
}

VkPipelineColorBlendAttachmentState blendAttachment(bool alphaBlend) {
    constexpr VkColorComponentFlags kRGBA =
        VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    if (!alphaBlend) return {.colorWriteMask = kRGBA};
    return {.blendEnable = VK_TRUE,
            .srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA,
            .dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
            .colorBlendOp = VK_BLEND_OP_ADD,
            .srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE,
            .dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
            .alphaBlendOp = VK_BLEND_OP_ADD,
            .colorWriteMask = kRGBA};
}

// The fixed-function state of a description, in one place so that the create info can point into it.
struct FixedState {
    explicit FixedState(const GraphicsPipelineDesc& desc)
        : vertexInput{.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
                      .vertexBindingDescriptionCount = uint32_t(desc.vertexBindings.size()),
                      .pVertexBindingDescriptions = desc.vertexBindings.data(),
                      .vertexAttributeDescriptionCount = uint32_t(desc.vertexAttributes.size()),
                      .pVertexAttributeDescriptions = desc.vertexAttributes.data()},
          assembly{.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO, .topology = desc.topology},
          raster{.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
                 .polygonMode = VK_POLYGON_MODE_FILL,
                 .cullMode = desc.cullMode,
                 .frontFace = desc.frontFace,
                 .lineWidth = 1.0f},
          multisample{.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                      .rasterizationSamples = desc.samples},
          depth{.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
                .depthTestEnable = desc.depthTest,
                .depthWriteEnable = desc.depthWrite,
                .depthCompareOp = desc.depthCompare},
          attachment(blendAttachment(desc.alphaBlend)),
          blend{.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                .attachmentCount = desc.colorFormat != VK_FORMAT_UNDEFINED ? 1u : 0u,
                .pAttachments = &attachment},
          rendering{.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                    .colorAttachmentCount = desc.colorFormat != VK_FORMAT_UNDEFINED ? 1u : 0u,
                    .pColorAttachmentFormats = &desc.colorFormat,
                    .depthAttachmentFormat = desc.depthFormat},
          meshShading(desc.meshShading) {}
    FixedState(const FixedState&) = delete;
    FixedState& operator=(const FixedState&) = delete;

    // The create info of the two stages and this state (no vertex input or assembly for mesh shading).
    VkGraphicsPipelineCreateInfo info(const VkPipelineShaderStageCreateInfo* stages, VkPipelineLayout layout) const {
        return {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                .pNext = &rendering,
                .stageCount = 2,
                .pStages = stages,
                .pVertexInputState = meshShading ? nullptr : &vertexInput,
                .pInputAssemblyState = meshShading ? nullptr : &assembly,
                .pViewportState = &viewport,
                .pRasterizationState = &raster,
                .pMultisampleState = &multisample,
                .pDepthStencilState = &depth,
                .pColorBlendState = &blend,
                .pDynamicState = &dynamic,
                .layout = layout};
    }

    VkPipelineVertexInputStateCreateInfo vertexInput;
    VkPipelineInputAssemblyStateCreateInfo assembly;
    VkPipelineViewportStateCreateInfo viewport{
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, .viewportCount = 1, .scissorCount = 1};
    VkPipelineRasterizationStateCreateInfo raster;
    VkPipelineMultisampleStateCreateInfo multisample;
    VkPipelineDepthStencilStateCreateInfo depth;
    VkPipelineColorBlendAttachmentState attachment;
    VkPipelineColorBlendStateCreateInfo blend;
    VkDynamicState dynamicStates[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
                                             .dynamicStateCount = 2,
                                             .pDynamicStates = dynamicStates};
    VkPipelineRenderingCreateInfo rendering;
    bool meshShading;
};

}  // namespace

Result<GraphicsPipeline> GraphicsPipeline::create(const DeviceInfo& dev, const GraphicsPipelineDesc& desc) {
    GraphicsPipeline p;
    const VkShaderStageFlagBits first = desc.meshShading ? VK_SHADER_STAGE_MESH_BIT_EXT : VK_SHADER_STAGE_VERTEX_BIT;
    auto vsStage = loadStage(desc.vertexShader, first);
    if (!vsStage) return vsStage.error();
    auto fsStage = loadStage(desc.fragmentShader, VK_SHADER_STAGE_FRAGMENT_BIT);
    if (!fsStage) return fsStage.error();
    if (auto r = pushRange(*vsStage, *fsStage, desc, p.pushStages_); !r) return r.error();
    auto handles = createLayouts(dev, *vsStage, *fsStage, desc, p.pushStages_);
    if (!handles) return handles.error();
    p.h_ = std::move(handles).value();

    auto vs = makeModule(dev, vsStage->spirv);
    if (!vs) return vs.error();
    auto fs = makeModule(dev, fsStage->spirv);
    if (!fs) {
        vkDestroyShaderModule(dev.device, *vs, dev.allocator);
        return fs.error();
    }
    std::vector<VkSpecializationMapEntry> entries;
    for (uint32_t i = 0; i < desc.specialization.size(); ++i)
        entries.push_back({i, uint32_t(i * sizeof(uint32_t)), sizeof(uint32_t)});
    const VkSpecializationInfo spec{uint32_t(entries.size()), entries.data(), desc.specialization.size_bytes(),
                                    desc.specialization.data()};
    const VkSpecializationInfo* specInfo = entries.empty() ? nullptr : &spec;
    const VkPipelineShaderStageCreateInfo shaderStages[2] = {
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, first, *vs, "main", specInfo},
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, *fs, "main",
         specInfo}};
    const FixedState state(desc);
    const VkGraphicsPipelineCreateInfo info = state.info(shaderStages, p.h_.layout);
    VkResult r = vkCreateGraphicsPipelines(dev.device, dev.pipelineCache, 1, &info, dev.allocator, &p.h_.pipeline);
    vkDestroyShaderModule(dev.device, *vs, dev.allocator);
    vkDestroyShaderModule(dev.device, *fs, dev.allocator);
    if (r != VK_SUCCESS) return makeError(r, std::string("vkCreateGraphicsPipelines failed: ") + vkResultName(r));
    const char* name = desc.debugName ? desc.debugName : desc.vertexShader.data();
    setDebugName(dev, VK_OBJECT_TYPE_PIPELINE, p.h_.pipeline, name);
    return p;
}

void GraphicsPipeline::bind(VkCommandBuffer cmd, BindingList bindings, const void* push, uint32_t pushBytes) const {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, h_.pipeline);
    h_.pushDescriptors(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, bindings);
    if (pushBytes) vkCmdPushConstants(cmd, h_.layout, pushStages_, 0, pushBytes, push);
}

}  // namespace sieve
