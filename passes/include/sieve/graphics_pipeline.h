#pragma once
// Graphics pipelines for dynamic rendering from embedded SPIR-V, with a push-descriptor set (set 0) and push
// constants, both reflected from the two stages' SPIR-V, and optionally further descriptor sets the caller
// owns (sets 1..). Viewport and scissor are dynamic.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

#include "sieve/gpu.h"
#include "sieve/pipeline.h"
#include "sieve/result.h"

namespace sieve {

struct GraphicsPipelineDesc {
    std::string_view vertexShader;  // embedded names (a mesh shader when meshShading)
    std::string_view fragmentShader;
    uint32_t pushConstantBytes = 0;  // sizeof the C++ push struct: must equal the larger stage's push block
    std::span<const VkVertexInputBindingDescription> vertexBindings;
    std::span<const VkVertexInputAttributeDescription> vertexAttributes;
    VkFormat colorFormat = VK_FORMAT_UNDEFINED;             // UNDEFINED: no colour attachment
    VkFormat depthFormat = VK_FORMAT_UNDEFINED;             // UNDEFINED: no depth attachment
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;  // the attachments' sample count
    bool depthTest = false;
    bool depthWrite = false;
    VkCompareOp depthCompare = VK_COMPARE_OP_GREATER_OR_EQUAL;  // reverse-Z
    bool alphaBlend = false;
    VkCullModeFlags cullMode = VK_CULL_MODE_NONE;
    VkFrontFace frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    // Layouts of sets 1, 2, ... that the caller allocates and binds (e.g. a texture array too large to
    // push). The shaders' bindings in those sets are not reflected into set 0; one in a set beyond them is
    // an error.
    std::span<const VkDescriptorSetLayout> extraSetLayouts;
    std::span<const uint32_t> specialization;  // constant_id i = specialization[i], in both stages
    const char* debugName = nullptr;
    // vertexShader names a mesh shader (VK_EXT_mesh_shader): no vertex input; the vertex arrays are unused.
    bool meshShading = false;
};

// One attachment of a dynamic rendering scope; `clear` is read with VK_ATTACHMENT_LOAD_OP_CLEAR only.
VkRenderingAttachmentInfo renderingAttachment(VkImageView view, VkImageLayout layout, VkAttachmentLoadOp load,
                                              VkAttachmentStoreOp store, VkClearValue clear = {});

// Begins dynamic rendering of layer 0 over the whole of `extent`; a null attachment is left out.
void beginRendering(VkCommandBuffer cmd, VkExtent2D extent, const VkRenderingAttachmentInfo* color,
                    const VkRenderingAttachmentInfo* depth = nullptr);

// The dynamic viewport (depths 0..1) and scissor of the whole of `extent`.
void setFullViewport(VkCommandBuffer cmd, VkExtent2D extent);

class GraphicsPipeline {
public:
    GraphicsPipeline() = default;
    static Result<GraphicsPipeline> create(const DeviceInfo& dev, const GraphicsPipelineDesc& desc);

    // Binds the pipeline, pushes descriptors (binding i = bindings[i]) and push constants.
    void bind(VkCommandBuffer cmd, BindingList bindings, const void* push, uint32_t pushBytes) const;
    VkPipeline handle() const { return h_.pipeline; }
    VkPipelineLayout layout() const { return h_.layout; }
    explicit operator bool() const { return h_.pipeline != VK_NULL_HANDLE; }

private:
    PipelineHandles h_;
    VkShaderStageFlags pushStages_ = 0;
};

}  // namespace sieve
