#pragma once
// Hi-Z min/max depth pyramid.
//
// Depth convention: reverse-Z with an infinite far plane. The near plane has depth 1.0, infinity 0.0;
// a larger depth is nearer. Depth = znear / d for a point at view-space distance d along the view axis.
//
// Pyramid (the host allocates it; formats and sizes below):
// - one image, format kHiZFormat (RG32F): r = min depth (the FARTHEST depth in the footprint: what an
//   occlusion test compares against), g = max depth (the nearest).
// - mip 0 is W0 x H0 = pyramidExtent(depth) = the previous power of two of the depth extent per
//   dimension (1919x1079 -> 1024x1024, 3x5 -> 2x4); mip m is max(1, W0>>m) x max(1, H0>>m);
//   mipCount(W0 x H0) = floor(log2(max(W0, H0))) + 1.
// - footprint (hizFootprint): texel (x, y) of mip m covers the depth pixels
//       [floor(a*W/W0), ceil(b*W/W0)) x [floor(c*H/H0), ceil(d*H/H0))
//   where [a, b) = [x*s, (x+1)*s) with s = W0 / width(mip m), and likewise [c, d) in y. Because W/W0 is
//   in [1, 2), a mip-0 texel covers 1 to 3 pixels per dimension (it folds the extra row/column of odd
//   and non-power-of-two sizes). In normalized [0,1]^2 screen coordinates, every texel covers every
//   pixel whose area overlaps the texel's area: min/max over it is conservative for occlusion tests
//   that map a screen rectangle to texels by floor(u * width(mip m)).
// - the texel holds exactly min and max over its footprint (min/max are exact: both builders equal the
//   CPU reference hizReference bit for bit).
//
// Builders: recordPerMip (one dispatch per mip, a sync2 barrier between mips) and recordSingle (one
// dispatch; 64x64 tiles of mip 0 per workgroup, the last workgroup builds the top mips; its stages are
// chosen by HiZSingleVariant, kHiZSingleDefault unless the caller asks). Both expect the pyramid in
// VK_IMAGE_LAYOUT_GENERAL (the caller transitions it before, and after for sampling), every mip written
// by a compute shader storage write when they return.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <vector>

#include "sieve/gpu.h"
#include "sieve/pipeline.h"
#include "sieve/result.h"

namespace sieve {

inline constexpr VkFormat kHiZFormat = VK_FORMAT_R32G32_SFLOAT;
// Usage the pyramid image needs: storage (built here) and sampled (read by the occlusion test).
inline constexpr VkImageUsageFlags kHiZUsage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;

// The depth image to reduce: a view of the depth aspect alone of any depth format (D16_UNORM,
// X8_D24_UNORM_PACK32, D24_UNORM_S8_UINT, D32_SFLOAT, D32_SFLOAT_S8_UINT: the shaders read the depth
// value as a float, whatever its encoding), in `layout` (SHADER_READ_ONLY_OPTIMAL,
// DEPTH_READ_ONLY_OPTIMAL or DEPTH_STENCIL_READ_ONLY_OPTIMAL), readable by the compute stage (sampled).
// `samples`: the image's sample count (1, 2, 4, ... 64). A multisampled depth is reduced over every
// sample of a pixel (min: its farthest sample, max: its nearest), by the per-mip builder only.
struct HiZSource {
    VkImageView view = VK_NULL_HANDLE;
    VkImageLayout layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    VkExtent2D extent{0, 0};
    uint32_t samples = 1;
};

// The pyramid: the image (kHiZFormat, HiZBuilder::pyramidExtent, HiZBuilder::mipCount mips, kHiZUsage,
// layout GENERAL) and one single-mip view per level, mip 0 first.
struct HiZTarget {
    VkImage image = VK_NULL_HANDLE;
    std::span<const VkImageView> mipViews;
};

// The single-dispatch builder's mip-0 stage: Gather (the default) reads each 2x2 block's depth window
// with independent textureGather calls; Fetch is the previous stage (one texelFetch per covered pixel,
// each waiting on the one before), kept for comparison.
enum class HiZMip0 : uint32_t { Fetch = 0, Gather = 1 };
// How mip 0 is stored: Band (the default: through shared memory, so that each store instruction writes
// adjacent texels) or Direct (each invocation its 2x2 texels, as the previous builder did).
enum class HiZStore0 : uint32_t { Direct = 0, Band = 1 };
// Benchmark-only cuts that time part of the single-dispatch build: AfterMip1 writes mips 0-1 only,
// AfterMip1NoStores computes them without storing, BeforeTail writes mips 0-6 without the
// last-workgroup tail. All leave the pyramid incomplete on purpose.
enum class HiZStop : uint32_t { Never = 0, AfterMip1 = 1, BeforeTail = 2, AfterMip1NoStores = 3 };
struct HiZSingleVariant {
    HiZMip0 mip0 = HiZMip0::Gather;
    HiZStop stop = HiZStop::Never;
    HiZStore0 store0 = HiZStore0::Band;
    bool operator==(const HiZSingleVariant&) const = default;
};

inline constexpr HiZSingleVariant kHiZSingleDefault{};
// The builder before the gathered mip 0 (2026-12-01 main), for comparisons.
inline constexpr HiZSingleVariant kHiZSinglePrevious{HiZMip0::Fetch, HiZStop::Never, HiZStore0::Direct};

class HiZBuilder {
public:
    HiZBuilder() = default;
    // Creates the per-mip builder and the single-dispatch variants kHiZSingleDefault and
    // kHiZSinglePrevious, plus `extraVariants` (the benchmark's).
    static Result<HiZBuilder> create(const DeviceInfo& dev, std::span<const HiZSingleVariant> extraVariants = {});

    static VkExtent2D pyramidExtent(VkExtent2D depth);
    static uint32_t mipCount(VkExtent2D pyramid);
    static VkExtent2D mipExtent(VkExtent2D pyramid, uint32_t mip);
    // The single-pass builder's counter buffer: a u32 that must be zero before the first build (fill
    // it once when allocating); every build leaves it zero again.
    static constexpr VkDeviceSize counterBytes() { return 4; }

    // The single-pass builder binds every mip at once: it needs more storage-image and push
    // descriptors, shared memory and invocations than the Vulkan minimum (true on desktop GPUs and
    // lavapipe). recordSingle fails when false; recordPerMip always works.
    static bool singlePassFits(const DeviceInfo& dev);
    bool singlePassSupported() const { return !singlePass_.empty(); }
    // recordSingle can build the pyramid of a depth attachment of this extent (at most 16 mips) and
    // sample count (single-sample only: its mip-0 stage gathers).
    bool singlePassServes(VkExtent2D depth, uint32_t samples = 1) const;

    Result<void> recordPerMip(VkCommandBuffer cmd, const HiZSource& depth, const HiZTarget& pyramid) const;
    // `counter`: counterBytes() of a storage buffer, read and written by the compute shader.
    // `variant`: one that create() made (an error otherwise).
    Result<void> recordSingle(VkCommandBuffer cmd, const HiZSource& depth, const HiZTarget& pyramid,
                              BufferRange counter, HiZSingleVariant variant = {}) const;

private:
    Result<void> check(const HiZSource& depth, const HiZTarget& pyramid) const;
    bool created_ = false;
    NearestSampler sampler_;  // texelFetch ignores it but the descriptor needs one
    ComputePipeline toMip0_;
    ComputePipeline toMip0Ms_;  // from a multisampled depth
    ComputePipeline reduce_;
    struct SinglePass {
        HiZSingleVariant variant;
        ComputePipeline pipeline;
    };
    std::vector<SinglePass> singlePass_;  // empty where the device lacks the descriptors
};

// ---- CPU reference: the specification both builders are tested against ----

// Half-open rectangle of depth pixels [x0, x1) x [y0, y1).
struct HiZFootprint {
    uint32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};
HiZFootprint hizFootprint(VkExtent2D depth, uint32_t mip, uint32_t x, uint32_t y);

struct HiZLevel {
    VkExtent2D extent{0, 0};
    std::vector<float> min, max;  // row-major, width * height
};

struct HiZPyramidCpu {
    std::vector<HiZLevel> levels;
    VkExtent2D extent() const { return levels.empty() ? VkExtent2D{0, 0} : levels[0].extent; }
    uint32_t mipCount() const { return uint32_t(levels.size()); }
    float minAt(uint32_t mip, uint32_t x, uint32_t y) const {
        return levels[mip].min[size_t(y) * levels[mip].extent.width + x];
    }
};

// min/max over exactly the footprint of every texel (brute force: it is the spec, not an optimization).
// `depth` holds extent.width * extent.height * samples values: pixels row-major, each pixel's samples
// in a row; every sample of a covered pixel counts.
HiZPyramidCpu hizReference(VkExtent2D extent, std::span<const float> depth, uint32_t samples = 1);

}  // namespace sieve
