#pragma once
// A shared Vulkan context for GPU tests, with validation and synchronization validation on. Every test
// fails if a validation message appears while it runs.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/vk/context.h"
#include "engine/vk/resources.h"
#include "sieve/barriers.h"

namespace testing_gpu {

engine::Context& context();  // created on first use; the test aborts if no device is available

// A sync2 barrier with a layout transition of mip 0 of a colour image, for batching into one
// vkCmdPipelineBarrier2.
inline VkImageMemoryBarrier2 colorLayoutBarrier(VkImage image, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                                                VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess,
                                                VkImageLayout from, VkImageLayout to) {
    return sieve::imageMemoryBarrier(image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
                                     {srcStage, srcAccess, dstStage, dstAccess, from, to});
}

// The text of a failed sieve::Result or assets::Expected.
inline const std::string& errorText(const sieve::Error& e) {
    return e.message;
}
inline const std::string& errorText(const std::string& e) {
    return e;
}

class GpuTest : public ::testing::Test {
protected:
    void SetUp() override { context().clearValidationMessages(); }
    void TearDown() override {
        auto messages = context().validationMessages();
        EXPECT_EQ(messages.size(), 0u) << "validation reported " << messages.size()
                                       << " message(s), first: " << (messages.empty() ? "" : messages.front());
    }
    engine::Context& ctx() { return context(); }

    // `made`'s value moved into `out`, or a fatal failure with its error:
    // ASSERT_NO_FATAL_FAILURE(take(X::create(...), x)).
    template <typename Made, typename T>
    static void take(Made made, T& out) {
        ASSERT_TRUE(made) << errorText(made.error());
        out = std::move(made).value();
    }

    template <typename T>
    engine::Buffer makeBuffer(const std::vector<T>& data, VkBufferUsageFlags extra = 0,
                              const char* name = "test input") {
        auto b = engine::Buffer::create(ctx(), std::max<size_t>(data.size() * sizeof(T), 4),
                                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                            VK_BUFFER_USAGE_TRANSFER_SRC_BIT | extra,
                                        engine::MemoryUsage::DeviceLocal, name);
        EXPECT_TRUE(b) << b.error().message;
        auto r = engine::uploadBuffer(ctx(), b.value(), data.data(), data.size() * sizeof(T));
        EXPECT_TRUE(r) << r.error().message;
        return std::move(b).value();
    }
    engine::Buffer makeEmpty(VkDeviceSize bytes, VkBufferUsageFlags extra = 0, const char* name = "test output") {
        auto b = engine::Buffer::create(ctx(), std::max<VkDeviceSize>(bytes, 4),
                                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                            VK_BUFFER_USAGE_TRANSFER_SRC_BIT | extra,
                                        engine::MemoryUsage::DeviceLocal, name);
        EXPECT_TRUE(b) << b.error().message;
        return std::move(b).value();
    }
    // Copies `bytes` from the start of any device buffer (e.g. a render-graph slot) to `dst`, after all
    // earlier work; the test's only wait.
    void copyOut(VkBuffer src, void* dst, VkDeviceSize bytes);
    template <typename T>
    std::vector<T> read(const engine::Buffer& b, size_t count, VkDeviceSize offset = 0) {
        auto r = engine::readVector<T>(ctx(), b, count, offset);
        EXPECT_TRUE(r) << r.error().message;
        return r ? std::move(r).value() : std::vector<T>{};
    }
};

}  // namespace testing_gpu
