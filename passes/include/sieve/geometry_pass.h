#pragma once
// The plain default geometry pass the viewer uses: draws a draw list (shared/draw.h records) with
// vkCmdDrawIndexedIndirectCount. Hosts with their own materials write their own pass and read the same
// draw-list slots as indirect arguments. Recorded inside the host's vkCmdBeginRendering scope.
//
// Two modes (GeometryOptions::materials):
// - plain: one pipeline, flat colours from a small palette indexed by DrawCommand::material;
// - materials: the glTF-style model of shared/material.h: base colour factor x base colour texture
//   (textures in one array, GeometryPass::setTextures), alpha OPAQUE / MASK / BLEND, double-sided. One
//   pipeline per bin (bin = alphaMode * 2 + doubleSided, SIEVE_MATERIAL_BIN_COUNT bins): record() draws
//   one bin. A list of one bin's draws (per-(view, bin) streams) is drawn with mixedBins = false; a
//   host with one mixed list sets mixedBins = true and records the list once per bin, each bin's vertex
//   shader dropping the triangles of the other bins (MeshPrimitive::bin). Blend bins go last, after
//   every opaque and masked draw of the frame (isBlendBin).
#include <vulkan/vulkan.h>

#include <memory>
#include <span>

#include "sieve/device.h"
#include "sieve/plugin.h"
#include "sieve/result.h"

namespace sieve {

struct GeometryInputs {
    BufferRange vertices;   // shared/scene.h Vertex
    BufferRange indices;    // uint32
    BufferRange instances;  // shared/scene.h Instance
    BufferRange draws;      // shared/draw.h DrawCommand, stride 32
    BufferRange counts;     // shared/draw.h DrawCounts (count at offset 0)
    uint32_t maxDraws = 0;  // capacity of `draws`
    // The viewport to draw with (a flipped one too); null: (0, 0, extent) with depth range [0, 1].
    const VkViewport* viewport = nullptr;
    // Material mode only:
    BufferRange uvs;         // shared/material.h VertexUv, one per Vertex (the second vertex stream)
    BufferRange materials;   // shared/material.h Material, indexed by DrawCommand::material
    BufferRange primitives;  // shared/scene.h MeshPrimitive (the bin of each draw, read when mixedBins;
                             // bound in material mode either way)
    bool mixedBins = true;   // the list holds draws of every bin (see above)
    // Debug views: the shaded colour times `tint` (rgb; e.g. the phase that drew the list); tintByLod
    // colours by DrawCommand::lod instead.
    float tint[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    bool tintByLod = false;
    // ... or colours each draw record by its first index (with cluster lists: each cluster its colour).
    bool tintByDraw = false;
    // Cascaded shadows (shared/shadow.h, read by the fragment shader, plain and material mode): the buffer and its
    // cascade count; 0: no shadows (the buffer is not read and may be empty).
    BufferRange shadow;
    uint32_t shadowCascades = 0;
};

// The host's conventions for the default pass: depth direction (the test, and the clear value of the
// early pass) and which winding faces the camera after its projection and viewport.
struct GeometryOptions {
    bool reverseZ = true;  // nearer = larger depth; clear to 0 (else 1)
    VkFrontFace frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    VkCullModeFlags cullMode = VK_CULL_MODE_BACK_BIT;  // of single-sided bins; double-sided ones cull nothing
    bool materials = false;                            // material mode (see above)
    // Material mode: the sampler's anisotropy; > 1 only when the host enabled samplerAnisotropy (clamped
    // to the device's maxSamplerAnisotropy).
    float maxAnisotropy = 1.0f;
    // Material mode: the texture slots setTextures will fill (1..SIEVE_MAX_TEXTURES). Compiled into the
    // pipelines: software rasterisers pay for every slot of the array on every fragment.
    uint32_t textureSlots = 120;  // SIEVE_MAX_TEXTURES
};

// Colour and depth attachments of the default pass, in COLOR_ATTACHMENT_OPTIMAL and
// DEPTH_ATTACHMENT_OPTIMAL. `clear`: the early pass clears them (sky colour, the far depth of the
// convention); the late pass draws on top.
struct GeometryAttachments {
    VkImageView color = VK_NULL_HANDLE;
    VkImageView depth = VK_NULL_HANDLE;
    bool clear = false;
};

// One list drawn with one bin's pipeline, for recordWithRendering's ordered form.
struct GeometryBinDraw {
    const GeometryInputs* inputs = nullptr;
    uint32_t bin = 0;
};

// Direction to the light the default pass shades with (world space, not normalised).
inline constexpr float kDefaultLightDir[3] = {0.4f, 0.8f, 0.45f};

class GeometryPass {
public:
    // Refuses a device without what the pass needs (kGeometryNeeds), naming each missing one; in material
    // mode also a device whose descriptor limits cannot hold the texture array (SIEVE_MAX_TEXTURES).
    static Result<GeometryPass> create(const DeviceInfo& dev, VkFormat colorFormat, VkFormat depthFormat,
                                       const GeometryOptions& options = {});
    GeometryPass(GeometryPass&&) noexcept;
    GeometryPass& operator=(GeometryPass&&) noexcept;
    ~GeometryPass();

    // Pipelines: SIEVE_MATERIAL_BIN_COUNT in material mode, 1 in plain mode.
    uint32_t binCount() const;
    // Blend bins are drawn after every other bin and write no depth.
    static bool isBlendBin(uint32_t bin);

    // Material mode: the texture array. views[i] is Material::baseColorTexture i; views[0]
    // (SIEVE_TEXTURE_WHITE) means no texture: never sampled, but it must be a valid view. At most
    // GeometryOptions::textureSlots views, each in SHADER_READ_ONLY_OPTIMAL when drawn; the slots after
    // them repeat views[0]. Must be called before the first record (the material pipelines draw nothing
    // before) and not while a recorded frame that draws with the pass is pending.
    Result<void> setTextures(std::span<const VkImageView> views);

    // viewProj: column-major 4x4 world -> clip (the host's projection times its view);
    // lightDir: world-space direction to the light; bin: the pipeline (ignored in plain mode).
    void record(VkCommandBuffer cmd, const GeometryInputs& in, VkExtent2D extent, const float viewProj[16],
                const float lightDir[3], uint32_t bin = 0) const;
    // Every bin of `in` (material mode: bins in order, blend last) inside its own
    // vkCmdBeginRendering/EndRendering on `attachments`, lit by kDefaultLightDir.
    void recordWithRendering(VkCommandBuffer cmd, const GeometryInputs& in, const GeometryAttachments& attachments,
                             VkExtent2D extent, const float viewProj[16]) const;
    // The same for (list, bin) pairs in the given order (e.g. a late pass that draws its opaque bins and
    // then the blend bins of the early and the late list).
    void recordWithRendering(VkCommandBuffer cmd, std::span<const GeometryBinDraw> draws,
                             const GeometryAttachments& attachments, VkExtent2D extent, const float viewProj[16]) const;

    struct Impl;

private:
    GeometryPass() = default;
    std::unique_ptr<Impl> impl_;
};

// Draws one stream of `maxDraws` records (stride SIEVE_DRAW_STRIDE) whose count is the first u32 of
// `counts`: vkCmdDrawIndexedIndirectCount where the device has drawIndirectCount, else
// vkCmdDrawIndexedIndirect over all `maxDraws` records (the culling plugin writes empty records past the
// count there). Pipeline, descriptors, vertex and index buffers are the caller's.
void drawStream(VkCommandBuffer cmd, const DeviceInfo& dev, const BufferRange& draws, const BufferRange& counts,
                uint32_t maxDraws);

}  // namespace sieve
