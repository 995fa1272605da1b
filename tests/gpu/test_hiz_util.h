#pragma once
// Helpers shared by the Hi-Z and occlusion GPU tests: a depth image filled from floats, an empty
// pyramid, and reading every pyramid mip back.
#include <vector>

#include "gpu/gpu_fixture.h"
#include "sieve/barriers.h"
#include "sieve/hiz.h"

namespace testing_gpu {

struct DepthPyramidImages {
    engine::Image depth;
    engine::Image pyramid;
    std::vector<VkImageView> mipViews;
    VkExtent2D extent{};
    uint32_t samples = 1;
    sieve::HiZSource source() const {
        return {depth.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, extent, samples};
    }
    sieve::HiZTarget target() const { return {pyramid.handle(), mipViews}; }
};

using sieve::imageBarrier;

// Creates the depth image (uploads `values`, leaves it SHADER_READ_ONLY_OPTIMAL for compute reads) and
// the pyramid (left in GENERAL for the builders). D32_SFLOAT single-sample.
DepthPyramidImages makeDepthAndPyramid(engine::Context& ctx, VkExtent2D extent, const std::vector<float>& values);

// The same in any depth format and sample count. Single-sample images are filled by a copy: `values` are
// encoded in the format (unorm formats: round(v * (2^bits - 1)), so pass values on that grid, see
// depthGrid); multisampled ones by drawing each sample (test/depth_write.frag: float formats only, as
// a depth write may round unorm values either way). values: width * height * samples, each pixel's
// samples in a row.
DepthPyramidImages makeDepthAndPyramid(engine::Context& ctx, VkExtent2D extent, const std::vector<float>& values,
                                       VkFormat format, uint32_t samples);

// The depth `code` of a format's encoding decodes to (code / (2^bits - 1) for D16 and D24, the float
// itself for D32): what the shaders read.
float depthGrid(VkFormat format, uint32_t code);
uint32_t depthCodeMax(VkFormat format);  // 2^bits - 1 (D32: 0, no grid)

// Re-uploads depth values into an existing depth image (SHADER_READ_ONLY_OPTIMAL before and after;
// waits for previous compute reads).
void uploadDepth(engine::Context& ctx, DepthPyramidImages& images, const std::vector<float>& values);

// Reads all mips of the pyramid (GENERAL before and after, after compute writes): (min, max) pairs.
std::vector<std::vector<float>> readPyramid(engine::Context& ctx, const DepthPyramidImages& images);

}  // namespace testing_gpu
