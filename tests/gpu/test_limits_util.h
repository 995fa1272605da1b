#pragma once
// Reliability tests of the culling path on hostile data and lowered limits: a fixture that runs the
// whole compute part of a frame in one command buffer (early flags -> early draw list -> Hi-Z build ->
// late flags -> late draw list, stable order) on buffers the test fills directly, bypassing
// SceneData::validate, and reads every output back. Draw lists live in buffers larger than their
// capacity whose tail is a guard pattern, so a write past the capacity is seen.
#include <cstring>
#include <vector>

#include "gpu/gpu_fixture.h"
#include "gpu/test_cull_flags_util.h"
#include "gpu/test_hiz_util.h"
#include "shared/draw.h"
#include "sieve/barriers.h"
#include "sieve/draw_list.h"

namespace testing_limits {

inline constexpr uint32_t kGuardWord = 0xDEADBEEFu;
inline constexpr uint32_t kGuardWords = 256;  // 1 KiB after each draw list

using testing_cull::CullFrame;

struct PhaseOutput {
    std::vector<uint32_t> flags, drawCounts, lods;
    std::vector<sieve::gpu::DrawCommand> draws;  // the first min(count, capacity) records
    std::vector<uint32_t> guard;                 // the words after the capacity
    sieve::gpu::DrawCounts counts{};
};

struct FrameOutput {
    PhaseOutput early, late;
    std::vector<uint32_t> visibleLast;
    sieve::gpu::CullCounters counters{};
};

inline void computeBarrier(VkCommandBuffer cmd) {
    sieve::computeToComputeBarrier(cmd);
}

class CullPathTest : public testing_gpu::GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        ASSERT_NO_FATAL_FAILURE(take(sieve::CullFlagPass::create(ctx().info()), flags));
        ASSERT_NO_FATAL_FAILURE(take(sieve::HiZBuilder::create(ctx().info()), hiz));
        ASSERT_NO_FATAL_FAILURE(take(sieve::DrawListBuilder::create(ctx().info()), drawList));
    }

    // A frame's parameters for a camera, with visibleLast from a seed (about two thirds set).
    CullFrame makeFrame(const testing_cull::Camera& cam, VkExtent2D depthExtent, std::vector<float> depth, uint32_t n,
                        uint32_t toggles, uint32_t seed) {
        sieve::CullSettings settings;
        settings.toggles = toggles;
        settings.lodThreshold = 2.0f;
        return testing_cull::makeCullFrame(cam, depthExtent, std::move(depth), n, settings, seed);
    }

    // Runs the frame with both draw lists at `capacity` records (0: every draw fits).
    FrameOutput run(const testing_cull::RandomScene& scene, const CullFrame& frame, uint32_t capacity = 0,
                    const sieve::DrawListBuilder* builder = nullptr) {
        const sieve::DrawListBuilder& list = builder ? *builder : drawList;
        const uint32_t n = frame.params.instanceCount;
        uint32_t maxDraws = 1;
        for (const auto& m : scene.meshes) maxDraws = std::max(maxDraws, m.primitiveCount);
        if (capacity == 0) capacity = std::max(n * maxDraws, 1u);
        engine::Buffer params = makeBuffer(std::vector<sieve::gpu::CullParams>{frame.params},
                                           VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, "cull params");
        engine::Buffer instances = makeBuffer(scene.instances), bounds = makeBuffer(scene.bounds),
                       meshes = makeBuffer(scene.meshes), primitives = makeBuffer(scene.primitives),
                       visibleLast = makeBuffer(frame.visibleLast);
        engine::Buffer counters = makeBuffer(
                           std::vector<sieve::gpu::CullCounterStripe>(sieve::gpu::SIEVE_CULL_COUNTER_STRIPES)),
                       state = makeEmpty(n * 4);
        engine::Buffer streams = makeBuffer(std::vector<sieve::gpu::DrawStream>{{0, capacity}});
        const VkDeviceSize drawBytes = VkDeviceSize(capacity) * sizeof(sieve::gpu::DrawCommand);
        std::vector<uint32_t> drawInit(size_t(drawBytes / 4) + kGuardWords, kGuardWord);
        struct Phase {
            engine::Buffer flags, drawCounts, lods, offsets, scratch, draws, counts;
        };
        auto makePhase = [&] {
            return Phase{makeEmpty(n * 4),
                         makeEmpty(n * 4),
                         makeEmpty(n * 4),
                         makeEmpty(n * 4),
                         makeEmpty(std::max<VkDeviceSize>(list.scratchBytes({n, 1, 1, 1}), 16)),
                         makeBuffer(drawInit, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "draws + guard"),
                         makeBuffer(std::vector<uint32_t>(4, 0), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "counts")};
        };
        Phase early = makePhase(), late = makePhase();
        auto images = testing_gpu::makeDepthAndPyramid(ctx(), frame.depthExtent, frame.depth);
        EXPECT_TRUE(images.pyramid);
        auto phaseBuffers = [&](Phase& p) {
            return sieve::CullPhaseBuffers{
                params.range(),      instances.range(), bounds.range(),       meshes.range(), primitives.range(),
                visibleLast.range(), p.flags.range(),   p.drawCounts.range(), p.lods.range(), counters.range()};
        };
        // The whole draw buffer, guard included, is bound: only the capacity stands between the shader
        // and the guard words.
        auto listBuffers = [&](Phase& p) {
            return sieve::DrawListBuffers{
                instances.range(), meshes.range(),    primitives.range(), p.drawCounts.range(), p.lods.range(),
                p.offsets.range(), p.scratch.range(), p.draws.range(),    p.counts.range(),     streams.range()};
        };
        auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
            flags.recordEarly(cmd, phaseBuffers(early), {n});
            computeBarrier(cmd);
            auto e = list.record(cmd, listBuffers(early), {n, 1, 1, maxDraws}, sieve::DrawOrder::Stable);
            EXPECT_TRUE(e) << e.error().message;
            auto built = hiz.recordPerMip(cmd, images.source(), images.target());
            EXPECT_TRUE(built) << built.error().message;
            computeBarrier(cmd);
            testing_gpu::imageBarrier(cmd, images.pyramid.handle(), VK_IMAGE_ASPECT_COLOR_BIT,
                                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                                      VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                      VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
            flags.recordLate(
                cmd, phaseBuffers(late),
                {early.lods.range(), state.range(), images.pyramid.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                {n});
            computeBarrier(cmd);
            auto l = list.record(cmd, listBuffers(late), {n, 1, 1, maxDraws}, sieve::DrawOrder::Stable);
            EXPECT_TRUE(l) << l.error().message;
        });
        EXPECT_TRUE(r) << r.error().message;
        FrameOutput out;
        auto readPhase = [&](Phase& p, PhaseOutput& o) {
            o.flags = read<uint32_t>(p.flags, n);
            o.drawCounts = read<uint32_t>(p.drawCounts, n);
            o.lods = read<uint32_t>(p.lods, n);
            auto c = read<sieve::gpu::DrawCounts>(p.counts, 1);
            if (!c.empty()) o.counts = c[0];
            o.draws = read<sieve::gpu::DrawCommand>(p.draws, std::min(o.counts.count, capacity));
            o.guard = read<uint32_t>(p.draws, kGuardWords, drawBytes);
        };
        readPhase(early, out.early);
        readPhase(late, out.late);
        out.visibleLast = read<uint32_t>(visibleLast, n);
        auto c = sieve::sumCounterStripes(
            read<sieve::gpu::CullCounterStripe>(counters, sieve::gpu::SIEVE_CULL_COUNTER_STRIPES));
        if (!c.empty()) out.counters = c[0];
        return out;
    }

    sieve::CullFlagPass flags;
    sieve::HiZBuilder hiz;
    sieve::DrawListBuilder drawList;
};

// The stable draw list a phase must produce from its draw counts (CPU): instance order, primitives of
// the instance's mesh at its LOD (clamped to each primitive's chain).
inline std::vector<sieve::gpu::DrawCommand> expectedDraws(const testing_cull::RandomScene& scene,
                                                          const std::vector<uint32_t>& drawCounts,
                                                          const std::vector<uint32_t>& lods) {
    std::vector<sieve::gpu::DrawCommand> out;
    for (uint32_t i = 0; i < drawCounts.size(); ++i) {
        const sieve::gpu::Mesh& mesh = scene.meshes[scene.instances[i].mesh];
        for (uint32_t p = 0; p < drawCounts[i]; ++p) {
            const uint32_t primIndex = mesh.firstPrimitive + p;
            const sieve::gpu::MeshPrimitive& prim = scene.primitives[primIndex];
            out.push_back(sieve::gpu::sievePrimitiveDraw(prim, primIndex, i, lods[i]));
        }
    }
    return out;
}

inline bool sameDraw(const sieve::gpu::DrawCommand& a, const sieve::gpu::DrawCommand& b) {
    return std::memcmp(&a, &b, sizeof(a)) == 0;
}

}  // namespace testing_limits
