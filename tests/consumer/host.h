#pragma once
// The consumer's own Vulkan set-up, written against volk and the Vulkan headers only (no Sieve engine):
// what any host does before it hands its device to the plugin.
#include <volk.h>

#include <cstdint>
#include <functional>

namespace host {

// Prints the message and ends the program (a test program; the plugin itself never exits).
[[noreturn]] void fail(const char* what, VkResult result = VK_SUCCESS);
inline void check(VkResult result, const char* what) {
    if (result != VK_SUCCESS) fail(what, result);
}

class Device {
public:
    // Vulkan 1.3 instance (with the validation layer when it is installed), the first device that has
    // what Sieve requires, one compute queue and a command pool.
    Device();
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    VkPhysicalDevice physical() const { return physical_; }
    VkDevice device() const { return device_; }
    bool validation() const { return messenger_ != VK_NULL_HANDLE; }
    static uint32_t validationMessages();

    // Records with `record`, submits, and waits for the queue to finish.
    void submitAndWait(const std::function<void(VkCommandBuffer)>& record) const;

private:
    void createInstance();
    void createDevice();
    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    uint32_t family_ = 0;
    VkQueue queue_ = VK_NULL_HANDLE;
    VkCommandPool pool_ = VK_NULL_HANDLE;
};

// A host-visible, coherent storage buffer, mapped for its whole life.
class Buffer {
public:
    Buffer(const Device& device, VkDeviceSize bytes);
    ~Buffer();
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    VkBuffer handle() const { return buffer_; }
    VkDeviceSize size() const { return size_; }
    uint32_t* words() const { return static_cast<uint32_t*>(mapped_); }

private:
    VkDevice device_ = VK_NULL_HANDLE;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkDeviceSize size_ = 0;
    void* mapped_ = nullptr;
};

}  // namespace host
