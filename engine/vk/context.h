#pragma once
// The Vulkan context of the reference host: instance, debug messenger, physical-device choice, device,
// one graphics+compute queue, and the memory allocator.
#include <volk.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/vk/memory.h"
#include "sieve/gpu.h"
#include "sieve/result.h"

namespace engine {

using sieve::Result;

struct ContextDesc {
    const char* appName = "sieve";
    bool validation = false;                      // VK_LAYER_KHRONOS_validation (also on when SIEVE_VALIDATION=1)
    bool syncValidation = false;                  // synchronization validation (needs validation)
    std::vector<const char*> instanceExtensions;  // e.g. from glfwGetRequiredInstanceExtensions
    bool swapchain = false;                       // enable VK_KHR_swapchain on the device
    // Use the device as a Vulkan 1.2 one (the 1.3 functionality from KHR extensions) even where it offers
    // 1.3, so that tests can cover the path RenderDoc's capture layer forces. Also on when
    // SIEVE_FORCE_VULKAN12=1.
    bool forceVulkan12 = false;
    // Describe the device to the plugin as one at the Vulkan 1.3 minimum limits the plugin depends on (4
    // storage images per stage, 16 KiB of shared memory, 128 invocations per workgroup, no 64-bit atomics,
    // no mesh shaders, no drawIndirectCount), so that tests run every fallback on any device. Also on when
    // SIEVE_MIN_DEVICE=1.
    bool minimumDevice = false;
};

class Context {
public:
    static Result<std::unique_ptr<Context>> create(const ContextDesc& desc);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    VkInstance instance() const { return instance_; }
    VkPhysicalDevice physical() const { return physical_; }
    VkDevice device() const { return device_; }
    VkQueue queue() const { return queue_; }
    uint32_t queueFamily() const { return queueFamily_; }
    const sieve::DeviceInfo& info() const { return info_; }
    // What the engine handed sieve::describeDevice (its extension names and feature chain live as long as the
    // context), for describing the device again: tests interpose on the plugin's entry points with it.
    const sieve::DeviceSetup& deviceSetup() const { return setup_; }
    const VkPhysicalDeviceProperties& properties() const { return properties_; }
    Allocator& allocator() { return *allocator_; }
    bool validationEnabled() const { return validation_; }
    // False when the device is used as Vulkan 1.2 plus VK_KHR_synchronization2, VK_KHR_dynamic_rendering and
    // VK_KHR_maintenance4 (RenderDoc 1.24's capture layer caps devices at 1.2). The core 1.3 entry points
    // (vkCmdPipelineBarrier2, vkCmdBeginRendering, ...) work on both paths: on this one they are pointed
    // at the KHR functions.
    bool core13() const { return core13_; }
    // The optional samplerAnisotropy feature is enabled (textured materials filter anisotropically).
    bool samplerAnisotropy() const { return samplerAnisotropy_; }
    // VK_EXT_mesh_shader's meshShaderQueries feature is enabled (VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT);
    // false wherever the plugin's mesh path is unavailable (DeviceInfo::meshShader false).
    bool meshShaderQueries() const { return meshShaderQueries_ && info_.meshShader; }
    // VK_KHR_pipeline_executable_properties' pipelineExecutableInfo is enabled: pipelines created with
    // sieve::DeviceInfo::captureStatistics report the driver's statistics (sieve-bench shaders).
    bool pipelineExecutableInfo() const { return pipelineExecutableInfo_; }

    // Validation messages (warnings and errors) seen so far; tests fail on any.
    uint32_t validationMessageCount() const { return messageCount_; }
    std::vector<std::string> validationMessages() const;
    void clearValidationMessages();

    // Records and submits one command buffer and waits for it. For setup, uploads and tests; never in a
    // frame loop.
    Result<void> submitNow(const std::function<void(VkCommandBuffer)>& record);

    // Instance extensions and device features the engine requires, for messages.
    static const char* requirementsText();

private:
    Context() = default;
    static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                    VkDebugUtilsMessageTypeFlagsEXT types,
                                                    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);
    Result<void> createInstance(const ContextDesc& desc);
    Result<void> pickPhysicalDevice();
    Result<void> createDevice(const ContextDesc& desc);
    Result<void> aliasKhrEntryPoints();

    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkPhysicalDeviceProperties properties_{};
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t queueFamily_ = 0;
    VkCommandPool oneShotPool_ = VK_NULL_HANDLE;
    VkFence oneShotFence_ = VK_NULL_HANDLE;
    struct Enabled;  // the device's extension names and feature chain, which setup_ points into
    std::unique_ptr<Enabled> enabled_;
    sieve::DeviceSetup setup_;
    sieve::DeviceInfo info_;
    std::unique_ptr<Allocator> allocator_;
    bool validation_ = false;
    bool core13_ = true;
    bool samplerAnisotropy_ = false;
    bool meshShaderQueries_ = false;
    bool pipelineExecutableInfo_ = false;
    std::atomic<uint32_t> messageCount_{0};
    mutable std::mutex messageMutex_;
    std::vector<std::string> messages_;
};

}  // namespace engine
