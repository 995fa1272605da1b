#include "engine/vk/memory.h"

#include <algorithm>
#include <string>

namespace engine {

namespace {
constexpr VkDeviceSize kBlockSize = 64ull << 20;
constexpr VkDeviceSize kDedicatedThreshold = 16ull << 20;
VkDeviceSize alignUp(VkDeviceSize v, VkDeviceSize a) {
    return (v + a - 1) / a * a;
}
}  // namespace

Allocator::Allocator(VkPhysicalDevice physical, VkDevice device) : device_(device) {
    vkGetPhysicalDeviceMemoryProperties(physical, &props_);
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(physical, &p);
    // Buffers and optimal images may share a block: align everything to the granularity.
    bufferImageGranularity_ = std::max<VkDeviceSize>(1, p.limits.bufferImageGranularity);
}

Allocator::~Allocator() {
    for (Block& b : blocks_)
        if (b.memory) vkFreeMemory(device_, b.memory, nullptr);
}

int Allocator::findType(uint32_t bits, MemoryUsage usage) const {
    VkMemoryPropertyFlags want = 0, prefer = 0;
    switch (usage) {
        case MemoryUsage::DeviceLocal: prefer = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT; break;
        case MemoryUsage::Upload:
            want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
            break;
        case MemoryUsage::Stream:
            want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
            prefer = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
            break;
        case MemoryUsage::Readback:
            want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
            prefer = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
            break;
    }
    int fallback = -1;
    for (uint32_t i = 0; i < props_.memoryTypeCount; ++i) {
        if (!(bits & (1u << i))) continue;
        VkMemoryPropertyFlags f = props_.memoryTypes[i].propertyFlags;
        if ((f & want) != want) continue;
        if ((f & prefer) == prefer) return int(i);
        if (fallback < 0) fallback = int(i);
    }
    return fallback;
}

sieve::Result<Allocation> Allocator::allocate(const VkMemoryRequirements& req, MemoryUsage usage) {
    const int type = findType(req.memoryTypeBits, usage);
    if (type < 0) return sieve::makeError(VK_ERROR_OUT_OF_DEVICE_MEMORY, "no suitable memory type");
    const bool host = usage != MemoryUsage::DeviceLocal ||
                      (props_.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
    auto a = allocateType(req, type, host);
    if (!a && usage == MemoryUsage::Stream) {  // the device-local host-visible heap is small: fall back
        const int upload = findType(req.memoryTypeBits, MemoryUsage::Upload);
        if (upload >= 0 && upload != type) return allocateType(req, upload, true);
    }
    return a;
}

sieve::Result<Allocation> Allocator::allocateType(const VkMemoryRequirements& req, int type, bool host) {
    const VkDeviceSize align = std::max(req.alignment, bufferImageGranularity_);
    const VkDeviceSize size = alignUp(std::max<VkDeviceSize>(req.size, 1), bufferImageGranularity_);
    std::lock_guard lock(mutex_);

    auto carve = [&](uint32_t bi) -> Allocation {
        Block& b = blocks_[bi];
        for (size_t r = 0; r < b.freeRanges.size(); ++r) {
            Range& fr = b.freeRanges[r];
            VkDeviceSize start = alignUp(fr.offset, align);
            if (start + size > fr.offset + fr.size) continue;
            Range before{fr.offset, start - fr.offset};
            Range after{start + size, fr.offset + fr.size - (start + size)};
            b.freeRanges.erase(b.freeRanges.begin() + long(r));
            if (after.size) b.freeRanges.insert(b.freeRanges.begin() + long(r), after);
            if (before.size) b.freeRanges.insert(b.freeRanges.begin() + long(r), before);
            inUse_ += size;
            return {bi, b.memory, start, size, b.mapped ? static_cast<char*>(b.mapped) + start : nullptr};
        }
        return {};
    };

    if (size < kDedicatedThreshold) {
        for (uint32_t bi = 0; bi < blocks_.size(); ++bi)
            if (blocks_[bi].memory && !blocks_[bi].dedicated && blocks_[bi].type == uint32_t(type))
                if (Allocation a = carve(bi)) return a;
    }
    Block b;
    b.type = uint32_t(type);
    b.dedicated = size >= kDedicatedThreshold;
    b.size = b.dedicated ? size : kBlockSize;
    VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    info.allocationSize = b.size;
    info.memoryTypeIndex = uint32_t(type);
    VkResult r = vkAllocateMemory(device_, &info, nullptr, &b.memory);
    if (r != VK_SUCCESS)
        return sieve::makeError(
            r, "vkAllocateMemory of " + std::to_string(b.size) + " bytes failed: " + sieve::vkResultName(r));
    if (host) {
        r = vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped);
        if (r != VK_SUCCESS) {
            vkFreeMemory(device_, b.memory, nullptr);
            return sieve::makeError(r, "vkMapMemory failed");
        }
    }
    b.freeRanges.push_back({0, b.size});
    uint32_t slot = uint32_t(blocks_.size());
    for (uint32_t i = 0; i < blocks_.size(); ++i)
        if (!blocks_[i].memory) {
            slot = i;
            break;
        }
    if (slot == blocks_.size())
        blocks_.push_back(std::move(b));
    else
        blocks_[slot] = std::move(b);
    return carve(slot);
}

void Allocator::free(const Allocation& a) {
    if (!a) return;
    std::lock_guard lock(mutex_);
    Block& b = blocks_[a.block];
    inUse_ -= a.size;
    if (b.dedicated) {
        vkFreeMemory(device_, b.memory, nullptr);
        b = Block{};
        return;
    }
    auto it = std::lower_bound(b.freeRanges.begin(), b.freeRanges.end(), a.offset,
                               [](const Range& r, VkDeviceSize off) { return r.offset < off; });
    it = b.freeRanges.insert(it, Range{a.offset, a.size});
    // Merge with the neighbours.
    if (it + 1 != b.freeRanges.end() && it->offset + it->size == (it + 1)->offset) {
        it->size += (it + 1)->size;
        b.freeRanges.erase(it + 1);
    }
    if (it != b.freeRanges.begin() && (it - 1)->offset + (it - 1)->size == it->offset) {
        (it - 1)->size += it->size;
        b.freeRanges.erase(it);
    }
}

VkDeviceSize Allocator::bytesInUse() const {
    std::lock_guard lock(mutex_);
    return inUse_;
}

VkDeviceSize Allocator::blockBytes() const {
    std::lock_guard lock(mutex_);
    VkDeviceSize total = 0;
    for (const Block& b : blocks_) total += b.memory ? b.size : 0;
    return total;
}

}  // namespace engine
