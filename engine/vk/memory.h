#pragma once
// A small device-memory sub-allocator (VMA is not packaged in Debian 12): large blocks per memory type,
// first-fit free lists with alignment, dedicated allocations for large resources.
#include <volk.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "sieve/result.h"

namespace engine {

enum class MemoryUsage { DeviceLocal, Upload, Readback };

struct Allocation {
    uint32_t block = UINT32_MAX;  // UINT32_MAX: none
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;
    void* mapped = nullptr;  // host-visible allocations stay mapped
    explicit operator bool() const { return memory != VK_NULL_HANDLE; }
};

class Allocator {
public:
    Allocator(VkPhysicalDevice physical, VkDevice device);
    ~Allocator();
    sieve::Result<Allocation> allocate(const VkMemoryRequirements& req, MemoryUsage usage);
    void free(const Allocation& a);
    VkDeviceSize bytesInUse() const;
    VkDeviceSize blockBytes() const;

private:
    struct Range {
        VkDeviceSize offset, size;
    };
    struct Block {
        VkDeviceMemory memory = VK_NULL_HANDLE;
        uint32_t type = 0;
        VkDeviceSize size = 0;
        void* mapped = nullptr;
        bool dedicated = false;
        std::vector<Range> freeRanges;  // sorted by offset
    };
    int findType(uint32_t bits, MemoryUsage usage) const;
    VkDevice device_;
    VkPhysicalDeviceMemoryProperties props_{};
    VkDeviceSize bufferImageGranularity_ = 1;
    std::vector<Block> blocks_;
    VkDeviceSize inUse_ = 0;
    mutable std::mutex mutex_;
};

}  // namespace engine
