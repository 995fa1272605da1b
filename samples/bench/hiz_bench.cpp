// sieve-bench hiz: min+max Hi-Z pyramid builds (single dispatch and one dispatch per mip) at several
// depth sizes. Per size, the builders and their peers run interleaved in one submission after a warm-up
// by time (interleave.h): copies of the same depth bytes (image to image, image to buffer, buffer to
// buffer), a compute copy of the bytes a build moves, and zero-work dispatch chains of each builder's
// shape. Each builder writes its own pyramid, compared with the CPU reference after the timed rounds.
// One JSON line per size.
#include <volk.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "bench_util.h"
#include "command_count.h"
#include "compute_copy.h"
#include "engine/vk/pyramid_readback.h"
#include "interleave.h"
#include "shared/test_push.h"
#include "sieve/hiz.h"
#include "subcommands.h"

namespace bench {
namespace {

constexpr const char* kName = "hiz";

constexpr const char* kDescription =
    "Times HiZBuilder::recordSingle (the default, the previous builder, partial builds: cut_*) and recordPerMip\n"
    "on a D32 depth image of random depths (default sizes 1920x1080,2560x1440,3840x2160), with\n"
    "vkCmdCopyImage, vkCmdCopyImageToBuffer and vkCmdCopyBuffer of the same depth bytes, a compute copy of the\n"
    "bytes a build moves and zero-work dispatch chains as peers, all interleaved. The complete pyramids are\n"
    "compared with the CPU reference after the timed runs (--no-verify skips).";

// The pyramids, one per verified builder and one the profiling cuts share (never verified).
enum PyramidIndex { kSingle, kSingleFetch, kSingleDirect, kPerMip, kCutPyramid, kPyramids };
constexpr const char* kPyramidNames[kPyramids] = {"bench hiz", "bench hiz fetch", "bench hiz direct",
                                                  "bench hiz per mip", "bench hiz cuts"};

struct Images {
    engine::Image depth, depthCopy;
    engine::Image pyramids[kPyramids];
    std::vector<VkImageView> mipViews[kPyramids];
    engine::Buffer depthBytes, depthBytes2, counter;  // the cuts never touch the counter
};

sieve::Result<Images> makeImages(engine::Context& ctx, VkExtent2D extent, const std::vector<float>& values,
                                 uint64_t peerBytes) {
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
    for (int k = 0; k < kPyramids; ++k) {
        auto pyramid = engine::Image::create(
            ctx,
            {sieve::kHiZFormat, base, mips,
             sieve::kHiZUsage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, kPyramidNames[k]});
        if (!pyramid) return pyramid.error();
        im.pyramids[k] = std::move(pyramid).value();
        for (uint32_t m = 0; m < mips; ++m) im.mipViews[k].push_back(im.pyramids[k].mipView(m));
    }
    // The buffers also serve the compute-copy peer: half the bytes of a build (depth + every mip).
    const uint64_t bytes = std::max<uint64_t>(uint64_t(values.size()) * 4, peerBytes);
    auto b1 = deviceBuffer(ctx, bytes, "bench depth bytes");
    if (!b1) return b1.error();
    im.depthBytes = std::move(b1).value();
    auto b2 = deviceBuffer(ctx, bytes, "bench depth bytes 2");
    if (!b2) return b2.error();
    im.depthBytes2 = std::move(b2).value();
    auto counter = deviceBuffer(ctx, sieve::HiZBuilder::counterBytes(), "bench hiz counter");
    if (!counter) return counter.error();
    im.counter = std::move(counter).value();
    if (auto r = engine::uploadBuffer(ctx, im.depthBytes, values.data(), uint64_t(values.size()) * 4); !r)
        return r.error();
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
        for (const engine::Image& pyr : im.pyramids)
            imageBarrier(cmd, pyr.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                         VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                         VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                         VK_IMAGE_LAYOUT_GENERAL);
    });
    if (!r) return r.error();
    return im;
}

// Reads every mip back as (min, max) pairs and compares with the reference. Returns a mismatch
// description, or empty.
std::string verifyPyramid(engine::Context& ctx, const engine::Image& pyramid, const sieve::HiZPyramidCpu& ref) {
    if (ref.mipCount() != pyramid.mipLevels()) return "mip count differs from the reference";
    auto mips = engine::readPyramid(ctx, pyramid);
    if (!mips) return mips.error().message;
    for (uint32_t m = 0; m < mips->size(); ++m) {
        const std::vector<float>& v = (*mips)[m];
        const sieve::HiZLevel& level = ref.levels[m];
        for (size_t i = 0; i < v.size() / 2; ++i)
            if (v[2 * i] != level.min[i] || v[2 * i + 1] != level.max[i])
                return "mip " + std::to_string(m) + " texel " + std::to_string(i) + " differs";
    }
    return {};
}

// Clears the pyramid to a value no depth has, so that a verify pass sees only what the build wrote.
sieve::Result<void> poisonPyramid(engine::Context& ctx, const engine::Image& pyramid) {
    return ctx.submitNow([&](VkCommandBuffer cmd) {
        imageBarrier(cmd, pyramid.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                     VK_ACCESS_2_MEMORY_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL);
        VkClearColorValue poison{};
        poison.float32[0] = poison.float32[1] = -7.0f;
        const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0, 1};
        vkCmdClearColorImage(cmd, pyramid.handle(), VK_IMAGE_LAYOUT_GENERAL, &poison, 1, &range);
        imageBarrier(cmd, pyramid.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                     VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                     VK_IMAGE_LAYOUT_GENERAL);
    });
}

// Depth (as a sampled image) -> transfer source for the copy peers, and back.
void depthLayout(VkCommandBuffer cmd, VkImage depth, bool toCopy) {
    const VkImageLayout shader = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, copy = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    const VkPipelineStageFlags2 cs = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, cp = VK_PIPELINE_STAGE_2_COPY_BIT;
    imageBarrier(cmd, depth, VK_IMAGE_ASPECT_DEPTH_BIT, toCopy ? cs : cp, VK_ACCESS_2_NONE, toCopy ? shader : copy,
                 toCopy ? cp : cs, toCopy ? VK_ACCESS_2_TRANSFER_READ_BIT : VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                 toCopy ? copy : shader);
}

// Partial builds that show where the single dispatch spends its time (their pyramid is not verified).
struct Cut {
    const char* key;
    sieve::HiZSingleVariant variant;
};
using sieve::HiZMip0, sieve::HiZStop, sieve::HiZStore0;
constexpr Cut kCuts[] = {
    {"cut_gather_mip01", {HiZMip0::Gather, HiZStop::AfterMip1, HiZStore0::Band}},
    {"cut_gather_mip01_no_stores", {HiZMip0::Gather, HiZStop::AfterMip1NoStores, HiZStore0::Band}},
    {"cut_gather_direct_mip01", {HiZMip0::Gather, HiZStop::AfterMip1, HiZStore0::Direct}},
    {"cut_gather_no_tail", {HiZMip0::Gather, HiZStop::BeforeTail, HiZStore0::Band}},
    {"cut_fetch_mip01", {HiZMip0::Fetch, HiZStop::AfterMip1, HiZStore0::Direct}},
    {"cut_fetch_no_tail", {HiZMip0::Fetch, HiZStop::BeforeTail, HiZStore0::Direct}},
};

// The default's mip-0 stage with the previous builder's stores.
constexpr sieve::HiZSingleVariant kDirectVariant{HiZMip0::Gather, HiZStop::Never, HiZStore0::Direct};

}  // namespace

int hizMain(int argc, char** argv) {
    std::vector<cli::Extent> sizes{{1920, 1080}, {2560, 1440}, {3840, 2160}};
    uint32_t runs = 200, warmup = 1;
    uint64_t seed = 1;
    bool verifyFlag = false, noVerify = false;
    std::string out;
    cli::Parser p = subcommandParser(kName, kDescription);
    p.option(
         "--sizes", "WxH,...", "depth sizes (default 1920x1080,2560x1440,3840x2160)",
         [&](const std::string& v) { return cli::parseExtentList(v, 16384, sizes); }, "comma-separated WxH, 1..16384")
        .count("--runs", "R", "timed rounds (default 200)", runs, 1, 100000)
        .count("--warmup", "W", "warm-up rounds, at least (default 1; the warm-up lasts --warmup-ms anyway)", warmup, 0,
               100000)
        .option(
            "--warmup-ms", "MS", "GPU time of the warm-up before each timed submission (default 500)",
            [&](const std::string& v) {
                double ms = 0;
                return cli::parseDouble(v, ms) && ms >= 0 && (setWarmupMs(ms), true);
            },
            "a number of milliseconds >= 0")
        .count("--seed", "S", "seed of the depths (default 1)", seed, 0, UINT64_MAX)
        .flag("--verify", "compare the pyramids with the CPU reference (the default); exit 1 on a mismatch", verifyFlag)
        .flag("--no-verify", "skip the comparison", noVerify)
        .text("--out", "FILE", "append the JSON lines to FILE (default: stdout)", out);
    if (auto exit = p.run(argc, argv, 1)) return *exit;
    const bool verify = !noVerify;
    const JsonSink sink(out);

    auto ctxR = makeContext();
    if (!ctxR) return fail(kName, ctxR.error().message);
    engine::Context& ctx = *ctxR.value();
    std::vector<sieve::HiZSingleVariant> extraVariants{kDirectVariant};
    for (const Cut& cut : kCuts) extraVariants.push_back(cut.variant);
    auto builderR = sieve::HiZBuilder::create(ctx.info(), extraVariants);
    if (!builderR) return fail(kName, builderR.error().message);
    const sieve::HiZBuilder& builder = builderR.value();
    const uint64_t copyBytes = peakCopyBytes(ctx);
    auto peers = measurePeers(ctx, copyBytes, runs);
    if (!peers) return fail(kName, peers.error().message);
    auto computeCopy = ComputeCopy::create(ctx.info());
    if (!computeCopy) return fail(kName, computeCopy.error().message);
    sieve::ComputePipelineDesc zeroDesc;
    zeroDesc.shader = "test/fill.comp";
    zeroDesc.pushConstantBytes = sizeof(sieve::gpu::FillPush);
    auto zero = sieve::ComputePipeline::create(ctx.info(), zeroDesc);
    if (!zero) return fail(kName, zero.error().message);

    bool allOk = true;
    for (const cli::Extent size : sizes) {
        const VkExtent2D extent{size.width, size.height};
        std::mt19937 rng(uint32_t(seed) ^ (extent.width * 2654435761u) ^ extent.height);
        std::uniform_real_distribution<float> dist(1e-4f, 1.0f);
        std::vector<float> values(size_t(extent.width) * extent.height);
        for (float& v : values) v = dist(rng);
        const VkExtent2D base = sieve::HiZBuilder::pyramidExtent(extent);
        uint64_t mipBytes = 0;
        for (uint32_t m = 0; m < sieve::HiZBuilder::mipCount(base); ++m) {
            const VkExtent2D e = sieve::HiZBuilder::mipExtent(base, m);
            mipBytes += uint64_t(e.width) * e.height * 8;
        }
        // Fewest bytes a pyramid build moves: the depth read once, every mip written once.
        const uint64_t depthBytes = uint64_t(extent.width) * extent.height * 4;
        const uint64_t buildBytes = depthBytes + mipBytes;
        const uint64_t peerBytes = buildBytes / 2 / 16 * 16;
        auto imR = makeImages(ctx, extent, values, peerBytes);
        if (!imR) return fail(kName, imR.error().message);
        Images& im = imR.value();
        const sieve::HiZSource src{im.depth.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, extent};
        auto target = [&](PyramidIndex k) { return sieve::HiZTarget{im.pyramids[k].handle(), im.mipViews[k]}; };
        const sieve::HiZTarget dstSingle = target(kSingle), dstPerMip = target(kPerMip);
        sieve::HiZPyramidCpu ref;
        if (verify) {
            ref = sieve::hizReference(extent, values);
            for (const engine::Image& pyr : im.pyramids)
                if (auto r = poisonPyramid(ctx, pyr); !r) return fail(kName, r.error().message);
        }

        // Each builder's shape, counted while it records (the submission also checks it runs).
        const bool singleOk = builder.singlePassSupported();
        uint32_t singleShape[2] = {0, 0}, perMipShape[2] = {0, 0};
        for (bool single : {true, false}) {
            if (single && !singleOk) continue;
            sieve::Result<void> rec;
            CommandCount count(ctx.device());
            auto r = ctx.submitNow([&](VkCommandBuffer cmd) {
                rec = single ? builder.recordSingle(cmd, src, dstSingle, im.counter.range())
                             : builder.recordPerMip(cmd, src, dstPerMip);
            });
            uint32_t* shape = single ? singleShape : perMipShape;
            shape[0] = count.dispatches();
            shape[1] = count.barriers();
            if (!rec) return fail(kName, rec.error().message);
            if (!r) return fail(kName, r.error().message);
        }
        auto chain = [&](const uint32_t* shape) -> Recorder {
            return [&, shape](VkCommandBuffer cmd) -> sieve::Result<void> {
                const sieve::gpu::FillPush push{0, 0};
                for (uint32_t d = 0; d < shape[0]; ++d) {
                    if (d && d <= shape[1]) fullBarrier(cmd);
                    zero->dispatch(cmd, {sieve::Binding::storage(im.depthBytes2.range())}, push, 1);
                }
                return {};
            };
        };

        VkImageCopy icopy{};
        icopy.srcSubresource = icopy.dstSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
        icopy.extent = {extent.width, extent.height, 1};
        VkBufferImageCopy bcopy{};
        bcopy.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
        bcopy.imageExtent = {extent.width, extent.height, 1};
        const Recorder toCopy = [&](VkCommandBuffer cmd) -> sieve::Result<void> {
            depthLayout(cmd, im.depth.handle(), true);
            return {};
        };
        const Recorder fromCopy = [&](VkCommandBuffer cmd) -> sieve::Result<void> {
            depthLayout(cmd, im.depth.handle(), false);
            return {};
        };
        std::vector<Subject> subjects;
        std::vector<std::string> keys;
        auto add = [&](const char* key, Recorder body, Recorder setup = {}, Recorder teardown = {}) {
            subjects.push_back({key, std::move(body), std::move(setup), std::move(teardown)});
            keys.push_back(key);
        };
        if (singleOk) {
            add("single",
                [&](VkCommandBuffer cmd) { return builder.recordSingle(cmd, src, dstSingle, im.counter.range()); });
            add("chain_single", chain(singleShape));
            add("single_fetch", [&, dst = target(kSingleFetch)](VkCommandBuffer cmd) {
                return builder.recordSingle(cmd, src, dst, im.counter.range(), sieve::kHiZSinglePrevious);
            });
            add("single_direct", [&, dst = target(kSingleDirect)](VkCommandBuffer cmd) {
                return builder.recordSingle(cmd, src, dst, im.counter.range(), kDirectVariant);
            });
            for (const Cut& cut : kCuts)
                add(cut.key, [&, dst = target(kCutPyramid), v = cut.variant](VkCommandBuffer cmd) {
                    return builder.recordSingle(cmd, src, dst, im.counter.range(), v);
                });
        }
        add("per_mip", [&](VkCommandBuffer cmd) { return builder.recordPerMip(cmd, src, dstPerMip); });
        add("chain_per_mip", chain(perMipShape));
        add("compute_copy", [&](VkCommandBuffer cmd) -> sieve::Result<void> {
            computeCopy->record(cmd, im.depthBytes.handle(), im.depthBytes2.handle(), peerBytes);
            return {};
        });
        add(
            "copy_image",
            [&](VkCommandBuffer cmd) -> sieve::Result<void> {
                vkCmdCopyImage(cmd, im.depth.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, im.depthCopy.handle(),
                               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &icopy);
                return {};
            },
            toCopy, fromCopy);
        add(
            "copy_to_buffer",
            [&](VkCommandBuffer cmd) -> sieve::Result<void> {
                vkCmdCopyImageToBuffer(cmd, im.depth.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                       im.depthBytes2.handle(), 1, &bcopy);
                return {};
            },
            toCopy, fromCopy);
        add("copy_buffer", [&](VkCommandBuffer cmd) -> sieve::Result<void> {
            VkBufferCopy region{0, 0, depthBytes};
            vkCmdCopyBuffer(cmd, im.depthBytes.handle(), im.depthBytes2.handle(), 1, &region);
            return {};
        });
        InterleavedOptions o;
        o.runs = runs;
        o.warmupMs = warmupMs();
        o.minWarmupRounds = warmup;
        auto times = timeInterleaved(ctx, subjects, o);
        if (!times) return fail(kName, times.error().message);

        Json line;
        line.str("scenario", kName).integer("width", extent.width).integer("height", extent.height);
        line.integer("pyramid_width", base.width)
            .integer("pyramid_height", base.height)
            .integer("mips", im.pyramids[kSingle].mipLevels());
        const std::vector<Stat> st = times->stats();
        for (size_t k = 0; k < keys.size(); ++k) addStat(line, keys[k], st[k]);
        line.integer("chain_single_dispatches", singleShape[0])
            .integer("chain_per_mip_dispatches", perMipShape[0])
            .integer("chain_per_mip_barriers", perMipShape[1])
            .integer("compute_copy_bytes", peerBytes)
            .integer("warmup_rounds", times->warmupRounds)
            .num("warmup_ms", times->warmupUs / 1000.0)
            .raw("clocks_before", clocksJson(times->clocksBefore))
            .raw("clocks_after", clocksJson(times->clocksAfter));
        line.integer("bytes", buildBytes).num("bound_us", boundUs(peers.value(), double(buildBytes)));
        line.boolean("single_supported", singleOk);
        addPeers(line, peers.value());
        std::string mismatch;
        if (verify) {  // the pyramids of the last timed round
            for (PyramidIndex k : {kSingle, kSingleFetch, kSingleDirect, kPerMip}) {
                if (k != kPerMip && !singleOk) continue;
                mismatch = verifyPyramid(ctx, im.pyramids[k], ref);
                if (!mismatch.empty()) {
                    mismatch = std::string(k == kSingle        ? "single"
                                           : k == kSingleFetch ? "single_fetch"
                                                               : "per_mip") +
                               ": " + mismatch;
                    break;
                }
            }
            if (!mismatch.empty()) {
                std::fprintf(stderr, "sieve-bench hiz: %ux%u: %s\n", extent.width, extent.height, mismatch.c_str());
                allOk = false;
            }
        }
        line.raw("verified", verify ? (mismatch.empty() ? "true" : "false") : "null");
        describe(ctx, line);
        if (!sink.write(line)) return fail(kName, "cannot write the output file");
    }
    return allOk ? 0 : 1;
}

}  // namespace bench
