#include "engine/vk/context.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

namespace engine {

namespace {

bool envFlag(const char* name) {
    const char* v = std::getenv(name);
    return v && *v && std::strcmp(v, "0") != 0;
}

bool hasExtension(const std::vector<VkExtensionProperties>& list, const char* name) {
    for (const auto& e : list)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

// Which extensions provide the Vulkan 1.3 functionality on a 1.2 device.
struct Khr12Extensions {
    bool synchronization2 = false;
    bool dynamicRendering = false;
    bool maintenance4 = false;
    bool meshShader = false;  // VK_EXT_mesh_shader (optional on every version: the cluster mesh path)
    // VK_KHR_pipeline_executable_properties (optional: sieve-bench shaders reads the driver's statistics)
    bool pipelineExecutable = false;
};

// The device features Sieve needs, chained for both the query and the device creation. On a 1.3 device the
// 1.3 features come from VkPhysicalDeviceVulkan13Features; on a 1.2 device (where that struct is unknown)
// from the structs of the extensions that provide them. f13 holds them on both paths, so that
// checkFeatures reads one set of names: fromExtensions/toExtensions copy between f13 and those structs.
struct Features {
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceSynchronization2Features sync2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES};
    VkPhysicalDeviceDynamicRenderingFeatures rendering{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES};
    VkPhysicalDeviceMaintenance4Features maintenance4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES};
    VkPhysicalDeviceMeshShaderFeaturesEXT mesh{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT};
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    const bool core13;
    const Khr12Extensions ext;

    Features(bool core13In, const Khr12Extensions& extIn) : core13(core13In), ext(extIn) {
        void** next = &f2.pNext;
        auto link = [&](auto& s) {
            *next = &s;
            next = &s.pNext;
        };
        link(f11);
        link(f12);
        if (ext.meshShader) link(mesh);
        if (ext.pipelineExecutable) link(executable);
        if (core13) {
            link(f13);
            return;
        }
        // Only structs of extensions the device offers: others are invalid in the chain.
        if (ext.synchronization2) link(sync2);
        if (ext.dynamicRendering) link(rendering);
        if (ext.maintenance4) link(maintenance4);
    }
    Features(const Features&) = delete;

    void fromExtensions() {
        if (core13) return;
        f13.synchronization2 = sync2.synchronization2;
        f13.dynamicRendering = rendering.dynamicRendering;
        f13.maintenance4 = maintenance4.maintenance4;
    }
    void toExtensions() {
        if (core13) return;
        sync2.synchronization2 = f13.synchronization2;
        rendering.dynamicRendering = f13.dynamicRendering;
        maintenance4.maintenance4 = f13.maintenance4;
    }
};

// The engine's own needs beside the plugin's (sieve::requirements): host query resets for its timestamps
// and maintenance4 for its allocator; optional: pipeline statistics (triangle counts), anisotropic
// texture filtering, and what lets the plugin's scan keep a tile's status in one 64-bit word or use the
// memory model's device scope.
// Returns the names of required features that `have` lacks, and fills `want` with what to enable.
std::vector<std::string> checkFeatures(const Features& have, Features& want) {
    std::vector<std::string> missing;
    auto need = [&](VkBool32 h, VkBool32& w, const char* name) {
        if (h)
            w = VK_TRUE;
        else
            missing.push_back(name);
    };
    auto optional = [&](VkBool32 h, VkBool32& w) { w = h; };
    optional(have.f2.features.pipelineStatisticsQuery, want.f2.features.pipelineStatisticsQuery);
    optional(have.f2.features.shaderInt64, want.f2.features.shaderInt64);
    optional(have.f2.features.samplerAnisotropy, want.f2.features.samplerAnisotropy);
    need(have.f12.hostQueryReset, want.f12.hostQueryReset, "hostQueryReset");
    optional(have.f12.shaderBufferInt64Atomics, want.f12.shaderBufferInt64Atomics);
    optional(have.f12.drawIndirectCount, want.f12.drawIndirectCount);  // sieve::kOptionalNeeds
    optional(have.f12.vulkanMemoryModel, want.f12.vulkanMemoryModel);
    optional(have.f12.vulkanMemoryModelDeviceScope, want.f12.vulkanMemoryModelDeviceScope);
    need(have.f13.maintenance4, want.f13.maintenance4, "maintenance4");
    optional(have.mesh.meshShader, want.mesh.meshShader);
    // The mesh path's mesh-primitives-generated query (engine/scene/draw_queries.h), only with mesh shaders.
    optional(have.mesh.meshShader && have.mesh.meshShaderQueries, want.mesh.meshShaderQueries);
    optional(have.executable.pipelineExecutableInfo, want.executable.pipelineExecutableInfo);
    // Everything the plugin needs, exactly as it lists it.
    sieve::enableRequiredFeatures({&want.f2, &want.f11, &want.f12, &want.f13, nullptr, nullptr});
    return missing;
}

}  // namespace

const char* Context::requirementsText() {
    return "Vulkan 1.3 (or 1.2 with VK_KHR_synchronization2, VK_KHR_dynamic_rendering and VK_KHR_maintenance4) "
           "with what the plugin lists (sieve::requirements: VK_KHR_push_descriptor, synchronization2, "
           "dynamicRendering, multiDrawIndirect, drawIndirectFirstInstance, shaderDrawParameters; "
           "drawIndirectCount where the device has it) and the engine's own hostQueryReset and maintenance4";
}

VKAPI_ATTR VkBool32 VKAPI_CALL Context::onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                  VkDebugUtilsMessageTypeFlagsEXT types,
                                                  const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    auto* self = static_cast<Context*>(user);
    const bool counted = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ||
                         ((severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) &&
                          (types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT));
    if (!counted) return VK_FALSE;
    std::string text =
        std::string(data->pMessageIdName ? data->pMessageIdName : "") + ": " + (data->pMessage ? data->pMessage : "");
    std::fprintf(stderr, "[vulkan] %s\n", text.c_str());
    std::lock_guard lock(self->messageMutex_);
    self->messages_.push_back(std::move(text));
    self->messageCount_++;
    return VK_FALSE;
}

std::vector<std::string> Context::validationMessages() const {
    std::lock_guard lock(messageMutex_);
    return messages_;
}

void Context::clearValidationMessages() {
    std::lock_guard lock(messageMutex_);
    messages_.clear();
    messageCount_ = 0;
}

namespace {

// The Vulkan 1.3 minimum limits (the spec's "Required Limits" table) of what the plugin reads from
// DeviceInfo, and none of the optional features it can do without (64-bit atomics, mesh shaders,
// drawIndirectCount).
void clampToMinimumDevice(sieve::DeviceInfo& info) {
    VkPhysicalDeviceLimits& l = info.limits;
    l.maxPerStageDescriptorStorageImages = std::min(l.maxPerStageDescriptorStorageImages, 4u);
    l.maxComputeSharedMemorySize = std::min(l.maxComputeSharedMemorySize, 16384u);
    l.maxComputeWorkGroupInvocations = std::min(l.maxComputeWorkGroupInvocations, 128u);
    const uint32_t size[3] = {128, 128, 64};
    for (int i = 0; i < 3; ++i) {
        l.maxComputeWorkGroupSize[i] = std::min(l.maxComputeWorkGroupSize[i], size[i]);
        l.maxComputeWorkGroupCount[i] = std::min(l.maxComputeWorkGroupCount[i], 65535u);
        info.maxComputeWorkGroupCount[i] = l.maxComputeWorkGroupCount[i];
    }
    l.maxStorageBufferRange = std::min(l.maxStorageBufferRange, 1u << 27);
    l.maxImageDimension2D = std::min(l.maxImageDimension2D, 4096u);
    info.bufferInt64Atomics = false;
    info.meshShader = false;
    info.enabled &= ~uint32_t(sieve::Need::DrawIndirectCount);  // streams drawn over their capacity
}

// Why vkCreateInstance failed, with the remedy where there is no driver at all.
std::string instanceFailure(VkResult r) {
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
        return "cannot create a Vulkan instance: no Vulkan driver supports it (VK_ERROR_INCOMPATIBLE_DRIVER); "
               "install one, e.g. mesa-vulkan-drivers";
    return std::string("cannot create a Vulkan instance: ") + sieve::vkResultName(r);
}

// Whether VK_LAYER_KHRONOS_validation is installed.
bool hasValidationLayer() {
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> props(count);
    vkEnumerateInstanceLayerProperties(&count, props.data());
    bool found = false;
    for (const auto& l : props) found |= std::strcmp(l.layerName, "VK_LAYER_KHRONOS_validation") == 0;
    return found;
}

// Warnings and errors of the general, validation and performance kinds, to `callback` with `user`.
VkDebugUtilsMessengerCreateInfoEXT messengerInfo(PFN_vkDebugUtilsMessengerCallbackEXT callback, void* user) {
    VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger.pfnUserCallback = callback;
    messenger.pUserData = user;
    return messenger;
}

// The device extensions to enable on a device used as Vulkan `api`: the plugin's, the engine's, the swapchain's
// and VK_EXT_mesh_shader where the device has it; `ext` says which a 1.2 device has; each required one
// the device lacks goes into `missing`.
std::vector<const char*> chooseExtensions(VkPhysicalDevice physical, uint32_t api, bool swapchain, Khr12Extensions& ext,
                                          std::vector<std::string>& missing) {
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> available(count);
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, available.data());
    std::vector<const char*> extensions = sieve::requirements(api).deviceExtensions;
    if (swapchain) extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
    if (api < VK_API_VERSION_1_3) {
        ext.synchronization2 = hasExtension(available, VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME);
        ext.dynamicRendering = hasExtension(available, VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME);
        ext.maintenance4 = hasExtension(available, VK_KHR_MAINTENANCE_4_EXTENSION_NAME);
        // Required ones go on the list unconditionally, so that a missing one is named below (the
        // plugin's are on it already).
        extensions.push_back(VK_KHR_MAINTENANCE_4_EXTENSION_NAME);
    }
    for (const char* e : extensions)
        if (!hasExtension(available, e)) missing.push_back(std::string("extension ") + e);
    // Optional: SIEVE_NO_MESH_SHADER=1 leaves it off (the cluster plugin then draws indirectly only).
    ext.meshShader = hasExtension(available, VK_EXT_MESH_SHADER_EXTENSION_NAME) && !std::getenv("SIEVE_NO_MESH_SHADER");
    if (ext.meshShader) extensions.push_back(VK_EXT_MESH_SHADER_EXTENSION_NAME);
    ext.pipelineExecutable = hasExtension(available, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    if (ext.pipelineExecutable) extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    return extensions;
}

// The first queue family with graphics, compute and timestamps.
std::optional<uint32_t> findQueueFamily(VkPhysicalDevice physical) {
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
    const VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    for (uint32_t i = 0; i < count; ++i)
        if ((families[i].queueFlags & need) == need && families[i].timestampValidBits > 0) return i;
    return std::nullopt;
}

// One queue of `family`, the features chain `features` and `extensions` enabled.
Result<VkDevice> createLogicalDevice(VkPhysicalDevice physical, uint32_t family, const void* features,
                                     const std::vector<const char*>& extensions) {
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = family;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.pNext = features;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.enabledExtensionCount = uint32_t(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    VkDevice device = VK_NULL_HANDLE;
    SIEVE_VK_TRY(vkCreateDevice(physical, &info, nullptr, &device));
    return device;
}

// Mesa's lavapipe compiles shaders with LLVM 15, which on AVX-512 hosts corrupts its own heap while compiling
// some shader variants ("corrupted size vs. prev_size" at the first frame; docs/subgroup-matrix.md has the
// evidence: the fault is inside LLVM's instruction selection, valgrind and AVX-only code generation are
// clean). GALLIUM_OVERRIDE_CPU_CAPS=avx, lavapipe's own switch, keeps its JIT to AVX; it is read by Mesa's
// software drivers only, when the driver loads (so before the instance is created), and a value the user set
// is kept.
void avoidLavapipeAvx512Fault() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (__builtin_cpu_supports("avx512f")) setenv("GALLIUM_OVERRIDE_CPU_CAPS", "avx", 0);
#endif
}

}  // namespace

struct Context::Enabled {
    std::vector<const char*> extensions;
    Features features;
    Enabled(bool core13, const Khr12Extensions& ext) : features(core13, ext) {}
};

Result<std::unique_ptr<Context>> Context::create(const ContextDesc& descIn) {
    ContextDesc desc = descIn;
    if (envFlag("SIEVE_VALIDATION")) desc.validation = true;
    if (envFlag("SIEVE_SYNC_VALIDATION")) desc.validation = desc.syncValidation = true;
    if (envFlag("SIEVE_FORCE_VULKAN12")) desc.forceVulkan12 = true;
    if (envFlag("SIEVE_MIN_DEVICE")) desc.minimumDevice = true;
    std::unique_ptr<Context> ctx(new Context());
    avoidLavapipeAvx512Fault();
    if (VkResult r = volkInitialize(); r != VK_SUCCESS)
        return sieve::makeError(r,
                                "no Vulkan loader found (install libvulkan1 and a driver, e.g. mesa-vulkan-drivers)");
    if (auto r = ctx->createInstance(desc); !r) return r.error();
    if (auto r = ctx->pickPhysicalDevice(); !r) return r.error();
    if (auto r = ctx->createDevice(desc); !r) return r.error();
    return ctx;
}

Result<void> Context::createInstance(const ContextDesc& desc) {
    uint32_t version = volkGetInstanceVersion();
    if (version < VK_API_VERSION_1_2)
        return sieve::makeError(VK_ERROR_INCOMPATIBLE_DRIVER, "the Vulkan loader supports only " +
                                                                  std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
                                                                  std::to_string(VK_API_VERSION_MINOR(version)) +
                                                                  "; Sieve needs Vulkan 1.3 (or 1.2)");
    uint32_t count = 0;
    vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> available(count);
    vkEnumerateInstanceExtensionProperties(nullptr, &count, available.data());

    std::vector<const char*> extensions = desc.instanceExtensions;
    const bool debugUtils = hasExtension(available, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (debugUtils) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    for (const char* e : extensions)
        if (!hasExtension(available, e))
            return sieve::makeError(VK_ERROR_EXTENSION_NOT_PRESENT, std::string("missing instance extension ") + e);

    std::vector<const char*> layers;
    if (desc.validation) {
        if (!hasValidationLayer())
            return sieve::makeError(VK_ERROR_LAYER_NOT_PRESENT,
                                    "validation requested but VK_LAYER_KHRONOS_validation is not installed "
                                    "(apt-get install -y vulkan-validationlayers)");
        if (!debugUtils) return sieve::makeError(VK_ERROR_EXTENSION_NOT_PRESENT, "validation needs VK_EXT_debug_utils");
        layers.push_back("VK_LAYER_KHRONOS_validation");
        validation_ = true;
    }

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = desc.appName;
    app.pEngineName = "sieve";
    // 1.3 even where the loader or a device offers only 1.2: loaders since 1.1 accept a higher version, and
    // each device is then used at min(this, its own version).
    app.apiVersion = VK_API_VERSION_1_3;

    const VkDebugUtilsMessengerCreateInfoEXT messenger = messengerInfo(&Context::onMessage, this);

    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;
    features.pNext = debugUtils ? &messenger : nullptr;

    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pNext = (desc.validation && desc.syncValidation) ? static_cast<const void*>(&features)
                                                          : (debugUtils ? &messenger : nullptr);
    info.pApplicationInfo = &app;
    info.enabledLayerCount = uint32_t(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = uint32_t(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    if (VkResult r = vkCreateInstance(&info, nullptr, &instance_); r != VK_SUCCESS)
        return sieve::makeError(r, instanceFailure(r));
    volkLoadInstanceOnly(instance_);
    if (debugUtils) SIEVE_VK_TRY(vkCreateDebugUtilsMessengerEXT(instance_, &messenger, nullptr, &messenger_));
    return {};
}

Result<void> Context::pickPhysicalDevice() {
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance_, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance_, &count, devices.data());
    if (devices.empty())
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED,
                                "no Vulkan device found (install a driver, e.g. mesa-vulkan-drivers)");
    std::vector<VkPhysicalDeviceProperties> props(count);
    for (uint32_t i = 0; i < count; ++i) vkGetPhysicalDeviceProperties(devices[i], &props[i]);

    int chosen = -1;
    if (const char* want = std::getenv("SIEVE_DEVICE"); want && *want) {
        char* end = nullptr;
        long index = std::strtol(want, &end, 10);
        if (end && *end == 0) {
            if (index < 0 || index >= long(count))
                return sieve::makeError(
                    VK_ERROR_INITIALIZATION_FAILED,
                    "SIEVE_DEVICE=" + std::string(want) + " but there are " + std::to_string(count) + " devices");
            chosen = int(index);
        } else {
            for (uint32_t i = 0; i < count && chosen < 0; ++i)
                if (std::strstr(props[i].deviceName, want)) chosen = int(i);
            if (chosen < 0)
                return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED,
                                        "SIEVE_DEVICE='" + std::string(want) + "' matches no device name");
        }
    } else {
        auto rank = [](VkPhysicalDeviceType t) {
            switch (t) {
                case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
                case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
                case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
                case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
                default: return 0;
            }
        };
        // A 1.3 device of any type before a 1.2 one: 1.2 devices (RenderDoc's capture layer reports
        // every device as 1.2) are used only when there is nothing else.
        auto score = [&](uint32_t i) {
            return (props[i].apiVersion >= VK_API_VERSION_1_3 ? 8 : 0) + rank(props[i].deviceType);
        };
        for (uint32_t i = 0; i < count; ++i)
            if (props[i].apiVersion >= VK_API_VERSION_1_2 && (chosen < 0 || score(i) > score(uint32_t(chosen))))
                chosen = int(i);
        if (chosen < 0) chosen = 0;
    }
    physical_ = devices[chosen];
    properties_ = props[chosen];
    if (properties_.apiVersion < VK_API_VERSION_1_2)
        return sieve::makeError(VK_ERROR_INCOMPATIBLE_DRIVER,
                                std::string(properties_.deviceName) + " supports only Vulkan " +
                                    std::to_string(VK_API_VERSION_MAJOR(properties_.apiVersion)) + "." +
                                    std::to_string(VK_API_VERSION_MINOR(properties_.apiVersion)) +
                                    "; Sieve needs 1.3, or 1.2 with the extensions that provide 1.3's features");
    return {};
}

Result<void> Context::createDevice(const ContextDesc& desc) {
    core13_ = properties_.apiVersion >= VK_API_VERSION_1_3 && !desc.forceVulkan12;
    std::vector<std::string> missing;
    const uint32_t api = core13_ ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;
    Khr12Extensions ext;
    std::vector<const char*> extensions = chooseExtensions(physical_, api, desc.swapchain, ext, missing);

    enabled_ = std::make_unique<Enabled>(core13_, ext);
    Features have(core13_, ext);
    Features& want = enabled_->features;
    vkGetPhysicalDeviceFeatures2(physical_, &have.f2);
    have.fromExtensions();
    for (auto& m : sieve::missingRequirements(vkGetInstanceProcAddr, instance_, physical_, api))
        missing.push_back(std::move(m));
    for (auto& m : checkFeatures(have, want)) missing.push_back(std::move(m));
    want.toExtensions();

    if (!missing.empty()) {
        std::string text = std::string(properties_.deviceName) + " (used as Vulkan " + (core13_ ? "1.3" : "1.2") +
                           ") lacks what Sieve requires:";
        for (const auto& m : missing) text += " " + m;
        return sieve::makeError(VK_ERROR_FEATURE_NOT_PRESENT, text);
    }

    const std::optional<uint32_t> family = findQueueFamily(physical_);
    if (!family)
        return sieve::makeError(VK_ERROR_FEATURE_NOT_PRESENT, "no queue family with graphics, compute and timestamps");
    queueFamily_ = *family;
    enabled_->extensions = std::move(extensions);
    auto device = createLogicalDevice(physical_, queueFamily_, &want.f2, enabled_->extensions);
    if (!device) return device.error();
    device_ = device.value();
    samplerAnisotropy_ = want.f2.features.samplerAnisotropy == VK_TRUE;
    meshShaderQueries_ = ext.meshShader && want.mesh.meshShaderQueries == VK_TRUE;
    pipelineExecutableInfo_ = ext.pipelineExecutable && want.executable.pipelineExecutableInfo == VK_TRUE;
    volkLoadDevice(device_);
    if (auto r = aliasKhrEntryPoints(); !r) return r;
    vkGetDeviceQueue(device_, queueFamily_, 0, &queue_);
    setup_.getInstanceProcAddr = vkGetInstanceProcAddr;
    setup_.instance = instance_;
    setup_.physical = physical_;
    setup_.device = device_;
    setup_.apiVersion = api;
    setup_.enabledExtensions = enabled_->extensions.data();
    setup_.enabledExtensionCount = uint32_t(enabled_->extensions.size());
    setup_.enabledFeatures = &want.f2;
    // The engine keeps no VkPipelineCache and allocates with the driver's allocator: pipelineCache and
    // allocator stay at DeviceSetup's defaults (no cache, no callbacks).
    auto described = sieve::describeDevice(setup_);
    if (!described) return described.error();
    info_ = described.value();
    if (desc.minimumDevice) clampToMinimumDevice(info_);
    allocator_ = std::make_unique<Allocator>(physical_, device_);

    VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT | VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pool.queueFamilyIndex = queueFamily_;
    SIEVE_VK_TRY(vkCreateCommandPool(device_, &pool, nullptr, &oneShotPool_));
    VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    SIEVE_VK_TRY(vkCreateFence(device_, &fence, nullptr, &oneShotFence_));
    return {};
}

Result<void> Context::aliasKhrEntryPoints() {
    if (core13_) return {};
    // volk's core pointers are globals the whole code base calls. On the 1.2 path the extensions, not 1.3,
    // are enabled, so the KHR functions are the valid ones even where a layer also returns core ones.
    std::vector<std::string> absent;
    auto alias = [&](auto& core, auto khr, const char* name) {
        if (khr)
            core = khr;
        else
            absent.push_back(name);
    };
    alias(vkCmdPipelineBarrier2, vkCmdPipelineBarrier2KHR, "vkCmdPipelineBarrier2KHR");
    alias(vkCmdWriteTimestamp2, vkCmdWriteTimestamp2KHR, "vkCmdWriteTimestamp2KHR");
    alias(vkQueueSubmit2, vkQueueSubmit2KHR, "vkQueueSubmit2KHR");
    alias(vkCmdSetEvent2, vkCmdSetEvent2KHR, "vkCmdSetEvent2KHR");
    alias(vkCmdResetEvent2, vkCmdResetEvent2KHR, "vkCmdResetEvent2KHR");
    alias(vkCmdWaitEvents2, vkCmdWaitEvents2KHR, "vkCmdWaitEvents2KHR");
    alias(vkCmdBeginRendering, vkCmdBeginRenderingKHR, "vkCmdBeginRenderingKHR");
    alias(vkCmdEndRendering, vkCmdEndRenderingKHR, "vkCmdEndRenderingKHR");
    alias(vkGetDeviceBufferMemoryRequirements, vkGetDeviceBufferMemoryRequirementsKHR,
          "vkGetDeviceBufferMemoryRequirementsKHR");
    alias(vkGetDeviceImageMemoryRequirements, vkGetDeviceImageMemoryRequirementsKHR,
          "vkGetDeviceImageMemoryRequirementsKHR");
    alias(vkGetDeviceImageSparseMemoryRequirements, vkGetDeviceImageSparseMemoryRequirementsKHR,
          "vkGetDeviceImageSparseMemoryRequirementsKHR");
    if (absent.empty()) return {};
    std::string text = "the device enabled the Vulkan 1.2 extensions but does not return";
    for (const auto& a : absent) text += " " + a;
    return sieve::makeError(VK_ERROR_EXTENSION_NOT_PRESENT, text);
}

Result<void> Context::submitNow(const std::function<void(VkCommandBuffer)>& record) {
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = oneShotPool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    SIEVE_VK_TRY(vkAllocateCommandBuffers(device_, &alloc, &cmd));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cmd, &begin);
    record(cmd);
    vkEndCommandBuffer(cmd);
    VkCommandBufferSubmitInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cmdInfo.commandBuffer = cmd;
    VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &cmdInfo;
    VkResult r = vkQueueSubmit2(queue_, 1, &submit, oneShotFence_);
    if (r == VK_SUCCESS) r = vkWaitForFences(device_, 1, &oneShotFence_, VK_TRUE, UINT64_MAX);
    vkResetFences(device_, 1, &oneShotFence_);
    vkFreeCommandBuffers(device_, oneShotPool_, 1, &cmd);
    if (r != VK_SUCCESS)
        return sieve::makeError(r, std::string("one-shot submission failed: ") + sieve::vkResultName(r));
    return {};
}

Context::~Context() {
    if (device_) {
        vkDeviceWaitIdle(device_);
        vkDestroyFence(device_, oneShotFence_, nullptr);
        vkDestroyCommandPool(device_, oneShotPool_, nullptr);
        allocator_.reset();
        vkDestroyDevice(device_, nullptr);
    }
    if (messenger_) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    if (instance_) vkDestroyInstance(instance_, nullptr);
}

}  // namespace engine
