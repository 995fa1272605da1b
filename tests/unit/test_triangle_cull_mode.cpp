// The mesh path's per-triangle culling, host side (passes/src/geometry/triangle_cull.h): the specialization
// constant follows the pipeline's rasterization state exactly (face culling, front face, sample count,
// the device's subpixel bits), and the viewport transform the shaders get is Vulkan's, flipped viewports too.
#include <gtest/gtest.h>

#include "geometry/triangle_cull.h"
#include "shared/triangle_cull.h"

namespace {

using namespace sieve::gpu;

sieve::DeviceInfo deviceWithSubpixelBits(uint32_t bits) {
    sieve::DeviceInfo dev;
    dev.limits.subPixelPrecisionBits = bits;
    return dev;
}

TEST(TriangleCullMode, FollowsThePipelinesFaceCullingAndFrontFace) {
    const sieve::DeviceInfo dev = deviceWithSubpixelBits(8);
    sieve::GraphicsPipelineDesc desc;
    desc.cullMode = VK_CULL_MODE_BACK_BIT;
    desc.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    const uint32_t bits = 8u << SIEVE_TRIANGLE_CULL_SUBPIXEL_SHIFT;
    EXPECT_EQ(sieve::geometry::triangleCullMode(false, desc, dev), 0u);
    EXPECT_EQ(sieve::geometry::triangleCullMode(true, desc, dev),
              SIEVE_TRIANGLE_CULL_ON | SIEVE_TRIANGLE_CULL_BACK | bits);
    desc.frontFace = VK_FRONT_FACE_CLOCKWISE;
    EXPECT_EQ(sieve::geometry::triangleCullMode(true, desc, dev),
              SIEVE_TRIANGLE_CULL_ON | SIEVE_TRIANGLE_CULL_BACK | SIEVE_TRIANGLE_CULL_CLOCKWISE | bits);
    desc.cullMode = VK_CULL_MODE_FRONT_BIT;
    EXPECT_EQ(sieve::geometry::triangleCullMode(true, desc, dev),
              SIEVE_TRIANGLE_CULL_ON | SIEVE_TRIANGLE_CULL_FRONT | SIEVE_TRIANGLE_CULL_CLOCKWISE | bits);
    // Double-sided bins: no face test, the sample tests stay.
    desc.cullMode = VK_CULL_MODE_NONE;
    desc.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    EXPECT_EQ(sieve::geometry::triangleCullMode(true, desc, dev), SIEVE_TRIANGLE_CULL_ON | bits);
    // The no-sample test knows single-sample centres only.
    desc.samples = VK_SAMPLE_COUNT_4_BIT;
    EXPECT_EQ(sieve::geometry::triangleCullMode(true, desc, dev), 0u);
}

TEST(TriangleCullMode, CarriesTheDevicesSubpixelPrecision) {
    sieve::GraphicsPipelineDesc desc;
    const auto bitsOf = [&](uint32_t deviceBits) {
        return sieve::geometry::triangleCullMode(true, desc, deviceWithSubpixelBits(deviceBits)) >>
               SIEVE_TRIANGLE_CULL_SUBPIXEL_SHIFT;
    };
    EXPECT_EQ(bitsOf(8), 8u);
    EXPECT_EQ(bitsOf(4), 4u);
    EXPECT_EQ(bitsOf(0), 4u);    // below Vulkan's minimum: taken as the minimum (a wider margin)
    EXPECT_EQ(bitsOf(31), 16u);  // finer grids: 2^-16 px still covers them
}

TEST(TriangleCullMode, ViewportTransformIsVulkans) {
    const VkExtent2D extent{1919, 1079};
    const vec4 whole = sieve::geometry::viewportTransform(nullptr, extent);
    EXPECT_EQ(whole, vec4(959.5f, 539.5f, 959.5f, 539.5f));
    // A negative-height viewport: y = height, height = -height flips y.
    const VkViewport flipped{0.0f, 1079.0f, 1919.0f, -1079.0f, 0.0f, 1.0f};
    EXPECT_EQ(sieve::geometry::viewportTransform(&flipped, extent), vec4(959.5f, -539.5f, 959.5f, 539.5f));
    const VkViewport offset{10.0f, 20.0f, 100.0f, 50.0f, 0.0f, 1.0f};
    EXPECT_EQ(sieve::geometry::viewportTransform(&offset, extent), vec4(50.0f, 25.0f, 60.0f, 45.0f));
}

}  // namespace
