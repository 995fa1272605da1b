#pragma once
// Helpers shared by the Hi-Z and occlusion GPU tests: a depth image filled from floats, an empty
// pyramid, and reading every pyramid mip back.
#include <vector>

#include "sieve/barriers.h"
#include "gpu/gpu_fixture.h"
#include "sieve/hiz.h"

namespace testing_gpu {

struct DepthPyramidImages {
    engine::Image depth;
    engine::Image pyramid;
    std::vector<VkImageView> mipViews;
    VkExtent2D extent{};
    sieve::HiZSource source() const { return {depth.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, extent}; }
    sieve::HiZTarget target() const { return {pyramid.handle(), mipViews}; }
};

using sieve::imageBarrier;

// Creates the depth image (uploads `values`, leaves it SHADER_READ_ONLY_OPTIMAL for compute reads) and
// the pyramid (left in GENERAL for the builders).
DepthPyramidImages makeDepthAndPyramid(engine::Context& ctx, VkExtent2D extent, const std::vector<float>& values);

// Re-uploads depth values into an existing depth image (SHADER_READ_ONLY_OPTIMAL before and after;
// waits for previous compute reads).
void uploadDepth(engine::Context& ctx, DepthPyramidImages& images, const std::vector<float>& values);

// Reads all mips of the pyramid (GENERAL before and after, after compute writes): (min, max) pairs.
std::vector<std::vector<float>> readPyramid(engine::Context& ctx, const DepthPyramidImages& images);

}  // namespace testing_gpu
