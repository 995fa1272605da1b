#pragma once
// A presentation target: where a frame is rendered (an offscreen image or a window's swapchain) and the
// per-frame-in-flight objects around it (command pool + buffer, fence, semaphores, depth image).
//
// Frame loop contract:
//   auto frame = target.beginFrame();   // waits that slot's fence: the ONLY wait in the frame loop
//   if (!frame) error; if (frame->skipped) continue;   // window minimized (0x0) or closing
//   ... record into frame->cmd ...
//   target.endFrame(end);               // transition colour to present / transfer-src, submit, present
//
// Who transitions what (the render graph treats colour and depth as imported slots):
//   - beginFrame hands the colour image in `colorLayout` (UNDEFINED: contents are discarded) and the depth
//     image in `depthLayout` (UNDEFINED). The first use must wait on `firstUseStage` (the stage the image
//     acquisition semaphore is waited at; NONE for headless) with no source access.
//   - The recorder (graph) transitions both to the layouts its passes use. The depth image belongs to this
//     frame slot, so frames in flight never share it and no cross-frame barrier is needed.
//   - endFrame is told the layout the colour image was left in and the stage/access of its last use; it
//     records the final transition itself (PRESENT_SRC_KHR for a window, TRANSFER_SRC_OPTIMAL headless).
//     Depth is left as it is.
#include <volk.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/vk/resources.h"
#include "sieve/plugin.h"
#include "sieve/result.h"

namespace engine {

class Context;

inline constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

struct Frame {
    bool skipped = false;                  // no frame this time (minimized window, or window closing): record nothing
    VkCommandBuffer cmd = VK_NULL_HANDLE;  // begun, one-time submit
    // Colour
    VkImage colorImage = VK_NULL_HANDLE;
    VkImageView colorView = VK_NULL_HANDLE;
    VkExtent2D extent{0, 0};
    VkFormat colorFormat = VK_FORMAT_UNDEFINED;
    VkImageLayout colorLayout = VK_IMAGE_LAYOUT_UNDEFINED;  // current layout (contents undefined)
    // Depth (owned by the target, one per frame slot, sized to the colour extent; kDepthFormat unless the
    // target was created with another)
    VkImage depthImage = VK_NULL_HANDLE;
    VkImageView depthView = VK_NULL_HANDLE;
    VkFormat depthFormat = kDepthFormat;
    VkImageLayout depthLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    // Source stage for the first barrier on the colour image (chains with the acquire semaphore).
    VkPipelineStageFlags2 firstUseStage = VK_PIPELINE_STAGE_2_NONE;
    // Layout endFrame moves the colour image to (for information: endFrame records that transition).
    VkImageLayout colorFinalLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    sieve::FrameInfo info;  // frameIndex, frameSlot, framesInFlight
};

// How the recorder left the colour image; endFrame transitions from there.
struct FrameEnd {
    VkImageLayout colorLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    VkPipelineStageFlags2 lastStage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    VkAccessFlags2 lastAccess = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
};

class Target {
public:
    virtual ~Target();
    Target(const Target&) = delete;
    Target& operator=(const Target&) = delete;

    sieve::Result<Frame> beginFrame();
    sieve::Result<void> endFrame(const FrameEnd& end = {});

    // Copies the colour image of the next frame that ends into host memory; the PNG is written once that
    // frame's fence has been waited for (a later beginFrame of the same slot, or finish()). No stall.
    void requestScreenshot(std::string path);
    // Ends a frame whose recording failed: drops what was recorded, submits the frame with its colour
    // image cleared (black) so that its acquired image and fence complete, and moves on to the next
    // frame. Nothing to do outside a frame. Hosts call it on any error between beginFrame and endFrame
    // (finish() does it too).
    sieve::Result<void> abandonFrame();
    // Ends a frame left open (abandonFrame), waits for every frame in flight and writes pending
    // screenshots. Outside the frame loop only.
    sieve::Result<void> finish();

    virtual VkExtent2D extent() const = 0;
    virtual VkFormat colorFormat() const = 0;
    uint32_t framesInFlight() const { return uint32_t(slots_.size()); }
    uint64_t frameIndex() const { return frameIndex_; }  // index the next beginFrame will use
    Context& context() const { return *ctx_; }

protected:
    Target(Context& ctx, uint32_t framesInFlight, VkFormat depthFormat = kDepthFormat);
    sieve::Result<void> createSlots();
    void destroySlots();
    // (Re)creates the per-slot depth images at the given extent; all slots must be idle.
    sieve::Result<void> createDepth(VkExtent2D extent);
    sieve::Result<void> waitAllSlots();

    // What a target implementation provides for the current frame.
    struct Acquired {
        bool skipped = false;
        VkImage image = VK_NULL_HANDLE;
        VkImageView view = VK_NULL_HANDLE;
        VkSemaphore waitSemaphore = VK_NULL_HANDLE;  // signalled when the image may be written
        VkPipelineStageFlags2 waitStage = VK_PIPELINE_STAGE_2_NONE;
        VkSemaphore signalSemaphore = VK_NULL_HANDLE;  // signalled when rendering completes (present waits)
    };
    // Called after the slot's fence was waited: acquire an image for slot `slot`.
    virtual sieve::Result<Acquired> acquire(uint32_t slot) = 0;
    virtual VkImageLayout finalColorLayout() const = 0;
    // Called after the submission: present (window) or remember the frame (headless).
    virtual sieve::Result<void> present(uint32_t slot) = 0;
    VkSemaphore slotSemaphore(uint32_t slot) const { return slots_[slot].acquireSemaphore; }

    Context* ctx_;

private:
    struct PendingShot {
        std::string path;
        VkExtent2D extent{0, 0};
        VkFormat format = VK_FORMAT_UNDEFINED;
    };
    struct Slot {
        VkCommandPool pool = VK_NULL_HANDLE;
        VkCommandBuffer cmd = VK_NULL_HANDLE;
        VkFence fence = VK_NULL_HANDLE;
        VkSemaphore acquireSemaphore = VK_NULL_HANDLE;
        Image depth;
        Buffer shotBuffer;       // host-visible copy of the colour image for a requested screenshot
        PendingShot shot;        // path empty: none pending
        bool submitted = false;  // a frame was submitted with this slot's fence
    };
    sieve::Result<void> writePendingShot(Slot& slot);

    std::vector<Slot> slots_;
    VkFormat depthFormat_ = kDepthFormat;
    uint64_t frameIndex_ = 0;
    bool inFrame_ = false;
    Acquired current_;
    Frame frame_;
    std::string requestedShot_;
};

// Writes tightly packed 8-bit RGBA or BGRA pixels as PNG (BGRA is swizzled). Alpha is forced opaque.
sieve::Result<void> writePng(const std::string& path, const uint8_t* pixels, VkExtent2D extent, VkFormat format);

}  // namespace engine
