// The plugin's entry points are per device: two devices in one process, each described, each with its
// own plugin objects, recorded and submitted interleaved. Both devices run with the validation layer
// (any message fails the test). Both are lavapipe behind the same layers, so their real functions are
// the same code and mixing them up would go unseen: each device is described through its own wrappers
// (gpu/device_hooks.h), and a call that reaches one device's wrapper with the other device's handle fails
// the test. With the entry points in one process-wide table (the second describeDevice overwriting the
// first) every call of the first device's objects reaches the second device's wrappers.
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "assets/procedural_city.h"
#include "engine/scene/scene_renderer.h"
#include "engine/target/headless_target.h"
#include "gpu/device_hooks.h"
#include "gpu/gpu_fixture.h"
#include "gpu/test_render_frames.h"
#include "shared/draw.h"
#include "shared/test_push.h"
#include "sieve/culling.h"
#include "sieve/pipeline.h"

using testing_gpu::GpuTest;
namespace hooks = testing_gpu::hooks;

namespace {

constexpr VkBufferUsageFlags kUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

// The shared context (device 0) and a second one like it (device 1): another instance and device on the
// same driver and layers.
class DeviceTablesTest : public GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        engine::ContextDesc desc;
        desc.appName = "sieve-gpu-tests-second-device";
        desc.validation = true;
        desc.syncValidation = true;
        auto second = engine::Context::create(desc);
        ASSERT_TRUE(second) << second.error().message;
        second_ = std::move(second).value();
    }
    void TearDown() override {
        hooks::restore(ctx());  // the shared context's device, as the engine described it
        if (second_) {
            auto messages = second_->validationMessages();
            EXPECT_EQ(messages.size(), 0u) << "validation on the second device reported " << messages.size()
                                           << " message(s), first: " << (messages.empty() ? "" : messages.front());
        }
        second_.reset();
        GpuTest::TearDown();
    }

    // Each device's calls reached only its own wrappers, and both were called.
    static void expectOwnEntryPoints() {
        for (int s = 0; s < hooks::kSlots; ++s) {
            EXPECT_GT(hooks::gSlots[s].calls.load(), 0u) << "device " << s;
            EXPECT_EQ(hooks::gSlots[s].foreign.load(), 0u)
                << "device " << s
                << "'s entry points were called with another device's handles (first: " << hooks::gSlots[s].firstForeign
                << ")";
        }
    }

    std::unique_ptr<engine::Context> second_;
};

// One frame's draw lists (early and late) as the last frame wrote them.
struct Lists {
    sieve::gpu::DrawCounts counts[2]{};
    std::vector<sieve::gpu::DrawCommand> draws[2];
};

Lists readLists(engine::Context& ctx, engine::SceneRenderer& renderer) {
    Lists out;
    for (int late = 0; late < 2; ++late) {
        const sieve::SlotBinding* draws = renderer.binding(late ? "draws.late" : "draws.early");
        const sieve::SlotBinding* counts = renderer.binding(late ? "counts.late" : "counts.early");
        EXPECT_TRUE(draws && counts);
        if (!draws || !counts) return out;
        auto r = engine::readBuffer(ctx, counts->buffer, &out.counts[late], sizeof(out.counts[late]));
        EXPECT_TRUE(r) << r.error().message;
        out.draws[late].resize(out.counts[late].count);
        r = engine::readBuffer(ctx, draws->buffer, out.draws[late].data(),
                               out.draws[late].size() * sizeof(sieve::gpu::DrawCommand));
        EXPECT_TRUE(r) << r.error().message;
    }
    return out;
}

}  // namespace

TEST_F(DeviceTablesTest, TwoDevicesRecordInterleavedEachThroughItsOwnEntryPoints) {
    engine::Context* devices[2] = {&ctx(), second_.get()};
    ASSERT_NE(hooks::keyOf(devices[0]->device()), hooks::keyOf(devices[1]->device()));
    for (int d = 0; d < 2; ++d) {
        auto described = hooks::describe(d, *devices[d]);
        ASSERT_TRUE(described) << described.error().message;
    }

    // A compute pipeline per device; dispatches recorded alternately into one open command buffer of
    // each device, then both submitted.
    const uint32_t n = 1000, rounds = 4;
    std::optional<sieve::ComputePipeline> fill[2];
    std::vector<engine::Buffer> out[2];
    for (int d = 0; d < 2; ++d) {
        auto p = sieve::ComputePipeline::create(devices[d]->info(), {"test/fill.comp", sizeof(sieve::gpu::FillPush)});
        ASSERT_TRUE(p) << p.error().message;
        fill[d].emplace(std::move(p).value());
        for (uint32_t k = 0; k < rounds; ++k) {
            auto b = engine::Buffer::create(*devices[d], n * 4, kUsage, engine::MemoryUsage::DeviceLocal, "fill out");
            ASSERT_TRUE(b) << b.error().message;
            out[d].push_back(std::move(b).value());
        }
    }
    auto base = [](int d, uint32_t k) { return 1000u * uint32_t(d) + 10u * k; };
    auto submitted = devices[0]->submitNow([&](VkCommandBuffer cmd0) {
        auto inner = devices[1]->submitNow([&](VkCommandBuffer cmd1) {
            const VkCommandBuffer cmds[2] = {cmd0, cmd1};
            for (uint32_t k = 0; k < rounds; ++k)
                for (int d = 0; d < 2; ++d)
                    fill[d]->dispatchLinear(cmds[d], {sieve::Binding::storage(out[d][k].range())},
                                            sieve::gpu::FillPush{n, base(d, k)}, fill[d]->groupsFor(n));
        });
        EXPECT_TRUE(inner) << inner.error().message;
    });
    ASSERT_TRUE(submitted) << submitted.error().message;
    for (int d = 0; d < 2; ++d)
        for (uint32_t k = 0; k < rounds; ++k) {
            auto got = engine::readVector<uint32_t>(*devices[d], out[d][k], n);
            ASSERT_TRUE(got) << got.error().message;
            for (uint32_t i = 0; i < n; ++i) ASSERT_EQ((*got)[i], base(d, k) + i) << "device " << d << " round " << k;
        }

    // The culling plugin and the geometry pass in the reference graph on each device, frames alternating.
    auto city = sieve::assets::makeCity(2000, 7);
    ASSERT_TRUE(city) << city.error();
    std::unique_ptr<engine::HeadlessTarget> targets[2];
    std::unique_ptr<engine::SceneRenderer> renderers[2];
    for (int d = 0; d < 2; ++d) {
        auto target = engine::HeadlessTarget::create(*devices[d], {{320, 180}, VK_FORMAT_R8G8B8A8_UNORM, 2});
        ASSERT_TRUE(target) << target.error().message;
        targets[d] = std::move(target).value();
        auto renderer = engine::SceneRenderer::create(*devices[d], city.value(), targets[d]->colorFormat(),
                                                      targets[d]->extent(), {});
        ASSERT_TRUE(renderer) << renderer.error().message;
        renderers[d] = std::move(renderer).value();
    }
    const sieve::assets::CameraPose pose = sieve::assets::defaultCityCamera();
    for (int frame = 0; frame < 3; ++frame)
        for (int d = 0; d < 2; ++d)
            ASSERT_NO_FATAL_FAILURE(testing_gpu::renderFrames(*targets[d], *renderers[d], pose, 1));

    // Same scene, same camera: the same lists on both devices, and the early one draws something.
    Lists lists[2] = {readLists(*devices[0], *renderers[0]), readLists(*devices[1], *renderers[1])};
    EXPECT_GT(lists[0].counts[0].count, 0u);
    for (int late = 0; late < 2; ++late) {
        EXPECT_EQ(lists[0].counts[late].count, lists[1].counts[late].count) << (late ? "late" : "early");
        ASSERT_EQ(lists[0].draws[late].size(), lists[1].draws[late].size());
        EXPECT_EQ(std::memcmp(lists[0].draws[late].data(), lists[1].draws[late].data(),
                              lists[0].draws[late].size() * sizeof(sieve::gpu::DrawCommand)),
                  0)
            << (late ? "late" : "early") << " lists differ";
    }
    for (int d = 0; d < 2; ++d) {
        renderers[d].reset();
        targets[d].reset();
    }
    expectOwnEntryPoints();
}

// A device created but never described: components refuse it, naming describeDevice, and a call that
// reaches a plugin entry point with one of its handles does nothing (counted) instead of calling through
// another device's functions or a null pointer.
TEST_F(GpuTest, UndescribedDeviceIsRefusedAndItsCallsDoNothing) {
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = ctx().queueFamily();
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queue;
    VkDevice undescribed = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateDevice(ctx().physical(), &deviceInfo, nullptr, &undescribed), VK_SUCCESS);

    sieve::DeviceInfo info = ctx().info();
    info.device = undescribed;
    auto pipe = sieve::ComputePipeline::create(info, {"test/fill.comp", sizeof(sieve::gpu::FillPush)});
    ASSERT_FALSE(pipe);
    EXPECT_NE(pipe.error().message.find("never described"), std::string::npos) << pipe.error().message;
    sieve::CullingConfig config;
    config.maxInstances = 16;
    config.viewport = {64, 64};
    auto plugin = sieve::CullingPlugin::create(info, config);
    ASSERT_FALSE(plugin);
    EXPECT_NE(plugin.error().message.find("sieve::describeDevice"), std::string::npos) << plugin.error().message;

    // A pipeline of the described device recorded into a command buffer of the undescribed one: its four
    // commands (bind, push descriptors, push constants, dispatch) reach no Vulkan function.
    auto fill = sieve::ComputePipeline::create(ctx().info(), {"test/fill.comp", sizeof(sieve::gpu::FillPush)});
    ASSERT_TRUE(fill) << fill.error().message;
    engine::Buffer out = makeEmpty(256);
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.queueFamilyIndex = ctx().queueFamily();
    VkCommandPool pool = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateCommandPool(undescribed, &poolInfo, nullptr, &pool), VK_SUCCESS);
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    ASSERT_EQ(vkAllocateCommandBuffers(undescribed, &alloc, &cmd), VK_SUCCESS);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    ASSERT_EQ(vkBeginCommandBuffer(cmd, &begin), VK_SUCCESS);
    const uint64_t before = sieve::detail::undescribedCalls();
    fill->dispatch(cmd, {sieve::Binding::storage(out.range())}, sieve::gpu::FillPush{64, 0}, 1);
    EXPECT_EQ(sieve::detail::undescribedCalls() - before, 4u);
    EXPECT_EQ(vkEndCommandBuffer(cmd), VK_SUCCESS);
    vkDestroyCommandPool(undescribed, pool, nullptr);
    vkDestroyDevice(undescribed, nullptr);
}
