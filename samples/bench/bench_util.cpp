#include "bench_util.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>

#include "engine/vk/timestamps.h"
#include "interleave.h"
#include "shared/scene.h"
#include "shared/test_push.h"
#include "sieve/barriers.h"
#include "sieve/prim/reduce.h"

namespace bench {

void Json::key(const std::string& k) {
    if (!body_.empty()) body_ += ", ";
    body_ += "\"" + k + "\": ";
}

Json& Json::num(const std::string& k, double v) {
    key(k);
    if (!std::isfinite(v)) {
        body_ += "null";
        return *this;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    body_ += buf;
    return *this;
}

Json& Json::integer(const std::string& k, uint64_t v) {
    key(k);
    body_ += std::to_string(v);
    return *this;
}

Json& Json::boolean(const std::string& k, bool v) {
    key(k);
    body_ += v ? "true" : "false";
    return *this;
}

Json& Json::str(const std::string& k, const std::string& v) {
    key(k);
    body_ += '"';
    for (char c : v) {
        if (c == '"' || c == '\\') body_ += '\\';
        if (static_cast<unsigned char>(c) < 0x20) continue;  // control characters never matter here
        body_ += c;
    }
    body_ += '"';
    return *this;
}

Json& Json::raw(const std::string& k, const std::string& json) {
    key(k);
    body_ += json;
    return *this;
}

bool JsonSink::write(const Json& line) const {
    const std::string text = line.text() + "\n";
    if (path_.empty()) {
        std::fputs(text.c_str(), stdout);
        std::fflush(stdout);
        return true;
    }
    std::ofstream f(path_, std::ios::app);
    f << text;
    return bool(f);
}

sieve::Result<std::unique_ptr<engine::Context>> makeContext() {
    engine::ContextDesc desc;
    desc.appName = "sieve-bench";
    return engine::Context::create(desc);
}

void describe(engine::Context& ctx, Json& j) {
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    props.pNext = &driver;
    vkGetPhysicalDeviceProperties2(ctx.physical(), &props);
    const auto& p = props.properties;
    char api[32];
    std::snprintf(api, sizeof api, "%u.%u.%u", VK_API_VERSION_MAJOR(p.apiVersion), VK_API_VERSION_MINOR(p.apiVersion),
                  VK_API_VERSION_PATCH(p.apiVersion));
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    j.str("device", p.deviceName)
        .str("driver", std::string(driver.driverName) + " " + driver.driverInfo)
        .str("api", api)
        .integer("subgroup", ctx.info().subgroupSize)
        .str("date", date);
}

void fullBarrier(VkCommandBuffer cmd) {
    constexpr VkAccessFlags2 kAll = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
    sieve::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, kAll, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, kAll);
}

sieve::Result<std::vector<double>> timeGpu(engine::Context& ctx, uint32_t warmup, uint32_t runs, const Recorder& body,
                                           void (*between)(VkCommandBuffer)) {
    InterleavedOptions o;
    o.runs = runs;
    o.warmupMs = warmupMs();
    o.minWarmupRounds = warmup;
    o.between = between;
    auto t = timeInterleaved(ctx, {Subject{"run", body, {}, {}}}, o);
    if (!t) return t.error();
    return std::move(t.value().us[0]);
}

namespace {
double g_warmupMs = -1;
}

double warmupMs() {
    if (g_warmupMs < 0) {
        g_warmupMs = 500;
        if (const char* env = std::getenv("SIEVE_BENCH_WARMUP_MS")) {
            char* end = nullptr;
            const double v = std::strtod(env, &end);
            if (end != env && v >= 0) g_warmupMs = v;
        }
    }
    return g_warmupMs;
}

void setWarmupMs(double ms) {
    g_warmupMs = ms;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

Stat stat(std::vector<double> v) {
    Stat s;
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    s.samples = uint32_t(v.size());
    s.median = median(v);
    s.min = v.front();
    s.p10 = v[std::max<size_t>(size_t(std::ceil(0.1 * double(v.size()))), 1) - 1];  // nearest rank, as p90
    s.p90 = v[std::min(v.size() - 1, size_t(std::ceil(0.9 * double(v.size()))) - 1)];
    return s;
}

void addStat(Json& j, const std::string& prefix, const Stat& s) {
    j.num(prefix + "_us", s.median)
        .num(prefix + "_min_us", s.min)
        .num(prefix + "_p10_us", s.p10)
        .num(prefix + "_p90_us", s.p90);
}

sieve::Result<engine::Buffer> deviceBuffer(engine::Context& ctx, uint64_t bytes, const char* name) {
    return engine::Buffer::create(
        ctx, std::max<uint64_t>(bytes, 16),
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        engine::MemoryUsage::DeviceLocal, name);
}

uint64_t peakCopyBytes(engine::Context& ctx) {
    return ctx.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? (16ull << 20) : (256ull << 20);
}

sieve::Result<Peers> measurePeers(engine::Context& ctx, uint64_t copyBytes, uint32_t runs) {
    Peers p;
    p.copyBytes = copyBytes;
    auto src = deviceBuffer(ctx, copyBytes, "bench copy src");
    if (!src) return src.error();
    auto dst = deviceBuffer(ctx, copyBytes, "bench copy dst");
    if (!dst) return dst.error();
    // Non-zero contents (zeros can be cheaper on some memory systems).
    if (auto r = ctx.submitNow(
            [&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, src->handle(), 0, VK_WHOLE_SIZE, 0x9e3779b9u); });
        !r)
        return r.error();
    auto copy = timeGpu(ctx, 3, runs, [&](VkCommandBuffer cmd) -> sieve::Result<void> {
        VkBufferCopy region{0, 0, copyBytes};
        vkCmdCopyBuffer(cmd, src->handle(), dst->handle(), 1, &region);
        return {};
    });
    if (!copy) return copy.error();
    const double us = stat(copy.value()).median;
    p.transferGBps = us > 0 ? 2.0 * double(copyBytes) / (us * 1e3) : 0;

    // The transfer path can be far from DRAM speed (NVIDIA's vkCmdCopyBuffer on the graphics queue): a
    // shader that reads and writes every word is the second peer; the faster of the two is the peak.
    sieve::ComputePipelineDesc addDesc;
    addDesc.shader = "test/add.comp";
    addDesc.pushConstantBytes = sizeof(sieve::gpu::AddPush);
    auto add = sieve::ComputePipeline::create(ctx.info(), addDesc);
    if (!add) return add.error();
    const uint64_t words = std::min<uint64_t>(copyBytes, ctx.info().limits.maxStorageBufferRange) / 4;
    const uint32_t count = uint32_t(std::min<uint64_t>(words, UINT32_MAX));
    auto shader = timeGpu(ctx, 3, runs, [&](VkCommandBuffer cmd) -> sieve::Result<void> {
        add->dispatchLinear(cmd,
                            {sieve::Binding::storage(src->range(0, uint64_t(count) * 4)),
                             sieve::Binding::storage(dst->range(0, uint64_t(count) * 4))},
                            sieve::gpu::AddPush{count}, add->groupsFor(count));
        return {};
    });
    if (!shader) return shader.error();
    const double shaderUs = stat(shader.value()).median;
    p.shaderGBps = shaderUs > 0 ? 2.0 * double(count) * 4 / (shaderUs * 1e3) : 0;
    // Reads alone can run much faster than copies (seen on the H200: ~5x): the read-only stream is the
    // third peer, so that a bound is never above what the memory can do for a read-mostly pass.
    auto reduce = sieve::prim::Reduce::create(ctx.info(), sieve::prim::ReduceOp::MaxF32);
    if (!reduce) return reduce.error();
    auto scratch = deviceBuffer(ctx, std::max<VkDeviceSize>(reduce->scratchBytes(count), 16), "bench reduce scratch");
    if (!scratch) return scratch.error();
    sieve::Result<bool> recorded = true;
    auto read = timeGpu(ctx, 3, runs, [&](VkCommandBuffer cmd) -> sieve::Result<void> {
        recorded = reduce->record(cmd, src->range(0, uint64_t(count) * 4), dst->range(0, 4), scratch->range(), count);
        if (!recorded) return recorded.error();
        return {};
    });
    if (!read) return read.error();
    const double readUs = stat(read.value()).median;
    p.readGBps = readUs > 0 ? double(count) * 4 / (readUs * 1e3) : 0;
    p.copyGBps = std::max({p.transferGBps, p.shaderGBps, p.readGBps});

    sieve::ComputePipelineDesc strideDesc;
    strideDesc.shader = "test/stride_read.comp";
    strideDesc.pushConstantBytes = sizeof(sieve::gpu::StrideReadPush);
    auto strided = sieve::ComputePipeline::create(ctx.info(), strideDesc);
    if (!strided) return strided.error();
    auto sphereRead = [&](uint32_t strideVec4s) -> sieve::Result<double> {
        const uint64_t records =
            std::min<uint64_t>(copyBytes, ctx.info().limits.maxStorageBufferRange) / (16u * strideVec4s);
        const sieve::gpu::StrideReadPush push{uint32_t(records), strideVec4s, -1.5e38f, 0};
        auto t = timeGpu(ctx, 3, runs, [&](VkCommandBuffer cmd) -> sieve::Result<void> {
            strided->dispatchLinear(cmd,
                                    {sieve::Binding::storage(src->range(0, records * 16u * strideVec4s)),
                                     sieve::Binding::storage(dst->range())},
                                    push, strided->groupsFor((uint32_t(records) + 3u) / 4u));
            return {};
        });
        if (!t) return t.error();
        const double tUs = stat(t.value()).median;
        return tUs > 0 ? double(records) * 16 / (tUs * 1e3) : 0.0;
    };
    // The instance record as it was until session 11 (80 bytes, the sphere inside it): the layout the sphere
    // stream replaced (shared/scene.h), kept as the peer that shows why.
    constexpr uint32_t kOldInstanceVec4s = 5;
    auto instanceSphere = sphereRead(kOldInstanceVec4s);
    if (!instanceSphere) return instanceSphere.error();
    p.instanceSphereGBps = instanceSphere.value();
    auto vec4Stream = sphereRead(1);
    if (!vec4Stream) return vec4Stream.error();
    p.vec4StreamGBps = vec4Stream.value();

    auto pair = timeGpu(ctx, 3, runs, [](VkCommandBuffer) -> sieve::Result<void> { return {}; });
    if (!pair) return pair.error();
    p.emptyPairUs = stat(pair.value()).median;

    // Zero-work dispatch: test/fill.comp with count 0 writes nothing.
    sieve::ComputePipelineDesc desc;
    desc.shader = "test/fill.comp";
    desc.pushConstantBytes = sizeof(sieve::gpu::FillPush);
    auto fill = sieve::ComputePipeline::create(ctx.info(), desc);
    if (!fill) return fill.error();
    const sieve::gpu::FillPush push{0, 0};
    auto one = timeGpu(ctx, 3, runs, [&](VkCommandBuffer cmd) -> sieve::Result<void> {
        fill->dispatch(cmd, {sieve::Binding::storage(dst->range())}, push, 1);
        return {};
    });
    if (!one) return one.error();
    p.emptyDispatchUs = stat(one.value()).median;
    constexpr uint32_t kChain = 16;
    auto chain = timeGpu(ctx, 3, runs, [&](VkCommandBuffer cmd) -> sieve::Result<void> {
        for (uint32_t i = 0; i < kChain; ++i) {
            if (i) fullBarrier(cmd);
            fill->dispatch(cmd, {sieve::Binding::storage(dst->range())}, push, 1);
        }
        return {};
    });
    if (!chain) return chain.error();
    p.chainedDispatchUs = stat(chain.value()).median / kChain;
    return p;
}

void addPeers(Json& j, const Peers& p) {
    j.num("copy_gbps", p.copyGBps)
        .num("transfer_copy_gbps", p.transferGBps)
        .num("shader_copy_gbps", p.shaderGBps)
        .num("read_gbps", p.readGBps)
        .num("instance_sphere_read_gbps", p.instanceSphereGBps)
        .num("vec4_stream_read_gbps", p.vec4StreamGBps)
        .integer("copy_bytes", p.copyBytes)
        .num("empty_pair_us", p.emptyPairUs)
        .num("empty_dispatch_us", p.emptyDispatchUs)
        .num("chained_dispatch_us", p.chainedDispatchUs);
}

int fail(const char* subcommand, const std::string& message) {
    std::fprintf(stderr, "sieve-bench %s: %s\n", subcommand, message.c_str());
    return 1;
}

}  // namespace bench
