// sieve-bench cpu: what a renderer without GPU culling does, next to the GPU culling pipeline in the same
// run. Per frame: frustum culling of every instance on the host (std::thread over all cores, the GPU's
// own sphere/plane test, shared/cull.h sieveInFrustum), then one vkCmdDrawIndexed per visible
// (instance, primitive) recorded into the frame's command buffer. Culling and recording are timed
// separately with std::chrono; the GPU time of the resulting draws with timestamps. The peer: the GPU
// culling pipeline's time (all culling passes of SceneRenderer, median over frames) at the same N.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include "bench_util.h"
#include "engine/vk/timestamps.h"
#include "scene_harness.h"
#include "shared/draw.h"
#include "shared/geometry_push.h"
#include "sieve/cull_flags.h"
#include "sieve/graphics_pipeline.h"
#include "subcommands.h"

namespace bench {
namespace {

constexpr const char* kName = "cpu";

constexpr const char* kDescription =
    "CPU frustum culling (T threads, default all cores) + one vkCmdDrawIndexed per visible draw, F timed frames\n"
    "(default 5) after W (default 1), at each N (default 1e4,1e5,1e6,1e7); the GPU culling pipeline over G frames\n"
    "(default 50) as the peer. --verify: CPU visible count = single-threaded reference = GPU frustum count.";

using Clock = std::chrono::steady_clock;
double usSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

// Frustum culling over `threads` contiguous chunks; each chunk's visible indices stay in instance order.
void cullOnHost(const sieve::assets::SceneData& scene, const sieve::gpu::CullParams& params, uint32_t threads,
                std::vector<std::vector<uint32_t>>& visible) {
    const size_t n = scene.instances.size();
    visible.resize(threads);
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (uint32_t t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            const size_t begin = n * t / threads, end = n * (t + 1) / threads;
            std::vector<uint32_t>& out = visible[t];
            out.clear();
            for (size_t i = begin; i < end; ++i)
                if (sieve::gpu::sieveInFrustum(scene.bounds[i].sphere, params)) out.push_back(uint32_t(i));
        });
    }
    for (auto& th : pool) th.join();
}

}  // namespace

int cpuMain(int argc, char** argv) {
    std::vector<uint64_t> sizes{10000, 100000, 1000000, 10000000};
    CityOptions o;
    o.frames = 5;
    o.warmup = 1;
    uint32_t threads = std::max(1u, std::thread::hardware_concurrency()), gpuFrames = 50;
    cli::Parser p = subcommandParser(kName, kDescription);
    addCitySizes(p, sizes);
    addCityOptions(p, o, 10000, "check the counts (see above); exit 1 on a mismatch");
    p.count("--threads", "T", "host culling threads (default: all cores)", threads, 1, 1024)
        .count("--gpu-frames", "G", "frames of the GPU culling peer (default 50)", gpuFrames, 1, 100000);
    if (auto exit = p.run(argc, argv, 1)) return *exit;
    const VkExtent2D extent = o.extent();
    const uint32_t warmup = o.warmup, frames = o.frames;
    const bool verify = o.verify;
    const JsonSink sink(o.out);

    auto ctxR = makeContext();
    if (!ctxR) return fail(kName, ctxR.error().message);
    engine::Context& ctx = *ctxR.value();

    // The default geometry pass's shaders and state, drawn with direct draws (gl_DrawID = 0 reads the one
    // record of `drawRecord` for its material; gl_InstanceIndex = firstInstance = the instance).
    const VkVertexInputBindingDescription binding{0, sizeof(sieve::gpu::Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
    const VkVertexInputAttributeDescription attributes[] = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(sieve::gpu::Vertex, px)},
        {1, 0, VK_FORMAT_R32_UINT, offsetof(sieve::gpu::Vertex, normal)}};
    sieve::GraphicsPipelineDesc desc;
    desc.vertexShader = "geometry/mesh.vert";
    desc.fragmentShader = "geometry/mesh.frag";
    desc.pushConstantBytes = sizeof(sieve::gpu::GeometryPush);
    desc.vertexBindings = {&binding, 1};
    desc.vertexAttributes = attributes;
    desc.colorFormat = VK_FORMAT_R8G8B8A8_UNORM;
    desc.depthFormat = engine::kDepthFormat;
    desc.depthTest = desc.depthWrite = true;
    desc.depthCompare = VK_COMPARE_OP_GREATER_OR_EQUAL;
    desc.cullMode = VK_CULL_MODE_BACK_BIT;
    desc.debugName = "bench cpu-culled geometry";
    auto pipeline = sieve::GraphicsPipeline::create(ctx.info(), desc);
    if (!pipeline) return fail(kName, pipeline.error().message);
    auto drawRecord = deviceBuffer(ctx, sizeof(sieve::gpu::DrawCommand), "bench draw record");
    if (!drawRecord) return fail(kName, drawRecord.error().message);
    const sieve::gpu::DrawCommand record0{};
    if (auto r = engine::uploadBuffer(ctx, *drawRecord, &record0, sizeof record0); !r)
        return fail(kName, r.error().message);

    bool allOk = true;
    for (uint64_t n : sizes) {
        auto harnessR = SceneHarness::createCity(ctx, n, uint32_t(o.seed), extent);
        if (!harnessR) return fail(kName, harnessR.error().message);
        SceneHarness& h = *harnessR.value();
        const sieve::assets::SceneData& scene = h.scene();

        // Peer: the GPU culling pipeline (stable lists) at this N.
        auto gpuRun = h.run(10, gpuFrames);
        if (!gpuRun) return fail(kName, gpuRun.error().message);

        auto params = sieve::makeCullParams({h.view(), h.proj(), {0, 0, 1, 1, 0, 1}}, {1, 1}, 1, uint32_t(n), {});
        if (!params) return fail(kName, params.error().message);
        sieve::gpu::GeometryPush push{};
        const glm::mat4 viewProj = h.proj() * h.view();
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) push.viewProj[c][r] = viewProj[c][r];
        push.lightDir = sieve::gpu::vec4(0.4f, 0.8f, 0.45f, 0.0f);
        push.tint = sieve::gpu::vec4(1.0f, 1.0f, 1.0f, 1.0f);

        const uint32_t total = warmup + frames;
        auto timer = engine::GpuTimestamps::create(ctx, total, 1, "bench cpu-culled frames");
        if (!timer) return fail(kName, timer.error().message);
        if (auto r = ctx.submitNow([&](VkCommandBuffer cmd) { timer->reset(cmd); }); !r)
            return fail(kName, r.error().message);
        std::vector<double> cullUs, recordUs;
        std::vector<std::vector<uint32_t>> visible;
        uint64_t visibleCount = 0, draws = 0;
        engine::HeadlessTarget& target = h.target();
        const engine::GpuScene& gpu = h.renderer().scene();
        for (uint32_t f = 0; f < total; ++f) {
            auto frame = target.beginFrame();
            if (!frame) return fail(kName, frame.error().message);
            VkCommandBuffer cmd = frame->cmd;
            auto t0 = Clock::now();
            cullOnHost(scene, *params, threads, visible);
            const double cull = usSince(t0);

            imageBarrier(cmd, frame->colorImage, VK_IMAGE_ASPECT_COLOR_BIT, frame->firstUseStage, VK_ACCESS_2_NONE,
                         VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                         VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
            imageBarrier(cmd, frame->depthImage, VK_IMAGE_ASPECT_DEPTH_BIT, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                         VK_IMAGE_LAYOUT_UNDEFINED,
                         VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                         VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                         VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL);
            const VkRenderingAttachmentInfo colorAtt = sieve::renderingAttachment(
                frame->colorView, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_ATTACHMENT_LOAD_OP_CLEAR,
                VK_ATTACHMENT_STORE_OP_STORE, {.color = {{0.53f, 0.68f, 0.85f, 1.0f}}});
            const VkRenderingAttachmentInfo depthAtt = sieve::renderingAttachment(
                frame->depthView, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_ATTACHMENT_LOAD_OP_CLEAR,
                VK_ATTACHMENT_STORE_OP_STORE, {.depthStencil = {0.0f, 0}});
            timer->begin(cmd, "frame");
            sieve::beginRendering(cmd, extent, &colorAtt, &depthAtt);

            // Recording: what the CPU path costs per frame on top of culling.
            t0 = Clock::now();
            pipeline->bind(
                cmd, {sieve::Binding::storage(gpu.instances.range()), sieve::Binding::storage(drawRecord->range())},
                &push, sizeof push);
            sieve::setFullViewport(cmd, extent);
            const VkDeviceSize zero = 0;
            const VkBuffer vb = gpu.vertices.handle();
            vkCmdBindVertexBuffers(cmd, 0, 1, &vb, &zero);
            vkCmdBindIndexBuffer(cmd, gpu.indices.handle(), 0, VK_INDEX_TYPE_UINT32);
            uint64_t frameVisible = 0, frameDraws = 0;
            for (const auto& chunk : visible) {
                frameVisible += chunk.size();
                for (uint32_t i : chunk) {
                    const sieve::gpu::Mesh& mesh = scene.meshes[scene.instances[i].mesh];
                    for (uint32_t p = 0; p < mesh.primitiveCount; ++p) {
                        const sieve::gpu::MeshPrimitive& prim = scene.primitives[mesh.firstPrimitive + p];
                        vkCmdDrawIndexed(cmd, prim.lods[0].indexCount, 1, prim.lods[0].firstIndex, prim.vertexOffset,
                                         i);
                    }
                    frameDraws += mesh.primitiveCount;
                }
            }
            const double rec = usSince(t0);
            vkCmdEndRendering(cmd);
            timer->end(cmd);
            if (auto r = target.endFrame(); !r) return fail(kName, r.error().message);
            if (f >= warmup) {
                cullUs.push_back(cull);
                recordUs.push_back(rec);
            }
            visibleCount = frameVisible;
            draws = frameDraws;
        }
        if (auto r = target.finish(); !r) return fail(kName, r.error().message);
        auto scopes = timer->read(0, true);
        if (!scopes) return fail(kName, scopes.error().message);
        std::vector<double> drawGpuUs;
        for (size_t f = warmup; f < scopes->size(); ++f) drawGpuUs.push_back((*scopes)[f].ms * 1000.0);
        std::vector<double> cpuTotal(cullUs.size());
        for (size_t i = 0; i < cullUs.size(); ++i) cpuTotal[i] = cullUs[i] + recordUs[i];

        Json line;
        line.str("scenario", kName)
            .integer("n", n)
            .integer("width", extent.width)
            .integer("height", extent.height)
            .integer("threads", threads)
            .integer("visible", visibleCount)
            .integer("draws", draws);
        addStat(line, "cpu_cull", stat(cullUs));
        addStat(line, "cpu_record", stat(recordUs));
        addStat(line, "cpu_total", stat(cpuTotal));
        addStat(line, "cpu_frame_gpu", stat(drawGpuUs));
        addStat(line, "gpu_cull", stat(gpuRun->cullUs));
        line.num("gpu_draw_us", stat(gpuRun->passUs["draw.early"]).median + stat(gpuRun->passUs["draw.late"]).median);
        line.num("gpu_frame_us", stat(gpuRun->frameUs).median);
        line.integer("gpu_draws", gpuRun->stats.draws());
        const double gpuCull = stat(gpuRun->cullUs).median;
        line.num("speedup", gpuCull > 0 ? stat(cpuTotal).median / gpuCull : 0);
        if (verify) {
            const uint64_t ref = frustumReferenceCount(scene, h.view(), h.proj());
            std::string why;
            if (visibleCount != ref)
                why = "threaded count " + std::to_string(visibleCount) + " != reference " + std::to_string(ref);
            else if (!gpuRun->stats.valid || gpuRun->stats.frustumVisible != ref)
                why =
                    "GPU frustum count " + std::to_string(gpuRun->stats.frustumVisible) + " != " + std::to_string(ref);
            else if (visibleCount == 0 || draws < visibleCount)
                why = "nothing visible";
            line.boolean("verified", why.empty());
            if (!why.empty()) {
                std::fprintf(stderr, "sieve-bench cpu: n=%llu: %s\n", (unsigned long long)n, why.c_str());
                allOk = false;
            }
        }
        describe(ctx, line);
        if (!sink.write(line)) return fail(kName, "cannot write the output file");
    }
    return allOk ? 0 : 1;
}

}  // namespace bench
