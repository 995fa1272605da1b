#include "core/stage.h"

namespace sieve {

SlotId SlotTable::buffer(std::string name, Lifetime life, VkDeviceSize size, VkBufferUsageFlags usage, Memory memory) {
    descs_.push_back(bufferSlot(std::move(name), life, size, usage, memory));
    return SlotId(descs_.size() - 1);
}

SlotId SlotTable::image(std::string name, Lifetime life, VkFormat format, VkExtent2D extent, uint32_t mips,
                        VkImageUsageFlags usage, VkSampleCountFlagBits samples) {
    descs_.push_back(imageSlot(std::move(name), life, format, extent, mips, usage, samples));
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

}  // namespace sieve
