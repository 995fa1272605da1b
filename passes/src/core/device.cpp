// Requirements, the host's enabled set, and the device description.
#include "sieve/device.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "core/vk.h"

namespace sieve {

namespace {

constexpr Need kAll[] = {Need::PushDescriptor,      Need::Synchronization2,  Need::DynamicRendering,
                         Need::DrawIndirectCount,   Need::MultiDrawIndirect, Need::DrawIndirectFirstInstance,
                         Need::ShaderDrawParameters};

bool has(Needs needs, Need n) {
    return (needs & uint32_t(n)) != 0;
}

bool core13(uint32_t apiVersion) {
    return VK_API_VERSION_MINOR(apiVersion) >= 3 || VK_API_VERSION_MAJOR(apiVersion) > 1;
}

// The extension a need comes from on `apiVersion`, or null when it is a core feature there.
const char* extensionOf(Need n, uint32_t apiVersion) {
    switch (n) {
        case Need::PushDescriptor: return VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
        case Need::Synchronization2: return core13(apiVersion) ? nullptr : VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME;
        case Need::DynamicRendering: return core13(apiVersion) ? nullptr : VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME;
        default: return nullptr;
    }
}

// A need that is a feature bit (every one but push descriptors).
bool isFeature(Need n) {
    return n != Need::PushDescriptor;
}

// The feature bits of a chain that matter here, from any mix of core and KHR structs.
struct FeatureBits {
    bool bits[sizeof(kAll) / sizeof(kAll[0])] = {};
    bool int64 = false, int64Atomics = false, meshShader = false;
    bool& operator[](Need n) {
        for (size_t i = 0; i < std::size(kAll); ++i)
            if (kAll[i] == n) return bits[i];
        return bits[0];
    }
};

FeatureBits readChain(const VkPhysicalDeviceFeatures2* f2) {
    FeatureBits b;
    if (!f2) return b;
    b[Need::MultiDrawIndirect] = f2->features.multiDrawIndirect;
    b[Need::DrawIndirectFirstInstance] = f2->features.drawIndirectFirstInstance;
    b.int64 = f2->features.shaderInt64;
    for (auto* s = static_cast<const VkBaseInStructure*>(f2->pNext); s; s = s->pNext) {
        switch (s->sType) {
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES:
                b[Need::ShaderDrawParameters] |=
                    bool(reinterpret_cast<const VkPhysicalDeviceVulkan11Features*>(s)->shaderDrawParameters);
                break;
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES:
                b[Need::ShaderDrawParameters] |= bool(
                    reinterpret_cast<const VkPhysicalDeviceShaderDrawParametersFeatures*>(s)->shaderDrawParameters);
                break;
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
                auto* f = reinterpret_cast<const VkPhysicalDeviceVulkan12Features*>(s);
                b[Need::DrawIndirectCount] |= bool(f->drawIndirectCount);
                b.int64Atomics |= bool(f->shaderBufferInt64Atomics);
                break;
            }
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT:
                b.meshShader |= bool(reinterpret_cast<const VkPhysicalDeviceMeshShaderFeaturesEXT*>(s)->meshShader);
                break;
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES:
                b.int64Atomics |= bool(
                    reinterpret_cast<const VkPhysicalDeviceShaderAtomicInt64Features*>(s)->shaderBufferInt64Atomics);
                break;
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: {
                auto* f = reinterpret_cast<const VkPhysicalDeviceVulkan13Features*>(s);
                b[Need::Synchronization2] |= bool(f->synchronization2);
                b[Need::DynamicRendering] |= bool(f->dynamicRendering);
                break;
            }
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES:
                b[Need::Synchronization2] |=
                    bool(reinterpret_cast<const VkPhysicalDeviceSynchronization2Features*>(s)->synchronization2);
                break;
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES:
                b[Need::DynamicRendering] |=
                    bool(reinterpret_cast<const VkPhysicalDeviceDynamicRenderingFeatures*>(s)->dynamicRendering);
                break;
            default: break;
        }
    }
    return b;
}

bool listed(const char* const* names, uint32_t count, const char* name) {
    for (uint32_t i = 0; i < count; ++i)
        if (names[i] && std::strcmp(names[i], name) == 0) return true;
    return false;
}

}  // namespace

const char* needName(Need need) {
    switch (need) {
        case Need::PushDescriptor: return VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
        case Need::Synchronization2: return "synchronization2";
        case Need::DynamicRendering: return "dynamicRendering";
        case Need::DrawIndirectCount: return "drawIndirectCount";
        case Need::MultiDrawIndirect: return "multiDrawIndirect";
        case Need::DrawIndirectFirstInstance: return "drawIndirectFirstInstance";
        case Need::ShaderDrawParameters: return "shaderDrawParameters";
    }
    return "?";
}

Requirements requirements(uint32_t apiVersion, Needs needs) {
    Requirements r;
    for (Need n : kAll) {
        if (!has(needs, n)) continue;
        if (const char* ext = extensionOf(n, apiVersion)) r.deviceExtensions.push_back(ext);
        if (isFeature(n)) r.features.push_back(needName(n));
    }
    r.optionalFeatures = {needName(Need::DrawIndirectCount), "shaderInt64", "shaderBufferInt64Atomics"};
    return r;
}

void enableRequiredFeatures(const FeatureStructs& f, Needs needs) {
    if (f.f2 && has(needs, Need::MultiDrawIndirect)) f.f2->features.multiDrawIndirect = VK_TRUE;
    if (f.f2 && has(needs, Need::DrawIndirectFirstInstance)) f.f2->features.drawIndirectFirstInstance = VK_TRUE;
    if (f.f11 && has(needs, Need::ShaderDrawParameters)) f.f11->shaderDrawParameters = VK_TRUE;
    if (f.f12 && has(needs, Need::DrawIndirectCount)) f.f12->drawIndirectCount = VK_TRUE;
    if (has(needs, Need::Synchronization2)) {
        if (f.f13) f.f13->synchronization2 = VK_TRUE;
        if (f.sync2) f.sync2->synchronization2 = VK_TRUE;
    }
    if (has(needs, Need::DynamicRendering)) {
        if (f.f13) f.f13->dynamicRendering = VK_TRUE;
        if (f.rendering) f.rendering->dynamicRendering = VK_TRUE;
    }
}

void enableOptionalFeatures(const FeatureStructs& want, const FeatureStructs& supported) {
    if (want.f12 && supported.f12) {
        want.f12->drawIndirectCount |= supported.f12->drawIndirectCount;
        want.f12->shaderBufferInt64Atomics |= supported.f12->shaderBufferInt64Atomics;
    }
    if (want.f2 && supported.f2) want.f2->features.shaderInt64 |= supported.f2->features.shaderInt64;
}

std::vector<std::string> missingRequirements(PFN_vkGetInstanceProcAddr gipa, VkInstance instance,
                                             VkPhysicalDevice physical, uint32_t apiVersion, Needs needs) {
    std::vector<std::string> missing;
    auto getFeatures = reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures2>(
        gipa ? gipa(instance, "vkGetPhysicalDeviceFeatures2") : nullptr);
    auto getProps = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties>(
        gipa ? gipa(instance, "vkGetPhysicalDeviceProperties") : nullptr);
    auto enumerate = reinterpret_cast<PFN_vkEnumerateDeviceExtensionProperties>(
        gipa ? gipa(instance, "vkEnumerateDeviceExtensionProperties") : nullptr);
    if (!getFeatures || !getProps || !enumerate || !physical) return {"a Vulkan 1.1+ instance and physical device"};
    VkPhysicalDeviceProperties props{};
    getProps(physical, &props);
    if (props.apiVersion < VK_API_VERSION_1_2 || apiVersion < VK_API_VERSION_1_2) missing.push_back("Vulkan 1.2");
    uint32_t count = 0;
    enumerate(physical, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> exts(count);
    enumerate(physical, nullptr, &count, exts.data());
    std::vector<const char*> names;
    for (const auto& e : exts) names.push_back(e.extensionName);
    for (const char* e : requirements(apiVersion, needs).deviceExtensions)
        if (!listed(names.data(), uint32_t(names.size()), e)) missing.push_back(e);

    VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &f11};
    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &f12};
    VkPhysicalDeviceSynchronization2Features sync2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES, &f12};
    VkPhysicalDeviceDynamicRenderingFeatures rendering{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES,
                                                       &sync2};
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    f2.pNext = core13(apiVersion) && props.apiVersion >= VK_API_VERSION_1_3 ? static_cast<void*>(&f13)
                                                                            : static_cast<void*>(&rendering);
    getFeatures(physical, &f2);
    FeatureBits have = readChain(&f2);
    for (Need n : kAll)
        if (has(needs, n) && isFeature(n) && !have[n]) missing.push_back(needName(n));
    return missing;
}

std::string DeviceInfo::missing(Needs needs) const {
    std::string text;
    for (Need n : kAll)
        if (has(needs, n) && !has(enabled, n)) text += std::string(text.empty() ? "" : ", ") + needName(n);
    return text;
}

Result<DeviceInfo> describeDevice(const DeviceSetup& setup) {
    if (!setup.physical)
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "describeDevice: the VkPhysicalDevice must not be null");
    if (auto r = detail::loadEntryPoints(setup.getInstanceProcAddr, setup.instance, setup.physical, setup.device); !r)
        return r.error();
    DeviceInfo info;
    info.physical = setup.physical;
    info.device = setup.device;
    info.pipelineCache = setup.pipelineCache;
    info.allocator = setup.allocator;
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
    vkGetPhysicalDeviceProperties2(setup.physical, &props);
    info.vendorId = props.properties.vendorID;
    info.deviceType = props.properties.deviceType;
    info.limits = props.properties.limits;
    for (int i = 0; i < 3; ++i) info.maxComputeWorkGroupCount[i] = info.limits.maxComputeWorkGroupCount[i];
    info.subgroupSize = subgroup.subgroupSize;
    info.minSubgroupSize = subgroup.subgroupSize;
    if (props.properties.apiVersion >= VK_API_VERSION_1_3) {
        VkPhysicalDeviceSubgroupSizeControlProperties control{
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
        VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &control};
        vkGetPhysicalDeviceProperties2(setup.physical, &p2);
        if (control.minSubgroupSize) info.minSubgroupSize = std::min(control.minSubgroupSize, subgroup.subgroupSize);
    }
    const bool compute = (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
    info.subgroupArithmetic = compute && (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
    info.subgroupBallot = compute && (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BALLOT_BIT);
    info.debugNames = detail::hasFunction(setup.device, &detail::DeviceTable::vkSetDebugUtilsObjectNameEXT);

    FeatureBits enabled = readChain(setup.enabledFeatures);
    const uint32_t api = std::min(setup.apiVersion, props.properties.apiVersion);
    for (Need n : kAll) {
        const char* ext = extensionOf(n, api);
        const bool extOk = !ext || listed(setup.enabledExtensions, setup.enabledExtensionCount, ext);
        const bool featureOk = !isFeature(n) || enabled[n];
        if (extOk && featureOk) info.enabled |= uint32_t(n);
    }
    info.bufferInt64Atomics = enabled.int64 && enabled.int64Atomics;
    info.meshShader = enabled.meshShader &&
                      detail::hasFunction(setup.device, &detail::DeviceTable::vkCmdDrawMeshTasksIndirectEXT) &&
                      listed(setup.enabledExtensions, setup.enabledExtensionCount, VK_EXT_MESH_SHADER_EXTENSION_NAME);
    if (info.meshShader) {
        VkPhysicalDeviceMeshShaderPropertiesEXT mesh{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_PROPERTIES_EXT};
        VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &mesh};
        vkGetPhysicalDeviceProperties2(setup.physical, &p2);
        info.maxMeshGroupsX = mesh.maxMeshWorkGroupCount[0];
        info.maxMeshGroupsTotal = mesh.maxMeshWorkGroupTotalCount;
    }
    return info;
}

}  // namespace sieve
