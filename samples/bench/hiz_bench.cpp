// sieve-bench hiz: min+max Hi-Z pyramid builds (single dispatch and one dispatch per mip) at several
// depth sizes, each next to copies of the same depth bytes (image to image, image to buffer, buffer to
// buffer) timed in the same run. One JSON line per size.
#include <volk.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "bench_util.h"
#include "sieve/hiz.h"
#include "subcommands.h"

namespace bench {
namespace {

constexpr const char* kName = "hiz";

constexpr const char* kDescription =
    "Times HiZBuilder::recordSingle and recordPerMip on a D32 depth image of random depths (default sizes\n"
    "1920x1080,2560x1440,3840x2160), with vkCmdCopyImage, vkCmdCopyImageToBuffer and vkCmdCopyBuffer of the\n"
    "same depth bytes as peers. --verify compares both pyramids with the CPU reference (small sizes!).";

struct Images {
    engine::Image depth, depthCopy, pyramid;
    engine::Buffer depthBytes, depthBytes2, counter;
    std::vector<VkImageView> mipViews;
};

sieve::Result<Images> makeImages(engine::Context& ctx, VkExtent2D extent, const std::vector<float>& values) {
    Images im;
    const VkImageUsageFlags depthUsage =
        VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    auto depth = engine::Image::create(ctx, {VK_FORMAT_D32_SFLOAT, extent, 1, depthUsage, "bench depth"});
    if (!depth) return depth.error();
    im.depth = std::move(depth).value();
    auto copy = engine::Image::create(ctx, {VK_FORMAT_D32_SFLOAT, extent, 1, depthUsage, "bench depth copy"});
    if (!copy) return copy.error();
    im.depthCopy = std::move(copy).value();
    const VkExtent2D base = sieve::HiZBuilder::pyramidExtent(extent);
    const uint32_t mips = sieve::HiZBuilder::mipCount(base);
    auto pyramid = engine::Image::create(
        ctx, {sieve::kHiZFormat, base, mips, sieve::kHiZUsage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, "bench hiz"});
    if (!pyramid) return pyramid.error();
    im.pyramid = std::move(pyramid).value();
    for (uint32_t m = 0; m < mips; ++m) im.mipViews.push_back(im.pyramid.mipView(m));
    const uint64_t bytes = uint64_t(values.size()) * 4;
    auto b1 = deviceBuffer(ctx, bytes, "bench depth bytes");
    if (!b1) return b1.error();
    im.depthBytes = std::move(b1).value();
    auto b2 = deviceBuffer(ctx, bytes, "bench depth bytes 2");
    if (!b2) return b2.error();
    im.depthBytes2 = std::move(b2).value();
    auto counter = deviceBuffer(ctx, sieve::HiZBuilder::counterBytes(), "bench hiz counter");
    if (!counter) return counter.error();
    im.counter = std::move(counter).value();
    if (auto r = engine::uploadBuffer(ctx, im.depthBytes, values.data(), bytes); !r) return r.error();
    auto r = ctx.submitNow([&](VkCommandBuffer cmd) {
        vkCmdFillBuffer(cmd, im.counter.handle(), 0, VK_WHOLE_SIZE, 0);
        for (VkImage img : {im.depth.handle(), im.depthCopy.handle()})
            imageBarrier(cmd, img, VK_IMAGE_ASPECT_DEPTH_BIT, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                         VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
        region.imageExtent = {extent.width, extent.height, 1};
        vkCmdCopyBufferToImage(cmd, im.depthBytes.handle(), im.depth.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                               &region);
        imageBarrier(cmd, im.depth.handle(), VK_IMAGE_ASPECT_DEPTH_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        imageBarrier(cmd, im.pyramid.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                     VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                     VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                     VK_IMAGE_LAYOUT_GENERAL);
    });
    if (!r) return r.error();
    return im;
}

// Reads every mip back as (min, max) pairs and compares with the reference. Returns a mismatch
// description, or empty.
std::string verifyPyramid(engine::Context& ctx, const Images& im, const sieve::HiZPyramidCpu& ref) {
    const VkExtent2D base = im.pyramid.extent();
    const uint32_t mips = im.pyramid.mipLevels();
    if (ref.mipCount() != mips) return "mip count differs from the reference";
    std::vector<VkDeviceSize> offsets;
    VkDeviceSize bytes = 0;
    for (uint32_t m = 0; m < mips; ++m) {
        offsets.push_back(bytes);
        const VkExtent2D e = sieve::HiZBuilder::mipExtent(base, m);
        bytes += VkDeviceSize(e.width) * e.height * 8;
    }
    auto buf = deviceBuffer(ctx, bytes, "bench pyramid readback");
    if (!buf) return buf.error().message;
    auto r = ctx.submitNow([&](VkCommandBuffer cmd) {
        imageBarrier(cmd, im.pyramid.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                     VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        for (uint32_t m = 0; m < mips; ++m) {
            const VkExtent2D e = sieve::HiZBuilder::mipExtent(base, m);
            VkBufferImageCopy region{};
            region.bufferOffset = offsets[m];
            region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, m, 0, 1};
            region.imageExtent = {e.width, e.height, 1};
            vkCmdCopyImageToBuffer(cmd, im.pyramid.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buf->handle(), 1,
                                   &region);
        }
        imageBarrier(
            cmd, im.pyramid.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
            VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT, VK_IMAGE_LAYOUT_GENERAL);
    });
    if (!r) return r.error().message;
    for (uint32_t m = 0; m < mips; ++m) {
        const VkExtent2D e = sieve::HiZBuilder::mipExtent(base, m);
        auto v = engine::readVector<float>(ctx, buf.value(), size_t(e.width) * e.height * 2, offsets[m]);
        if (!v) return v.error().message;
        const sieve::HiZLevel& level = ref.levels[m];
        for (size_t i = 0; i < size_t(e.width) * e.height; ++i)
            if ((*v)[2 * i] != level.min[i] || (*v)[2 * i + 1] != level.max[i])
                return "mip " + std::to_string(m) + " texel " + std::to_string(i) + " differs";
    }
    return {};
}

// Clears the pyramid to a value no depth has, so that a verify pass sees only what the build wrote.
sieve::Result<void> poisonPyramid(engine::Context& ctx, const Images& im) {
    return ctx.submitNow([&](VkCommandBuffer cmd) {
        imageBarrier(cmd, im.pyramid.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                     VK_ACCESS_2_MEMORY_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL);
        VkClearColorValue poison{};
        poison.float32[0] = poison.float32[1] = -7.0f;
        const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0, 1};
        vkCmdClearColorImage(cmd, im.pyramid.handle(), VK_IMAGE_LAYOUT_GENERAL, &poison, 1, &range);
        imageBarrier(cmd, im.pyramid.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                     VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                     VK_IMAGE_LAYOUT_GENERAL);
    });
}

}  // namespace

int hizMain(int argc, char** argv) {
    std::vector<cli::Extent> sizes{{1920, 1080}, {2560, 1440}, {3840, 2160}};
    uint32_t runs = 200, warmup = 20;
    uint64_t seed = 1;
    bool verify = false;
    std::string out;
    cli::Parser p = subcommandParser(kName, kDescription);
    p.option(
         "--sizes", "WxH,...", "depth sizes (default 1920x1080,2560x1440,3840x2160)",
         [&](const std::string& v) { return cli::parseExtentList(v, 16384, sizes); }, "comma-separated WxH, 1..16384")
        .count("--runs", "R", "timed runs (default 200)", runs, 1, 100000)
        .count("--warmup", "W", "warm-up runs (default 20)", warmup, 0, 100000)
        .count("--seed", "S", "seed of the depths (default 1)", seed, 0, UINT64_MAX)
        .flag("--verify", "compare the pyramids with the CPU reference; exit 1 on a mismatch", verify)
        .text("--out", "FILE", "append the JSON lines to FILE (default: stdout)", out);
    if (auto exit = p.run(argc, argv, 1)) return *exit;
    const JsonSink sink(out);

    auto ctxR = makeContext();
    if (!ctxR) return fail(kName, ctxR.error().message);
    engine::Context& ctx = *ctxR.value();
    auto builderR = sieve::HiZBuilder::create(ctx.info());
    if (!builderR) return fail(kName, builderR.error().message);
    const sieve::HiZBuilder& builder = builderR.value();
    const uint64_t copyBytes = peakCopyBytes(ctx);
    auto peers = measurePeers(ctx, copyBytes, runs);
    if (!peers) return fail(kName, peers.error().message);

    bool allOk = true;
    for (const cli::Extent size : sizes) {
        const VkExtent2D extent{size.width, size.height};
        std::mt19937 rng(uint32_t(seed) ^ (extent.width * 2654435761u) ^ extent.height);
        std::uniform_real_distribution<float> dist(1e-4f, 1.0f);
        std::vector<float> values(size_t(extent.width) * extent.height);
        for (float& v : values) v = dist(rng);
        auto imR = makeImages(ctx, extent, values);
        if (!imR) return fail(kName, imR.error().message);
        Images& im = imR.value();
        const sieve::HiZSource src{im.depth.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, extent};
        const sieve::HiZTarget dst{im.pyramid.handle(), im.mipViews};
        const uint32_t r = runs, w = warmup;

        Json line;
        line.str("scenario", kName).integer("width", extent.width).integer("height", extent.height);
        const VkExtent2D base = im.pyramid.extent();
        line.integer("pyramid_width", base.width)
            .integer("pyramid_height", base.height)
            .integer("mips", im.pyramid.mipLevels());

        std::string mismatch;
        sieve::HiZPyramidCpu ref;
        if (verify) ref = sieve::hizReference(extent, values);
        auto timeBuilder = [&](bool single, const char* key) -> sieve::Result<void> {
            if (verify)
                if (auto p = poisonPyramid(ctx, im); !p) return p;
            auto t = timeGpu(ctx, w, r, [&](VkCommandBuffer cmd) {
                return single ? builder.recordSingle(cmd, src, dst, im.counter.range())
                              : builder.recordPerMip(cmd, src, dst);
            });
            if (!t) return t.error();
            addStat(line, key, stat(t.value()));
            if (verify && mismatch.empty()) {
                const std::string m = verifyPyramid(ctx, im, ref);
                if (!m.empty()) mismatch = std::string(key) + ": " + m;
            }
            return {};
        };
        const bool singleOk = builder.singlePassSupported();
        if (singleOk)
            if (auto s = timeBuilder(true, "single"); !s) return fail(kName, s.error().message);
        if (auto s = timeBuilder(false, "per_mip"); !s) return fail(kName, s.error().message);

        // Peers: the same depth bytes copied image -> image, image -> buffer, buffer -> buffer.
        const uint64_t depthBytes = uint64_t(extent.width) * extent.height * 4;
        auto toLayout = [&](VkImageLayout from, VkImageLayout to, VkPipelineStageFlags2 fromStage,
                            VkPipelineStageFlags2 toStage) {
            return ctx.submitNow([&](VkCommandBuffer cmd) {
                imageBarrier(cmd, im.depth.handle(), VK_IMAGE_ASPECT_DEPTH_BIT, fromStage, VK_ACCESS_2_NONE, from,
                             toStage, VK_ACCESS_2_NONE, to);
            });
        };
        if (auto s = toLayout(VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                              VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_2_COPY_BIT);
            !s)
            return fail(kName, s.error().message);
        VkImageCopy icopy{};
        icopy.srcSubresource = icopy.dstSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
        icopy.extent = {extent.width, extent.height, 1};
        auto copyImage = timeGpu(ctx, w, r, [&](VkCommandBuffer cmd) -> sieve::Result<void> {
            vkCmdCopyImage(cmd, im.depth.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, im.depthCopy.handle(),
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &icopy);
            return {};
        });
        if (!copyImage) return fail(kName, copyImage.error().message);
        VkBufferImageCopy bcopy{};
        bcopy.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
        bcopy.imageExtent = {extent.width, extent.height, 1};
        auto copyToBuffer = timeGpu(ctx, w, r, [&](VkCommandBuffer cmd) -> sieve::Result<void> {
            vkCmdCopyImageToBuffer(cmd, im.depth.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                   im.depthBytes2.handle(), 1, &bcopy);
            return {};
        });
        if (!copyToBuffer) return fail(kName, copyToBuffer.error().message);
        if (auto s = toLayout(VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                              VK_PIPELINE_STAGE_2_COPY_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
            !s)
            return fail(kName, s.error().message);
        auto copyBuffer = timeGpu(ctx, w, r, [&](VkCommandBuffer cmd) -> sieve::Result<void> {
            VkBufferCopy region{0, 0, depthBytes};
            vkCmdCopyBuffer(cmd, im.depthBytes.handle(), im.depthBytes2.handle(), 1, &region);
            return {};
        });
        if (!copyBuffer) return fail(kName, copyBuffer.error().message);
        addStat(line, "copy_image", stat(copyImage.value()));
        addStat(line, "copy_to_buffer", stat(copyToBuffer.value()));
        addStat(line, "copy_buffer", stat(copyBuffer.value()));

        // Fewest bytes a pyramid build moves: the depth read once, every mip written once.
        uint64_t pyramidBytes = 0;
        for (uint32_t m = 0; m < im.pyramid.mipLevels(); ++m) {
            const VkExtent2D e = sieve::HiZBuilder::mipExtent(base, m);
            pyramidBytes += uint64_t(e.width) * e.height * 8;
        }
        line.integer("bytes", depthBytes + pyramidBytes)
            .num("bound_us", boundUs(peers.value(), double(depthBytes + pyramidBytes)));
        line.boolean("single_supported", singleOk);
        addPeers(line, peers.value());
        if (verify) {
            line.boolean("verified", mismatch.empty());
            if (!mismatch.empty()) {
                std::fprintf(stderr, "sieve-bench hiz: %ux%u: %s\n", extent.width, extent.height, mismatch.c_str());
                allOk = false;
            }
        }
        describe(ctx, line);
        if (!sink.write(line)) return fail(kName, "cannot write the output file");
    }
    return allOk ? 0 : 1;
}

}  // namespace bench
