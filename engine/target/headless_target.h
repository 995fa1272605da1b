#pragma once
// Offscreen target: one colour image (R8G8B8A8_UNORM, colour attachment + transfer src) and one depth
// image per frame in flight. Ended frames are left in TRANSFER_SRC_OPTIMAL, ready to be read back.
#include <memory>
#include <string>
#include <vector>

#include "engine/target/target.h"

namespace engine {

struct HeadlessTargetDesc {
    VkExtent2D extent{1280, 720};
    VkFormat colorFormat = VK_FORMAT_R8G8B8A8_UNORM;  // or VK_FORMAT_B8G8R8A8_UNORM
    uint32_t framesInFlight = 2;
    VkFormat depthFormat = kDepthFormat;  // any sieve::isDepthFormat the device renders and samples
};

class HeadlessTarget final : public Target {
public:
    static sieve::Result<std::unique_ptr<HeadlessTarget>> create(Context& ctx, const HeadlessTargetDesc& desc);
    ~HeadlessTarget() override;

    VkExtent2D extent() const override { return desc_.extent; }
    VkFormat colorFormat() const override { return desc_.colorFormat; }

    // Writes the colour of the last ended frame to a PNG. Waits for the GPU (outside the frame loop only).
    sieve::Result<void> readback(const std::string& path);
    // The same pixels, tightly packed 8-bit RGBA (BGRA formats are swizzled to RGBA). Empty if no frame ended.
    sieve::Result<std::vector<uint8_t>> readbackPixels();

protected:
    sieve::Result<Acquired> acquire(uint32_t slot) override;
    VkImageLayout finalColorLayout() const override { return VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL; }
    sieve::Result<void> present(uint32_t slot) override;

private:
    HeadlessTarget(Context& ctx, const HeadlessTargetDesc& desc)
        : Target(ctx, desc.framesInFlight, desc.depthFormat), desc_(desc) {}
    HeadlessTargetDesc desc_;
    std::vector<Image> colors_;  // one per frame slot, so frames in flight never share a colour image
    int lastEnded_ = -1;         // slot of the last ended frame
};

}  // namespace engine
