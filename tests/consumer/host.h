#pragma once
// The consumer's own Vulkan set-up, written against the loader's ordinary prototypes (libvulkan, no
// VK_NO_PROTOTYPES, no volk) and the plugin's public header only: what any host does before it hands its
// device to the plugin.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sieve/sieve.h"

namespace host {

// Prints the message and ends the program (a test program; the plugin itself never exits).
[[noreturn]] void fail(const char* what, VkResult result = VK_SUCCESS);
inline void check(VkResult result, const char* what) {
    if (result != VK_SUCCESS) fail(what, result);
}

class Device {
public:
    // Vulkan 1.3 instance (with the validation layer when it is installed), the first device that has
    // what Sieve requires, one compute queue and a command pool. Sieve's optional features are enabled
    // where the device has them; drawIndirectCount = false leaves that one off, as on a device without it.
    explicit Device(bool drawIndirectCount = true);
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    VkPhysicalDevice physical() const { return physical_; }
    VkDevice device() const { return device_; }
    uint32_t family() const { return family_; }
    // What the host enabled, for sieve::describeDevice.
    sieve::DeviceSetup setup() const;
    bool validation() const { return messenger_ != VK_NULL_HANDLE; }
    static uint32_t validationMessages();

    // Records with `record`, submits, and waits for the queue to finish.
    void submitAndWait(const std::function<void(VkCommandBuffer)>& record) const;

private:
    struct Features;
    void destroy();
    void createInstance();
    void createDevice(bool drawIndirectCount);
    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    uint32_t family_ = 0;
    VkQueue queue_ = VK_NULL_HANDLE;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    std::vector<const char*> extensions_;
    std::unique_ptr<Features> features_;
};

// A host-visible, coherent storage buffer, mapped for its whole life.
// The index of a memory type of `bits` with `flags`; fails the program when there is none.
uint32_t memoryType(VkPhysicalDevice physical, uint32_t bits, VkMemoryPropertyFlags flags);

class Buffer {
public:
    // Host-visible buffers stay mapped (words()); device-local ones are not mapped.
    Buffer(const Device& device, VkDeviceSize bytes,
           VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT,
           bool hostVisible = true);
    ~Buffer();
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    VkBuffer handle() const { return buffer_; }
    VkDeviceSize size() const { return size_; }
    uint32_t* words() const { return static_cast<uint32_t*>(mapped_); }
    void* mapped() const { return mapped_; }

private:
    VkDevice device_ = VK_NULL_HANDLE;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkDeviceSize size_ = 0;
    void* mapped_ = nullptr;
};

}  // namespace host
