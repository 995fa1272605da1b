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

// Upload: host-written staging and uploads (host-visible, coherent). Stream: small data the host writes
// and shaders read every frame (the plugins' per-frame parameters): device-local as well where the device
// has such a type (the PCIe BAR window), so that no shader reads it across the bus; else as Upload, and
// as Upload too when that heap is full. Readback: device-written data the host reads (cached if offered).
enum class MemoryUsage { DeviceLocal, Upload, Stream, Readback };

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
    sieve::Result<Allocation> allocateType(const VkMemoryRequirements& req, int type, bool host);
    VkDevice device_;
    VkPhysicalDeviceMemoryProperties props_{};
    VkDeviceSize bufferImageGranularity_ = 1;
    std::vector<Block> blocks_;
    VkDeviceSize inUse_ = 0;
    mutable std::mutex mutex_;
};

}  // namespace engine
