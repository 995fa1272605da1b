// sieve-bench shaders: the driver's own statistics of the culling's compute pipelines
// (VK_KHR_pipeline_executable_properties: registers, instructions, occupancy or whatever the driver reports),
// one JSON line per pipeline executable. For finding what bounds a pass that runs slower than its bytes.
#include <volk.h>

#include <string>
#include <vector>

#include "bench_util.h"
#include "shared/cull.h"
#include "shared/draw_push.h"
#include "sieve/pipeline.h"
#include "subcommands.h"

namespace bench {
namespace {

constexpr const char* kName = "shaders";
constexpr const char* kDescription =
    "The driver's statistics of the culling's compute pipelines (VK_KHR_pipeline_executable_properties),\n"
    "one JSON line per pipeline executable: its name, description, subgroup size and every statistic the\n"
    "driver reports. Exits 1 with a message on a device without pipelineExecutableInfo.";

struct Shader {
    const char* name;
    uint32_t pushBytes;
};
// The per-instance passes of the culling pipeline.
constexpr Shader kShaders[] = {{"cull/flag_early.comp", sizeof(sieve::gpu::CullFlagPush)},
                               {"cull/flag_late.comp", sizeof(sieve::gpu::CullFlagPush)},
                               {"cull/flag_defer.comp", sizeof(sieve::gpu::CullFlagPush)},
                               {"cull/flag_candidates.comp", sizeof(sieve::gpu::CullFlagPush)},
                               {"draw/expand.comp", sizeof(sieve::gpu::DrawExpandPush)},
                               {"cull/stats.comp", sizeof(sieve::gpu::CullStatsPush)}};

// A driver's statistic name as a JSON key: without quotes, backslashes or control characters.
std::string plainKey(const char* name) {
    std::string k;
    for (const char* c = name; *c; ++c)
        if (*c != '"' && *c != '\\' && static_cast<unsigned char>(*c) >= 0x20) k += *c;
    return k;
}

// One statistic into `j`, in its own format.
void addStatistic(Json& j, const VkPipelineExecutableStatisticKHR& s) {
    const std::string k = plainKey(s.name);
    switch (s.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: j.boolean(k, s.value.b32); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: j.raw(k, std::to_string(s.value.i64)); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: j.integer(k, s.value.u64); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: j.num(k, s.value.f64); break;
        default: j.raw(k, "null");
    }
}

}  // namespace

int shaderStatsMain(int argc, char** argv) {
    std::string out;
    cli::Parser p = subcommandParser(kName, kDescription);
    p.text("--out", "FILE", "append the JSON lines to FILE (default: stdout)", out);
    if (auto exit = p.run(argc, argv, 1)) return *exit;
    const JsonSink sink(out);

    auto ctxR = makeContext();
    if (!ctxR) return fail(kName, ctxR.error().message);
    engine::Context& ctx = *ctxR.value();
    if (!ctx.pipelineExecutableInfo())
        return fail(kName, "the device has no VK_KHR_pipeline_executable_properties with pipelineExecutableInfo");
    sieve::DeviceInfo dev = ctx.info();
    dev.captureStatistics = true;
    for (const Shader& s : kShaders) {
        auto pipe = sieve::ComputePipeline::create(dev, {s.name, s.pushBytes});
        if (!pipe) return fail(kName, pipe.error().message);
        VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
        info.pipeline = pipe->handle();
        uint32_t count = 0;
        if (vkGetPipelineExecutablePropertiesKHR(ctx.device(), &info, &count, nullptr) != VK_SUCCESS)
            return fail(kName, std::string(s.name) + ": vkGetPipelineExecutablePropertiesKHR failed");
        std::vector<VkPipelineExecutablePropertiesKHR> props(count,
                                                             {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
        vkGetPipelineExecutablePropertiesKHR(ctx.device(), &info, &count, props.data());
        for (uint32_t e = 0; e < count; ++e) {
            VkPipelineExecutableInfoKHR exec{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
            exec.pipeline = pipe->handle();
            exec.executableIndex = e;
            uint32_t n = 0;
            vkGetPipelineExecutableStatisticsKHR(ctx.device(), &exec, &n, nullptr);
            std::vector<VkPipelineExecutableStatisticKHR> stats(n,
                                                                {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
            vkGetPipelineExecutableStatisticsKHR(ctx.device(), &exec, &n, stats.data());
            Json statsJson;
            for (const auto& st : stats) addStatistic(statsJson, st);
            Json line;
            line.str("scenario", kName)
                .str("shader", s.name)
                .integer("executable", e)
                .str("name", props[e].name)
                .str("description", props[e].description)
                .integer("subgroup_size", props[e].subgroupSize)
                .obj("statistics", statsJson);
            describe(ctx, line);
            if (!sink.write(line)) return fail(kName, "cannot write the output file");
        }
    }
    return 0;
}

}  // namespace bench
