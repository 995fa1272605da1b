#include "cull/stage.h"

namespace sieve::cull {

SlotId SlotTable::buffer(std::string name, Lifetime life, VkDeviceSize size, VkBufferUsageFlags usage, Memory memory) {
    SlotDesc d;
    d.name = std::move(name);
    d.kind = SlotKind::Buffer;
    d.lifetime = life;
    d.size = size;
    d.bufferUsage = usage;
    d.memory = memory;
    descs_.push_back(std::move(d));
    return SlotId(descs_.size() - 1);
}

SlotId SlotTable::image(std::string name, Lifetime life, VkFormat format, VkExtent2D extent, uint32_t mips,
                        VkImageUsageFlags usage, VkSampleCountFlagBits samples) {
    SlotDesc d;
    d.name = std::move(name);
    d.kind = SlotKind::Image;
    d.lifetime = life;
    d.format = format;
    d.extent = extent;
    d.mipLevels = mips;
    d.imageUsage = usage;
    d.samples = samples;
    descs_.push_back(std::move(d));
    return SlotId(descs_.size() - 1);
}

SlotId SlotTable::find(std::string_view name) const {
    for (size_t i = 0; i < descs_.size(); ++i)
        if (descs_[i].name == name) return SlotId(i);
    return kNoSlot;
}

SlotId SlotTable::require(std::string_view name) {
    SlotId s = find(name);
    if (s == kNoSlot) missing_ += (missing_.empty() ? "" : ", ") + std::string(name);
    return s;
}

}  // namespace sieve::cull
