#pragma once
// Shared pieces of the subcommands (prim, hiz, cull, cpu, frame): JSON lines, device description, GPU timing of
// recorded work, and the two reference peers every scenario reports next to its own times: the peak copy bandwidth
// (vkCmdCopyBuffer) and the time of a zero-work dispatch.
#include <volk.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli.h"
#include "engine/vk/context.h"
#include "engine/vk/resources.h"
#include "sieve/barriers.h"
#include "sieve/pipeline.h"

namespace bench {

// One JSON object on one line, fields in insertion order.
class Json {
public:
    Json& num(const std::string& k, double v);
    Json& integer(const std::string& k, uint64_t v);
    Json& boolean(const std::string& k, bool v);
    Json& str(const std::string& k, const std::string& v);
    Json& raw(const std::string& k, const std::string& json);  // an already formatted value
    Json& obj(const std::string& k, const Json& v) { return raw(k, v.text()); }
    std::string text() const { return "{" + body_ + "}"; }

private:
    void key(const std::string& k);
    std::string body_;
};

// Appends lines to --out FILE (or stdout when empty).
class JsonSink {
public:
    explicit JsonSink(std::string path) : path_(std::move(path)) {}
    bool write(const Json& line) const;

private:
    std::string path_;
};

// Context without validation (unless SIEVE_VALIDATION=1): timings are of the driver alone.
sieve::Result<std::unique_ptr<engine::Context>> makeContext();

// device, driver name/info, API version, UTC date: added to every line.
void describe(engine::Context& ctx, Json& j);

// Full memory barrier between compute/transfer/graphics work (between timed runs).
void fullBarrier(VkCommandBuffer cmd);
using sieve::imageBarrier;

// Records body (`between` before each: by default a full barrier) with a timestamp pair around each of
// `runs` timed runs, after a warm-up by time in the same submission (at least `warmup` runs and
// warmupMs() of GPU work: interleave.h); returns the microseconds of each timed run.
using Recorder = std::function<sieve::Result<void>(VkCommandBuffer)>;
sieve::Result<std::vector<double>> timeGpu(engine::Context& ctx, uint32_t warmup, uint32_t runs, const Recorder& body,
                                           void (*between)(VkCommandBuffer) = fullBarrier);

double median(std::vector<double> v);

// GPU time of the warm-up before every timed submission (default 500 ms; sieve-bench --warmup-ms, or the
// environment variable SIEVE_BENCH_WARMUP_MS).
double warmupMs();
void setWarmupMs(double ms);

struct Stat {
    double median = 0, min = 0, p10 = 0, p90 = 0;
    uint32_t samples = 0;
};
Stat stat(std::vector<double> v);
void addStat(Json& j, const std::string& prefix, const Stat& s);  // prefix_us, _min_us, _p10_us, _p90_us

// The peers measured in every scenario's run.
struct Peers {
    double copyGBps = 0;      // peak of the three streams below: what bandwidth bounds are computed with
    double transferGBps = 0;  // vkCmdCopyBuffer of copyBytes: (read + written bytes) / median time
    double shaderGBps = 0;    // the same bytes through a compute shader (test/add.comp: 4-byte loads, stores)
    double readGBps = 0;      // read-only stream: prim::Reduce (max f32) over copyBytes, bytes read / time
    // 16-byte reads alone (test/stride_read.comp, four per invocation), GB/s of the 16 bytes read: of every
    // 80-byte record across copyBytes (the sphere inside the instance record, as it was until session 11), and
    // of a compact stream of vec4s (gpu::InstanceBounds, the culling's sphere stream since then).
    double instanceSphereGBps = 0;
    double vec4StreamGBps = 0;
    uint64_t copyBytes = 0;
    double emptyPairUs = 0;        // a timestamp pair with nothing between (the timer's own floor)
    double emptyDispatchUs = 0;    // one dispatch of one workgroup that writes nothing, alone in a timestamp pair
    double chainedDispatchUs = 0;  // per dispatch in a chain of zero-work dispatches separated by barriers
};
// Size of the bandwidth peer: 256 MiB, several times any GPU's L2 (the H200's is 50 MiB), so that it
// measures DRAM; 16 MiB on a CPU device (lavapipe) to keep runs short.
uint64_t peakCopyBytes(engine::Context& ctx);
sieve::Result<Peers> measurePeers(engine::Context& ctx, uint64_t copyBytes, uint32_t runs);
void addPeers(Json& j, const Peers& p);
// Microseconds to move `bytes` (read + written) at the measured peak copy bandwidth.
inline double boundUs(const Peers& p, double bytes) {
    return p.copyGBps > 0 ? bytes / (p.copyGBps * 1e3) : 0;
}

// Device-local storage/transfer buffer.
sieve::Result<engine::Buffer> deviceBuffer(engine::Context& ctx, uint64_t bytes, const char* name);

// "sieve-bench <subcommand>: message" on stderr; returns 1 (the exit code of a failed run).
int fail(const char* subcommand, const std::string& message);

// The option parser of a subcommand ("sieve-bench <subcommand>"); its bad command lines exit with code 1.
inline cli::Parser subcommandParser(const char* subcommand, const char* description) {
    return cli::Parser(std::string("sieve-bench ") + subcommand, description);
}

}  // namespace bench
