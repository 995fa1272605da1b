#pragma once
// The plain default geometry pass the viewer uses: draws a draw list (shared/draw.h records) with
// vkCmdDrawIndexedIndirectCount. Hosts with their own materials write their own pass and read the same
// draw-list slots as indirect arguments. Recorded inside the host's vkCmdBeginRendering scope.
#include <vulkan/vulkan.h>

#include <memory>

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
    // Cascaded shadows (shared/shadow.h, read by the fragment shader): the buffer and its cascade count;
    // 0: no shadows (the buffer is not read and may be empty).
    BufferRange shadow;
    uint32_t shadowCascades = 0;
};

// The host's conventions for the default pass: depth direction (the test, and the clear value of the
// early pass) and which winding faces the camera after its projection and viewport.
struct GeometryOptions {
    bool reverseZ = true;  // nearer = larger depth; clear to 0 (else 1)
    VkFrontFace frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    VkCullModeFlags cullMode = VK_CULL_MODE_BACK_BIT;
};

// Colour and depth attachments of the default pass, in COLOR_ATTACHMENT_OPTIMAL and
// DEPTH_ATTACHMENT_OPTIMAL. `clear`: the early pass clears them (sky colour, the far depth of the
// convention); the late pass draws on top.
struct GeometryAttachments {
    VkImageView color = VK_NULL_HANDLE;
    VkImageView depth = VK_NULL_HANDLE;
    bool clear = false;
};

// Direction to the light the default pass shades with (world space, not normalised).
inline constexpr float kDefaultLightDir[3] = {0.4f, 0.8f, 0.45f};

class GeometryPass {
public:
    // Refuses a device without what the pass needs (kGeometryNeeds), naming each missing one.
    static Result<GeometryPass> create(const DeviceInfo& dev, VkFormat colorFormat, VkFormat depthFormat,
                                       const GeometryOptions& options = {});
    GeometryPass(GeometryPass&&) noexcept;
    GeometryPass& operator=(GeometryPass&&) noexcept;
    ~GeometryPass();
    // viewProj: column-major 4x4 world -> clip (the host's projection times its view);
    // lightDir: world-space direction to the light.
    void record(VkCommandBuffer cmd, const GeometryInputs& in, VkExtent2D extent, const float viewProj[16],
                const float lightDir[3]) const;
    // The same inside its own vkCmdBeginRendering/EndRendering on `attachments`, lit by kDefaultLightDir.
    void recordWithRendering(VkCommandBuffer cmd, const GeometryInputs& in, const GeometryAttachments& attachments,
                             VkExtent2D extent, const float viewProj[16]) const;

    struct Impl;

private:
    GeometryPass() = default;
    std::unique_ptr<Impl> impl_;
};

}  // namespace sieve
