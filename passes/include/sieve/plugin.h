#pragma once
// The engine-agnostic plugin interface. A plugin *describes* what it needs (slots: buffers and images
// with their size and usage, and a lifetime) and its passes (name, resource uses as sync2 triples); the
// host allocates the slots, derives the barriers between passes from the declared uses, and calls
// prepare() once per frame on the CPU and record() for each pass. Barriers *inside* a pass (between
// mips of a pyramid, between levels of a scan) are the plugin's own job.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sieve/result.h"

namespace sieve {

enum class Lifetime : uint8_t {
    Imported,    // owned by the host (e.g. its depth attachment); the host binds it every frame
    Transient,   // contents needed only within one frame
    Persistent,  // contents kept across frames (e.g. last frame's visibility)
};

enum class SlotKind : uint8_t { Buffer, Image };

// Where a buffer slot lives: what memory the host must bind it to.
// - Device: the plugin touches the buffer only from the GPU (commands and shaders); it never maps it
//   and never reads SlotBinding::mapped. Device-local memory is what these slots are for; any memory
//   type the buffer accepts works.
// - Upload, Readback: HOST_VISIBLE | HOST_COHERENT memory, mapped for as long as the slot is bound
//   (SlotBinding::mapped, required: a binding without it is rejected). The plugin writes the frame's
//   parameters (Upload) or reads counters the GPU wrote framesInFlight frames earlier (Readback) with
//   plain CPU loads and stores during record(), in the region of FrameInfo::frameSlot, so that the CPU
//   never touches memory a frame in flight still uses. It never calls vkFlushMappedMemoryRanges or
//   vkInvalidateMappedMemoryRanges: non-coherent memory is not supported.
enum class Memory : uint8_t { Device, Upload, Readback };

using SlotId = uint32_t;
inline constexpr SlotId kNoSlot = UINT32_MAX;

struct SlotDesc {
    std::string name;
    SlotKind kind = SlotKind::Buffer;
    Lifetime lifetime = Lifetime::Transient;
    // Buffers
    VkDeviceSize size = 0;
    VkBufferUsageFlags bufferUsage = 0;
    Memory memory = Memory::Device;
    // Images
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkExtent2D extent{0, 0};
    uint32_t mipLevels = 1;
    VkImageUsageFlags imageUsage = 0;
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
};

// A buffer slot's declaration.
inline SlotDesc bufferSlot(std::string name, Lifetime life, VkDeviceSize size, VkBufferUsageFlags usage,
                           Memory memory = Memory::Device) {
    return {.name = std::move(name), .lifetime = life, .size = size, .bufferUsage = usage, .memory = memory};
}

// An image slot's declaration.
inline SlotDesc imageSlot(std::string name, Lifetime life, VkFormat format, VkExtent2D extent, uint32_t mips,
                          VkImageUsageFlags usage, VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT) {
    SlotDesc d{.name = std::move(name), .kind = SlotKind::Image, .lifetime = life, .format = format};
    d.extent = extent;
    d.mipLevels = mips;
    d.imageUsage = usage;
    d.samples = samples;
    return d;
}

// One access of a slot by a pass, lowered to sync2 terms.
struct ResourceUse {
    SlotId slot = kNoSlot;
    VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 access = VK_ACCESS_2_NONE;
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;                                            // images only
    VkImageSubresourceRange range{0, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};  // images only
    bool write = false;
};

// Named helpers turning intent into the triple, in one place.
namespace use {
ResourceUse storageRead(SlotId s, VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
ResourceUse storageWrite(SlotId s, VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
ResourceUse storageReadWrite(SlotId s, VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
ResourceUse uniformRead(SlotId s, VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
ResourceUse indirectRead(SlotId s);  // draw/dispatch indirect arguments and counts
ResourceUse transferWrite(SlotId s);
ResourceUse transferRead(SlotId s);
ResourceUse vertexRead(SlotId s);  // vertex/index buffers
ResourceUse sampledImage(SlotId s, VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                         VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT, uint32_t baseMip = 0,
                         uint32_t mipCount = VK_REMAINING_MIP_LEVELS);
ResourceUse storageImageWrite(SlotId s, uint32_t baseMip = 0, uint32_t mipCount = VK_REMAINING_MIP_LEVELS);
ResourceUse storageImageReadWrite(SlotId s, uint32_t baseMip = 0, uint32_t mipCount = VK_REMAINING_MIP_LEVELS);
ResourceUse colorAttachmentWrite(SlotId s);
ResourceUse depthAttachmentWrite(SlotId s);  // depth test + write
ResourceUse depthSampled(SlotId s, VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
}  // namespace use

struct PassDesc {
    std::string name;
    std::vector<ResourceUse> uses;
    bool sideEffect = false;  // kept even if nothing reads what it writes
    bool graphics = false;    // records inside the host's rendering scope (geometry passes)
};

// What the host bound to a slot this frame.
struct SlotBinding {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;
    // Upload/Readback buffers: the host address of byte `offset` of `buffer` (the binding's first byte,
    // not the start of the VkDeviceMemory allocation), valid while the slot is bound. Ignored otherwise.
    void* mapped = nullptr;
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;  // all mips
    std::vector<VkImageView> mipViews;  // one per mip (images only)
    // Images: the bound image's extent. A plugin refuses an image whose extent is given and is not the
    // declared one (0 x 0: not checked).
    VkExtent2D extent{0, 0};
};

// A range of a buffer the host owns.
struct BufferRange {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize size = VK_WHOLE_SIZE;
};

struct Bindings {
    std::span<const SlotBinding> slots;
    const SlotBinding& operator[](SlotId s) const { return slots[s]; }
};

struct FrameInfo {
    uint64_t frameIndex = 0;  // increases by one per frame
    uint32_t frameSlot = 0;   // frameIndex % framesInFlight
    uint32_t framesInFlight = 2;
};

// Every call that can fail returns a Result; the last error is also kept here so that a generic host
// (one that only knows Plugin) can show it. prepare() starts a frame and clears it: one frame's error
// never poisons the next.
class Plugin {
public:
    virtual ~Plugin() = default;
    virtual std::span<const SlotDesc> slots() const = 0;
    virtual std::span<const PassDesc> passes() const = 0;
    // CPU work for the frame (it decides the frame's parameters; they reach the Upload slot when record()
    // records the frame's first pass, not here). Never waits for the GPU. After an error the frame's
    // passes still record something valid, with the exceptions the plugin's header names.
    virtual Result<void> prepare(const FrameInfo& frame) = 0;
    // Records pass `pass` (index into passes()). Never submits, waits or allocates device memory. An
    // error found before recording (unknown pass, record() without its prepare(), a bad binding) records
    // nothing of the pass: what the pass writes is not written this frame and keeps whatever its memory
    // held (for the culling plugin's stream counts see sieve/culling.h, at CullingPlugin::kCountsLate).
    virtual Result<void> record(uint32_t pass, VkCommandBuffer cmd, const Bindings& bindings,
                                const FrameInfo& frame) = 0;
    // The last error of the current frame ("" when none).
    const std::string& lastError() const { return lastError_; }

protected:
    Error fail(Error e) {
        lastError_ = e.message;
        return e;
    }
    void clearError() { lastError_.clear(); }

private:
    std::string lastError_;
};

}  // namespace sieve
