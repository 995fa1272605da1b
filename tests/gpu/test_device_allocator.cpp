// The host's VkAllocationCallbacks and VkPipelineCache (DeviceSetup) reach every object the plugin's
// components create: the culling plugin (compute pipelines, samplers) and the geometry pass in material
// mode (graphics pipelines, its texture set's sampler, layout and descriptor pool). Checked twice: at the
// API, where every vkCreate*/vkDestroy* the plugin calls is handed the host's callbacks and every
// vkCreate*Pipelines the host's cache (gpu/device_hooks.h wraps them); and in the driver, which allocates
// through the callbacks (each allocation freed once the components are gone) and fills the cache.
// lavapipe (Mesa 22.3) calls the callbacks for shader modules, samplers and descriptor pools only (its
// pipelines and layouts take the device's allocator) and keeps nothing in pipeline caches; where a
// pipeline of the test's own leaves a cache empty, the cache's growth is not checked.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <span>
#include <unordered_map>

#include "gpu/device_hooks.h"
#include "gpu/gpu_fixture.h"
#include "shared/test_push.h"
#include "sieve/culling.h"
#include "sieve/geometry_pass.h"
#include "sieve/spirv.h"

using testing_gpu::GpuTest;
namespace hooks = testing_gpu::hooks;

namespace {

// Allocation callbacks that count, and remember what is live.
class CountingAllocator {
public:
    CountingAllocator() {
        callbacks_.pUserData = this;
        callbacks_.pfnAllocation = &allocate;
        callbacks_.pfnReallocation = &reallocate;
        callbacks_.pfnFree = &release;
    }
    const VkAllocationCallbacks* callbacks() const { return &callbacks_; }
    uint64_t allocations() const {
        std::lock_guard lock(mutex_);
        return allocations_;
    }
    uint64_t frees() const {
        std::lock_guard lock(mutex_);
        return frees_;
    }
    size_t live() const {
        std::lock_guard lock(mutex_);
        return live_.size();
    }

private:
    static void* VKAPI_CALL allocate(void* user, size_t size, size_t alignment, VkSystemAllocationScope) {
        auto* self = static_cast<CountingAllocator*>(user);
        const size_t align = std::max(alignment, sizeof(void*));
        void* p = std::aligned_alloc(align, std::max<size_t>((size + align - 1) / align * align, align));
        if (!p) return nullptr;
        std::lock_guard lock(self->mutex_);
        self->live_[p] = size;
        ++self->allocations_;
        return p;
    }
    static void* VKAPI_CALL reallocate(void* user, void* original, size_t size, size_t alignment,
                                       VkSystemAllocationScope scope) {
        auto* self = static_cast<CountingAllocator*>(user);
        if (!original) return allocate(user, size, alignment, scope);
        if (size == 0) {
            release(user, original);
            return nullptr;
        }
        size_t old = 0;
        {
            std::lock_guard lock(self->mutex_);
            old = self->live_.at(original);
        }
        void* p = allocate(user, size, alignment, scope);
        if (!p) return nullptr;
        std::memcpy(p, original, std::min(old, size));
        release(user, original);
        return p;
    }
    static void VKAPI_CALL release(void* user, void* memory) {
        if (!memory) return;
        auto* self = static_cast<CountingAllocator*>(user);
        {
            std::lock_guard lock(self->mutex_);
            self->live_.erase(memory);
            ++self->frees_;
        }
        std::free(memory);
    }

    VkAllocationCallbacks callbacks_{};
    mutable std::mutex mutex_;
    std::unordered_map<void*, size_t> live_;
    uint64_t allocations_ = 0, frees_ = 0;
};

class HostObjectsTest : public GpuTest {
protected:
    void TearDown() override {
        hooks::restore(ctx());  // describe the shared device again, without the test's callbacks and cache
        if (cache_) vkDestroyPipelineCache(ctx().device(), cache_, nullptr);
        GpuTest::TearDown();
    }
    size_t cacheBytes(VkPipelineCache cache) {
        size_t bytes = 0;
        EXPECT_EQ(vkGetPipelineCacheData(ctx().device(), cache, &bytes, nullptr), VK_SUCCESS);
        return bytes;
    }
    // Whether the driver keeps pipelines in a cache at all: a compute pipeline of the test's own
    // (test/fill.comp, made here without the plugin) through a cache of its own.
    bool driverFillsCaches() {
        const VkDevice device = ctx().device();
        VkPipelineCacheCreateInfo cacheInfo{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
        VkPipelineCache cache = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreatePipelineCache(device, &cacheInfo, nullptr, &cache), VK_SUCCESS);
        const size_t empty = cacheBytes(cache);
        const std::span<const uint32_t> spirv = sieve::embeddedSpirv("test/fill.comp");
        VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        moduleInfo.codeSize = spirv.size_bytes();
        moduleInfo.pCode = spirv.data();
        VkShaderModule module = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreateShaderModule(device, &moduleInfo, nullptr, &module), VK_SUCCESS);
        const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
                                                   nullptr};
        VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
        setInfo.bindingCount = 1;
        setInfo.pBindings = &binding;
        VkDescriptorSetLayout set = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreateDescriptorSetLayout(device, &setInfo, nullptr, &set), VK_SUCCESS);
        const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(sieve::gpu::FillPush)};
        VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
        layoutInfo.setLayoutCount = 1;
        layoutInfo.pSetLayouts = &set;
        layoutInfo.pushConstantRangeCount = 1;
        layoutInfo.pPushConstantRanges = &push;
        VkPipelineLayout layout = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout), VK_SUCCESS);
        VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
        info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        info.stage.module = module;
        info.stage.pName = "main";
        info.layout = layout;
        VkPipeline pipeline = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreateComputePipelines(device, cache, 1, &info, nullptr, &pipeline), VK_SUCCESS);
        const bool filled = cacheBytes(cache) > empty;
        vkDestroyPipeline(device, pipeline, nullptr);
        vkDestroyPipelineLayout(device, layout, nullptr);
        vkDestroyDescriptorSetLayout(device, set, nullptr);
        vkDestroyShaderModule(device, module, nullptr);
        vkDestroyPipelineCache(device, cache, nullptr);
        return filled;
    }
    VkPipelineCache cache_ = VK_NULL_HANDLE;
};

}  // namespace

TEST_F(HostObjectsTest, PluginObjectsUseTheHostsAllocatorAndPipelineCache) {
    VkPipelineCacheCreateInfo cacheInfo{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    ASSERT_EQ(vkCreatePipelineCache(ctx().device(), &cacheInfo, nullptr, &cache_), VK_SUCCESS);
    const size_t emptyCache = cacheBytes(cache_);
    CountingAllocator counting;
    {
        auto described = hooks::describe(0, ctx(), counting.callbacks(), cache_);
        ASSERT_TRUE(described) << described.error().message;
        const sieve::DeviceInfo& dev = described.value();
        EXPECT_EQ(dev.allocator, counting.callbacks());
        EXPECT_EQ(dev.pipelineCache, cache_);

        sieve::CullingConfig config;
        config.maxInstances = 256;
        config.maxDrawsPerInstance = 2;
        config.viewport = {320, 180};
        auto plugin = sieve::CullingPlugin::create(dev, config);
        ASSERT_TRUE(plugin) << plugin.error().message;
        sieve::GeometryOptions options;
        options.materials = true;
        auto pass = sieve::GeometryPass::create(dev, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_D32_SFLOAT, options);
        ASSERT_TRUE(pass) << pass.error().message;
        EXPECT_GT(counting.live(), 0u) << "the driver allocated nothing through the host's callbacks";
    }
    // Every create and destroy the plugin called was handed the host's callbacks, every pipeline creation
    // the host's cache.
    const hooks::Slot& slot = hooks::gSlots[0];
    EXPECT_GT(slot.allocatorArgs.load(), 0u);
    EXPECT_EQ(slot.allocatorMatches.load(), slot.allocatorArgs.load());
    EXPECT_GT(slot.cacheArgs.load(), 0u);
    EXPECT_EQ(slot.cacheMatches.load(), slot.cacheArgs.load());
    // The driver allocated through them and freed all of it with the components.
    EXPECT_GT(counting.allocations(), 0u);
    EXPECT_EQ(counting.live(), 0u) << counting.allocations() << " allocations, " << counting.frees() << " frees";
    // The pipelines went into the cache, where the driver keeps any there (lavapipe in Mesa 22.3 does not:
    // its vkGetPipelineCacheData writes the header only).
    if (driverFillsCaches())
        EXPECT_GT(cacheBytes(cache_), emptyCache);
    else
        std::printf(
            "note: %s keeps no pipelines in a cache (%zu bytes before and after); only the cache handed to "
            "each pipeline creation is checked\n",
            ctx().properties().deviceName, emptyCache);
}
