#include "host.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace host {
namespace {

std::atomic<uint32_t> gValidationMessages{0};

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
    std::fprintf(stderr, "[vulkan] %s\n", data->pMessage);
    ++gValidationMessages;
    return VK_FALSE;
}

bool hasLayer(const char* name) {
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    for (const auto& l : layers)
        if (std::strcmp(l.layerName, name) == 0) return true;
    return false;
}

bool hasExtension(const std::vector<VkExtensionProperties>& list, const char* name) {
    for (const auto& e : list)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

// The features Sieve requires of the host's device (the list engine::Context::requirementsText gives),
// chained for both the query and the device creation.
struct Features {
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    Features() {
        f2.pNext = &f11;
        f11.pNext = &f12;
        f12.pNext = &f13;
    }
    Features(const Features&) = delete;
};

// Fills `want` from `have`; returns the first required feature the device lacks, or nullptr.
const char* selectFeatures(const Features& have, Features& want) {
    struct Need {
        VkBool32 have;
        VkBool32* want;
        const char* name;  // nullptr: optional, enabled when present
    };
    const Need list[] = {
        {have.f2.features.multiDrawIndirect, &want.f2.features.multiDrawIndirect, "multiDrawIndirect"},
        {have.f2.features.drawIndirectFirstInstance, &want.f2.features.drawIndirectFirstInstance,
         "drawIndirectFirstInstance"},
        {have.f2.features.shaderInt64, &want.f2.features.shaderInt64, nullptr},
        {have.f11.shaderDrawParameters, &want.f11.shaderDrawParameters, "shaderDrawParameters"},
        {have.f11.storageBuffer16BitAccess, &want.f11.storageBuffer16BitAccess, "storageBuffer16BitAccess"},
        {have.f12.drawIndirectCount, &want.f12.drawIndirectCount, "drawIndirectCount"},
        {have.f12.samplerFilterMinmax, &want.f12.samplerFilterMinmax, "samplerFilterMinmax"},
        {have.f12.hostQueryReset, &want.f12.hostQueryReset, "hostQueryReset"},
        {have.f12.scalarBlockLayout, &want.f12.scalarBlockLayout, "scalarBlockLayout"},
        {have.f12.storageBuffer8BitAccess, &want.f12.storageBuffer8BitAccess, "storageBuffer8BitAccess"},
        {have.f12.shaderInt8, &want.f12.shaderInt8, "shaderInt8"},
        {have.f12.vulkanMemoryModel, &want.f12.vulkanMemoryModel, nullptr},
        {have.f12.vulkanMemoryModelDeviceScope, &want.f12.vulkanMemoryModelDeviceScope, nullptr},
        {have.f13.synchronization2, &want.f13.synchronization2, "synchronization2"},
        {have.f13.dynamicRendering, &want.f13.dynamicRendering, "dynamicRendering"},
        {have.f13.maintenance4, &want.f13.maintenance4, "maintenance4"},
        {have.f13.subgroupSizeControl, &want.f13.subgroupSizeControl, nullptr},
        {have.f13.computeFullSubgroups, &want.f13.computeFullSubgroups, nullptr},
    };
    for (const Need& n : list) {
        if (!n.have && n.name) return n.name;
        *n.want = n.have;
    }
    return nullptr;
}

}  // namespace

void fail(const char* what, VkResult result) {
    std::fprintf(stderr, "sieve_consumer: %s (VkResult %d)\n", what, int(result));
    std::exit(1);
}

uint32_t Device::validationMessages() {
    return gValidationMessages.load();
}

Device::Device() {
    check(volkInitialize(), "volkInitialize: no Vulkan loader");
    if (volkGetInstanceVersion() < VK_API_VERSION_1_3) fail("the Vulkan loader is older than 1.3");
    createInstance();
    createDevice();
}

void Device::createInstance() {
    uint32_t count = 0;
    vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> available(count);
    vkEnumerateInstanceExtensionProperties(nullptr, &count, available.data());
    // Validation when the layer is installed: the plugin must not make a correct host invalid.
    const bool validation =
        hasLayer("VK_LAYER_KHRONOS_validation") && hasExtension(available, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    std::vector<const char*> layers, extensions;
    if (validation) {
        layers.push_back("VK_LAYER_KHRONOS_validation");
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }

    VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    messenger.pfnUserCallback = onMessage;

    // Synchronization validation too: the barriers between the host's commands and the plugin's are
    // part of what this program shows.
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;
    features.pNext = &messenger;

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "sieve_consumer";
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pNext = validation ? &features : nullptr;
    info.pApplicationInfo = &app;
    info.enabledLayerCount = uint32_t(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = uint32_t(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    check(vkCreateInstance(&info, nullptr, &instance_), "vkCreateInstance");
    volkLoadInstance(instance_);
    if (validation)
        check(vkCreateDebugUtilsMessengerEXT(instance_, &messenger, nullptr, &messenger_),
              "vkCreateDebugUtilsMessengerEXT");
}

void Device::createDevice() {
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance_, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance_, &count, devices.data());

    Features want;
    const char* missing = "no Vulkan device";
    for (VkPhysicalDevice candidate : devices) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(candidate, &props);
        if (props.apiVersion < VK_API_VERSION_1_3) {
            missing = "Vulkan 1.3";
            continue;
        }
        vkEnumerateDeviceExtensionProperties(candidate, nullptr, &count, nullptr);
        std::vector<VkExtensionProperties> extensions(count);
        vkEnumerateDeviceExtensionProperties(candidate, nullptr, &count, extensions.data());
        if (!hasExtension(extensions, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
            missing = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
            continue;
        }
        Features have;
        vkGetPhysicalDeviceFeatures2(candidate, &have.f2);
        if ((missing = selectFeatures(have, want))) continue;

        vkGetPhysicalDeviceQueueFamilyProperties(candidate, &count, nullptr);
        std::vector<VkQueueFamilyProperties> families(count);
        vkGetPhysicalDeviceQueueFamilyProperties(candidate, &count, families.data());
        missing = "a compute queue";
        for (uint32_t i = 0; i < count && missing; ++i) {
            if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
                family_ = i;
                missing = nullptr;
            }
        }
        if (!missing) {
            physical_ = candidate;
            std::printf("device: %s\n", props.deviceName);
            break;
        }
    }
    if (!physical_) {
        std::fprintf(stderr, "sieve_consumer: no device has %s\n", missing);
        std::exit(1);
    }

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = family_;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    const char* extensions[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.pNext = &want.f2;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = extensions;
    check(vkCreateDevice(physical_, &info, nullptr, &device_), "vkCreateDevice");
    volkLoadDevice(device_);
    vkGetDeviceQueue(device_, family_, 0, &queue_);

    VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pool.queueFamilyIndex = family_;
    check(vkCreateCommandPool(device_, &pool, nullptr, &pool_), "vkCreateCommandPool");
}

Device::~Device() {
    if (device_) {
        vkDeviceWaitIdle(device_);
        vkDestroyCommandPool(device_, pool_, nullptr);
        vkDestroyDevice(device_, nullptr);
    }
    if (messenger_) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    if (instance_) vkDestroyInstance(instance_, nullptr);
}

void Device::submitAndWait(const std::function<void(VkCommandBuffer)>& record) const {
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    check(vkAllocateCommandBuffers(device_, &alloc, &cmd), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
    record(cmd);
    check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    VkCommandBufferSubmitInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cmdInfo.commandBuffer = cmd;
    VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &cmdInfo;
    check(vkQueueSubmit2(queue_, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit2");
    // A test program: waiting for the queue is fine here (a frame loop would use a fence ring).
    check(vkQueueWaitIdle(queue_), "vkQueueWaitIdle");
    vkFreeCommandBuffers(device_, pool_, 1, &cmd);
}

Buffer::Buffer(const Device& device, VkDeviceSize bytes) : device_(device.device()), size_(bytes) {
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = bytes;
    info.usage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    check(vkCreateBuffer(device_, &info, nullptr, &buffer_), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device_, buffer_, &req);
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(device.physical(), &props);
    const VkMemoryPropertyFlags need = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < props.memoryTypeCount && type == UINT32_MAX; ++i)
        if ((req.memoryTypeBits & (1u << i)) && (props.memoryTypes[i].propertyFlags & need) == need) type = i;
    if (type == UINT32_MAX) fail("no host-visible coherent memory type");
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = type;
    check(vkAllocateMemory(device_, &alloc, nullptr, &memory_), "vkAllocateMemory");
    check(vkBindBufferMemory(device_, buffer_, memory_, 0), "vkBindBufferMemory");
    check(vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_), "vkMapMemory");
}

Buffer::~Buffer() {
    vkDestroyBuffer(device_, buffer_, nullptr);
    vkFreeMemory(device_, memory_, nullptr);
}

}  // namespace host
