#include "core/bindings.h"

#include <string>

namespace sieve {

namespace {

// What is wrong with a buffer slot's binding ("" when nothing).
std::string bufferProblem(const SlotDesc& d, const SlotBinding& got) {
    if (!got.buffer) return "no buffer";
    // Imported tables are the host's: as large as its scene (the declared size is for the configured maximum).
    if (d.lifetime != Lifetime::Imported && got.size && got.size < d.size)
        return std::to_string(got.size) + " bytes, needs " + std::to_string(d.size);
    if (d.memory != Memory::Device && !got.mapped) return "not mapped";
    return {};
}

std::string imageProblem(const SlotDesc& d, const SlotBinding& got) {
    if (!got.view || !got.image) return "no image";
    if (d.mipLevels > 1 && got.mipViews.size() < d.mipLevels) return "fewer mip views than mips";
    // An image of another size than declared (a depth attachment resized without resize()) would be read as
    // if it had the declared extent: rejected where the host says its extent.
    if (got.extent.width && (got.extent.width != d.extent.width || got.extent.height != d.extent.height))
        return "an image of " + std::to_string(got.extent.width) + " x " + std::to_string(got.extent.height) +
               ", declared " + std::to_string(d.extent.width) + " x " + std::to_string(d.extent.height) +
               " (call resize() when the depth attachment changes)";
    return {};
}

}  // namespace

Result<void> checkPassBindings(std::span<const SlotDesc> slots, const PassDesc& pass, const Bindings& b) {
    if (b.slots.size() < slots.size())
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "pass " + pass.name + ": " + std::to_string(b.slots.size()) +
                                                             " slot bindings for " + std::to_string(slots.size()) +
                                                             " slots");
    for (const ResourceUse& u : pass.uses) {
        const SlotDesc& d = slots[u.slot];
        const std::string what = d.kind == SlotKind::Buffer ? bufferProblem(d, b[u.slot]) : imageProblem(d, b[u.slot]);
        if (!what.empty())
            return makeError(VK_ERROR_INITIALIZATION_FAILED,
                             "pass " + pass.name + ": slot " + d.name + " is bound with " + what);
    }
    return {};
}

Result<void> checkInstanceCount(const char* plugin, uint32_t n, uint32_t maxInstances) {
    if (n > maxInstances)
        return makeError(VK_ERROR_INITIALIZATION_FAILED, std::string(plugin) + ": " + std::to_string(n) +
                                                             " instances exceed maxInstances " +
                                                             std::to_string(maxInstances));
    return {};
}

}  // namespace sieve
