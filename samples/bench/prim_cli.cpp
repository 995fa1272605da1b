// sieve-bench prim: the GPU primitives from the command line.
//   file mode:   sieve-bench prim --op OP --input IN --output OUT
//   timing mode: sieve-bench prim --op OP --n N [--density D] [--tier a|b|c] [--method M] [--runs R]
//                [--warmup W] [--verify] [--json]
// Files are raw little-endian arrays (see usage()). Timing uses GPU timestamps (median of the runs after
// warm-up) and always times two copy peers in the same run: vkCmdCopyBuffer and a compute-shader copy
// (shaders/prim/copy.comp; NVIDIA's vkCmdCopyBuffer is far below memory bandwidth). Each peer copies
// half the bytes the primitive touches, so that it moves the same traffic (bytes read + bytes written):
// scan: n*4 read + n*4 written, so the peer copies the input; compaction: the flags read and the
// records written (plus payload reads); reduce: the input read. Compaction also times the unordered
// atomic-append peer.
#include <volk.h>

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench_util.h"
#include "compute_copy.h"
#include "engine/vk/context.h"
#include "engine/vk/resources.h"
#include "sieve/prim/compact.h"
#include "sieve/prim/reduce.h"
#include "sieve/prim/reference.h"
#include "sieve/prim/scan.h"
#include "subcommands.h"

namespace bench {
namespace {

using sieve::prim::CompactMethod;
using sieve::prim::ScanTier;

enum class Op { Scan, Compact, ReduceSum, ReduceMin, ReduceMax };

constexpr const char* kDescription =
    "       sieve-bench prim --op OP --input IN --output OUT\n"
    "       sieve-bench prim --op OP --n N [timing options]\n"
    "OP and files (raw little-endian):\n"
    "  scan        IN: n u32            OUT: n+1 u32 (exclusive offsets, then the total)\n"
    "  compact     IN: n u32 flags      OUT: 1+k u32 (k = count of flags != 0, then their indices)\n"
    "  reduce-sum  IN: n u32            OUT: 1 u32\n"
    "  reduce-min  IN: n f32            OUT: 1 f32 (+inf for an empty input)\n"
    "  reduce-max  IN: n f32            OUT: 1 f32 (-inf for an empty input)\n"
    "Sums above 2^32-1 are refused. Timing mode: N elements, flags of density D for scan/compact/reduce-sum,\n"
    "floats in [-1000, 1000] for min/max. Validation layers only with SIEVE_VALIDATION=1.";

struct Args {
    Op op = Op::Scan;
    std::string opName;
    std::string input, output;
    std::optional<uint64_t> n;
    double density = 0.5;
    std::optional<ScanTier> tier;
    std::optional<CompactMethod> method;
    uint32_t runs = 50, warmup = 5;
    bool packedStatus = true;
    uint32_t workgroup = 256, vectors = 4;  // tile = workgroup * vectors * 4 elements
    uint32_t perLane = 1;                   // tier c look-back: predecessors per lane and poll
    bool verify = false, json = false;
};

cli::Parser parser(Args& a) {
    cli::Parser p("sieve-bench prim", kDescription);
    p.option(
         "--op", "OP", "scan, compact, reduce-sum, reduce-min or reduce-max (required)",
         [&a](const std::string& v) {
             const std::pair<const char*, Op> ops[] = {{"scan", Op::Scan},
                                                       {"compact", Op::Compact},
                                                       {"reduce-sum", Op::ReduceSum},
                                                       {"reduce-min", Op::ReduceMin},
                                                       {"reduce-max", Op::ReduceMax}};
             for (const auto& [name, op] : ops)
                 if (v == name) return a.opName = v, a.op = op, true;
             return false;
         },
         "scan, compact, reduce-sum, reduce-min or reduce-max")
        .text("--input", "IN", "file mode: the input file", a.input)
        .text("--output", "OUT", "file mode: the output file", a.output)
        .option(
            "--n", "N", "timing mode: N elements (at most 2^31)",
            [&a](const std::string& v) {
                uint64_t n = 0;
                return cli::parseCount(v, n) && (a.n = n, true);
            },
            "an unsigned integer")
        .option(
            "--density", "D", "share of non-zero flags (0..1, default 0.5)",
            [&a](const std::string& v) { return cli::parseDouble(v, a.density) && a.density >= 0 && a.density <= 1; },
            "a number in [0, 1]")
        .option("--tier", "a|b|c",
                "scan tier: a multi-level, b subgroup, c single-pass look-back (default: device choice)",
                [&a](const std::string& v) {
                    if (v == "a") return a.tier = ScanTier::Multilevel, true;
                    if (v == "b") return a.tier = ScanTier::Subgroup, true;
                    if (v == "c") return a.tier = ScanTier::SinglePass, true;
                    return false;
                })
        .option(
            "--method", "M", "compact: scatter, fused, gather, append (default fused, or scatter when --tier a|b)",
            [&a](const std::string& v) {
                const std::pair<const char*, CompactMethod> methods[] = {{"scatter", CompactMethod::ScanScatter},
                                                                         {"fused", CompactMethod::Fused},
                                                                         {"gather", CompactMethod::Gather},
                                                                         {"append", CompactMethod::AtomicAppend}};
                for (const auto& [name, m] : methods)
                    if (v == name) return a.method = m, true;
                return false;
            },
            "scatter, fused, gather or append")
        .option("--lookback-status", "packed|words",
                "tier c: packed 64-bit state|value words where the device has 64-bit atomics (default), or two words",
                [&a](const std::string& v) {
                    if (v != "packed" && v != "words") return false;
                    a.packedStatus = v == "packed";
                    return true;
                })
        .count("--workgroup", "W", "tile shape: invocations per workgroup (default 256; checked by the primitive)",
               a.workgroup, 0, 1024)
        .count("--vectors", "V", "tile shape: uvec4 per invocation (default 4; checked by the primitive)", a.vectors, 0,
               1024)
        .count("--lookback-per-lane", "K", "tier c: predecessors per lane and poll (1..16, default 1)", a.perLane, 0,
               16)
        .count("--runs", "R", "timed runs (default 50)", a.runs, 1, 100000)
        .count("--warmup", "W", "warm-up runs (default 5)", a.warmup, 0, 100000)
        .flag("--verify", "compare with the CPU reference, before and after the timed runs", a.verify)
        .flag("--json", "print one JSON object", a.json);
    return p;
}

// The rules between options; returns an error message, or empty.
std::string check(const Args& a) {
    if (a.opName.empty()) return "--op is required";
    const bool fileMode = !a.input.empty() || !a.output.empty();
    if (fileMode && (a.input.empty() || a.output.empty())) return "file mode needs both --input and --output";
    if (fileMode && a.n) return "--n and --input/--output are exclusive";
    if (!fileMode && !a.n) return "give --input/--output or --n";
    if (a.n && *a.n > sieve::prim::kMaxScanElements) return "--n above 2^31 is not supported";
    if (a.method && a.op != Op::Compact) return "--method applies to compact only";
    if (a.method == CompactMethod::Fused && a.tier && *a.tier != ScanTier::SinglePass)
        return "--method fused runs on tier c only";
    return {};
}

bool readFile(const std::string& path, std::vector<uint32_t>& out, std::string& error) {
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    if (!f) {
        error = "cannot read '" + path + "'";
        return false;
    }
    const std::streamoff size = f.tellg();
    if (size < 0 || size % 4 != 0) {
        error = "'" + path + "' has " + std::to_string(size) + " bytes, not a multiple of 4";
        return false;
    }
    if (uint64_t(size) / 4 > sieve::prim::kMaxScanElements) {
        error = "'" + path + "' holds more than 2^31 elements";
        return false;
    }
    out.resize(size_t(size) / 4);
    f.seekg(0);
    if (size && !f.read(reinterpret_cast<char*>(out.data()), size)) {
        error = "cannot read '" + path + "'";
        return false;
    }
    return true;
}

bool writeFile(const std::string& path, const std::vector<uint32_t>& words) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f) return false;
    f.write(reinterpret_cast<const char*>(words.data()), std::streamsize(words.size() * 4));
    return bool(f);
}

// The primitive, its buffers, and how to record and read it back.
class Job {
public:
    static sieve::Result<std::unique_ptr<Job>> create(engine::Context& ctx, const Args& a,
                                                      const std::vector<uint32_t>& input);
    sieve::Result<void> record(VkCommandBuffer cmd, bool peer = false) const;
    sieve::Result<std::vector<uint32_t>> download() const;  // the OUT file's words
    uint64_t deviceBytes() const { return bytes_; }
    // Device-memory traffic of the primitive at its minimum: every input byte read once, every output
    // byte written once (compaction: flags, kept payloads, records).
    uint64_t touchedBytes() const;
    std::string variant() const;
    const char* lookbackStatus() const;  // tier c: "packed" or "words"; else "-"
    const engine::Buffer& input() const { return in_; }

private:
    engine::Context* ctx_ = nullptr;
    Op op_ = Op::Scan;
    uint64_t n_ = 0;
    uint64_t sum_ = 0;
    uint64_t kept_ = 0;  // compaction: flags != 0
    uint64_t bytes_ = 0;
    std::unique_ptr<sieve::prim::Scan> scan_;
    std::unique_ptr<sieve::prim::Compact> compact_, append_;
    std::unique_ptr<sieve::prim::Reduce> reduce_;
    engine::Buffer in_, out_, aux_, scratch_;
};

uint64_t deviceLocalBytes(engine::Context& ctx) {
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(ctx.physical(), &props);
    uint64_t best = 0;
    for (uint32_t i = 0; i < props.memoryHeapCount; ++i)
        if (props.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            best = std::max(best, props.memoryHeaps[i].size);
    return best;
}

sieve::Result<std::unique_ptr<Job>> Job::create(engine::Context& ctx, const Args& a,
                                                const std::vector<uint32_t>& input) {
    auto job = std::make_unique<Job>();
    job->ctx_ = &ctx;
    job->op_ = a.op;
    job->n_ = input.size();
    const uint64_t n = job->n_;
    sieve::prim::PrimOptions prim;
    if (a.tier) prim.tier = *a.tier;
    prim.packedLookbackStatus = a.packedStatus;
    prim.workgroupSize = a.workgroup;
    prim.vectorsPerThread = a.vectors;
    prim.lookbackPerLane = a.perLane;
    for (uint32_t v : input) job->kept_ += v != 0;
    uint64_t scratch = 0, out = 0;
    if (a.op == Op::Scan || a.op == Op::ReduceSum) {
        for (uint32_t v : input) job->sum_ += v;
        if (job->sum_ > UINT32_MAX)
            return sieve::makeError(VK_ERROR_UNKNOWN,
                                    "the sum of the input is " + std::to_string(job->sum_) + ", above 2^32-1: refused");
    }
    if (a.op == Op::Scan) {
        auto s = sieve::prim::Scan::create(ctx.info(), prim);
        if (!s) return s.error();
        job->scan_ = std::make_unique<sieve::prim::Scan>(std::move(s).value());
        scratch = job->scan_->scratchBytes(n);
        out = n * 4;
    } else if (a.op == Op::Compact) {
        sieve::prim::CompactOptions o;
        o.prim = prim;
        o.method =
            a.method ? *a.method
                     : (a.tier && *a.tier != ScanTier::SinglePass ? CompactMethod::ScanScatter : CompactMethod::Fused);
        auto c = sieve::prim::Compact::create(ctx.info(), o);
        if (!c) return c.error();
        job->compact_ = std::make_unique<sieve::prim::Compact>(std::move(c).value());
        o.method = CompactMethod::AtomicAppend;
        auto p = sieve::prim::Compact::create(ctx.info(), o);
        if (!p) return p.error();
        job->append_ = std::make_unique<sieve::prim::Compact>(std::move(p).value());
        scratch = std::max(job->compact_->scratchBytes(n), job->append_->scratchBytes(n));
        out = n * 4;
    } else {
        const auto op = a.op == Op::ReduceSum   ? sieve::prim::ReduceOp::SumU32
                        : a.op == Op::ReduceMin ? sieve::prim::ReduceOp::MinF32
                                                : sieve::prim::ReduceOp::MaxF32;
        auto r = sieve::prim::Reduce::create(ctx.info(), op, prim);
        if (!r) return r.error();
        job->reduce_ = std::make_unique<sieve::prim::Reduce>(std::move(r).value());
        scratch = job->reduce_->scratchBytes(n);
    }
    // Input, output, scratch, and the copy peer's destination (timing) must fit device memory.
    job->bytes_ = n * 4 + out + scratch + n * 4;
    const uint64_t local = deviceLocalBytes(ctx);
    if (job->bytes_ > local / 10 * 9)
        return sieve::makeError(VK_ERROR_OUT_OF_DEVICE_MEMORY, "the input needs about " +
                                                                   std::to_string(job->bytes_ >> 20) +
                                                                   " MiB of device memory; " + "the device has " +
                                                                   std::to_string(local >> 20) + " MiB");
    auto in = deviceBuffer(ctx, n * 4, "prim input");
    if (!in) return in.error();
    job->in_ = std::move(in).value();
    if (n)
        if (auto r = engine::uploadBuffer(ctx, job->in_, input.data(), n * 4); !r) return r.error();
    auto o = deviceBuffer(ctx, out, "prim output");
    auto x = deviceBuffer(ctx, 16, "prim total/count/overflow");
    auto s = deviceBuffer(ctx, scratch, "prim scratch");
    if (!o) return o.error();
    if (!x) return x.error();
    if (!s) return s.error();
    job->out_ = std::move(o).value();
    job->aux_ = std::move(x).value();
    job->scratch_ = std::move(s).value();
    return job;
}

const char* Job::lookbackStatus() const {
    const bool singlePass = (scan_ && scan_->tierFor(n_) == ScanTier::SinglePass) ||
                            (compact_ && (compact_->options().method == CompactMethod::Fused ||
                                          compact_->scanTier() == ScanTier::SinglePass));
    if (!singlePass) return "-";
    return (scan_ ? scan_->packedLookbackStatus() : compact_->packedLookbackStatus()) ? "packed" : "words";
}

uint64_t Job::touchedBytes() const {
    if (scan_) return n_ * 8;
    if (compact_) {
        const auto& o = compact_->options();
        return n_ * 4 + kept_ * compact_->recordBytes() + (o.payload ? kept_ * compact_->recordBytes() : 0);
    }
    return n_ * 4;
}

std::string Job::variant() const {
    if (scan_) return sieve::prim::tierName(scan_->tierFor(n_));
    if (compact_) {
        std::string m = sieve::prim::methodName(compact_->options().method);
        if (compact_->options().method != CompactMethod::Fused &&
            compact_->options().method != CompactMethod::AtomicAppend)
            m += std::string("/") + sieve::prim::tierName(compact_->scanTier());
        return m;
    }
    return "levels";
}

sieve::Result<void> Job::record(VkCommandBuffer cmd, bool peer) const {
    const uint32_t n32 = uint32_t(n_);
    if (scan_)
        return scan_->record(cmd, {in_.range(), out_.range(), aux_.range(0, 4), scratch_.range()}, n_,
                             sieve::prim::SumBound::total(sum_));
    if (compact_) {
        const auto& c = peer ? *append_ : *compact_;
        return c.record(cmd,
                        {in_.range(), in_.range(), out_.range(), aux_.range(0, 4), aux_.range(4, 4), scratch_.range()},
                        n_, n32);
    }
    auto r =
        reduce_->record(cmd, in_.range(), aux_.range(0, 4), scratch_.range(), n32, sieve::prim::SumBound::total(sum_));
    if (!r) return r.error();
    return {};
}

sieve::Result<std::vector<uint32_t>> Job::download() const {
    engine::Context& ctx = *ctx_;
    if (reduce_) {
        if (n_ == 0) return std::vector<uint32_t>{reduce_->identityBits()};  // answered on the host
        return engine::readVector<uint32_t>(ctx, aux_, 1);
    }
    auto aux = engine::readVector<uint32_t>(ctx, aux_, 2);
    if (!aux) return aux.error();
    if (scan_) {
        auto offsets = engine::readVector<uint32_t>(ctx, out_, n_);
        if (!offsets) return offsets.error();
        std::vector<uint32_t> words = std::move(offsets).value();
        words.push_back(aux.value()[0]);
        return words;
    }
    const uint32_t count = aux.value()[0];
    if (count > n_ || aux.value()[1] != 0)
        return sieve::makeError(VK_ERROR_UNKNOWN, "compaction returned count " + std::to_string(count) + ", overflow " +
                                                      std::to_string(aux.value()[1]));
    auto records = engine::readVector<uint32_t>(ctx, out_, count);
    if (!records) return records.error();
    std::vector<uint32_t> words{count};
    words.insert(words.end(), records.value().begin(), records.value().end());
    return words;
}

std::vector<uint32_t> referenceWords(Op op, const std::vector<uint32_t>& in) {
    using namespace sieve::prim;
    switch (op) {
        case Op::Scan: return reference::exclusiveScanWithTotal(in);
        case Op::Compact: {
            auto c = reference::compact(in, {}, uint32_t(in.size()));
            std::vector<uint32_t> words{c.count};
            words.insert(words.end(), c.records.begin(), c.records.end());
            return words;
        }
        case Op::ReduceSum: return {reference::sum(in)};
        default: {
            std::vector<float> f(in.size());
            if (!in.empty()) std::memcpy(f.data(), in.data(), in.size() * 4);
            const float r = op == Op::ReduceMin ? reference::min(f) : reference::max(f);
            uint32_t bits;
            std::memcpy(&bits, &r, 4);
            return {bits};
        }
    }
}

int fail(const std::string& message) {
    return bench::fail("prim", message);
}

int runFile(const Args& a) {
    std::vector<uint32_t> input;
    std::string error;
    if (!readFile(a.input, input, error)) return fail(error);
    auto ctx = makeContext();
    if (!ctx) return fail(ctx.error().message);
    auto job = Job::create(*ctx.value(), a, input);
    if (!job) return fail(job.error().message);
    sieve::Result<void> rec;
    auto r = ctx.value()->submitNow([&](VkCommandBuffer cmd) { rec = job.value()->record(cmd); });
    if (!rec) return fail(rec.error().message);
    if (!r) return fail(r.error().message);
    auto words = job.value()->download();
    if (!words) return fail(words.error().message);
    if (!writeFile(a.output, words.value())) return fail("cannot write '" + a.output + "'");
    return 0;
}

std::vector<uint32_t> generate(const Args& a) {
    std::vector<uint32_t> v(*a.n);
    uint64_t s = 0x2545f4914f6cdd1dull;
    const uint32_t threshold = uint32_t(a.density * 4294967295.0);
    for (auto& x : v) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        const uint32_t r = uint32_t(s >> 32);
        if (a.op == Op::ReduceMin || a.op == Op::ReduceMax) {
            const float f = -1000.0f + 2000.0f * float(r >> 8) / float(1 << 24);
            std::memcpy(&x, &f, 4);
        } else {
            x = (a.density >= 1.0 || r < threshold) ? 1 : 0;
        }
    }
    return v;
}

// Every run: one barrier that orders the previous run's writes (compute or copy) before this run.
void interRunBarrier(VkCommandBuffer cmd) {
    VkMemoryBarrier2 b{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    b.srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT;
    b.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT;
    b.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT;
    b.dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                      VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT;
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.memoryBarrierCount = 1;
    dep.pMemoryBarriers = &b;
    vkCmdPipelineBarrier2(cmd, &dep);
}

// warmup + runs runs of `body`, interRunBarrier before each; the microseconds of the timed runs.
sieve::Result<std::vector<double>> timeRuns(engine::Context& ctx, const Args& a, const Recorder& body) {
    return timeGpu(ctx, a.warmup, a.runs, body, interRunBarrier);
}

int runTiming(const Args& a) {
    auto ctxR = makeContext();
    if (!ctxR) return fail(ctxR.error().message);
    engine::Context& ctx = *ctxR.value();
    const std::vector<uint32_t> input = generate(a);
    auto jobR = Job::create(ctx, a, input);
    if (!jobR) return fail(jobR.error().message);
    const Job& job = *jobR.value();
    const uint64_t n = *a.n;

    std::optional<bool> verified;
    std::vector<uint32_t> expect;
    if (a.verify) {
        expect = referenceWords(a.op, input);
        sieve::Result<void> rec;
        auto r = ctx.submitNow([&](VkCommandBuffer cmd) { rec = job.record(cmd); });
        if (!rec) return fail(rec.error().message);
        if (!r) return fail(r.error().message);
        auto words = job.download();
        if (!words) return fail(words.error().message);
        verified = words.value() == expect;
    }

    auto opTimes = timeRuns(ctx, a, [&](VkCommandBuffer cmd) { return job.record(cmd); });
    if (!opTimes) return fail(opTimes.error().message);
    if (a.verify) {  // the last timed run's result: a race between tiles would show here too
        auto words = job.download();
        if (!words) return fail(words.error().message);
        verified = *verified && words.value() == expect;
    }
    // Both copy peers move the primitive's traffic: half of it read, half written (a multiple of 16 bytes,
    // at most the input's n * 4).
    const uint64_t touched = job.touchedBytes();
    const uint64_t peerBytes = std::min<uint64_t>(touched / 2 / 16 * 16, n * 4);
    auto copyDst = deviceBuffer(ctx, n * 4, "copy peer destination");
    if (!copyDst) return fail(copyDst.error().message);
    auto copyTimes = timeRuns(ctx, a, [&](VkCommandBuffer cmd) -> sieve::Result<void> {
        if (peerBytes) {
            VkBufferCopy region{0, 0, peerBytes};
            vkCmdCopyBuffer(cmd, job.input().handle(), copyDst.value().handle(), 1, &region);
        }
        return {};
    });
    if (!copyTimes) return fail(copyTimes.error().message);
    auto computeCopy = ComputeCopy::create(ctx.info());
    if (!computeCopy) return fail(computeCopy.error().message);
    auto computeCopyTimes = timeRuns(ctx, a, [&](VkCommandBuffer cmd) -> sieve::Result<void> {
        computeCopy.value().record(cmd, job.input().handle(), copyDst.value().handle(), peerBytes);
        return {};
    });
    if (!computeCopyTimes) return fail(computeCopyTimes.error().message);
    std::optional<double> appendUs;
    if (a.op == Op::Compact) {
        auto t = timeRuns(ctx, a, [&](VkCommandBuffer cmd) { return job.record(cmd, true); });
        if (!t) return fail(t.error().message);
        appendUs = median(t.value());
    }

    const double us = median(opTimes.value());
    double minUs = opTimes.value().empty() ? 0 : opTimes.value()[0];
    for (double t : opTimes.value()) minUs = std::min(minUs, t);
    const double copyUs = median(copyTimes.value());
    const double computeCopyUs = median(computeCopyTimes.value());
    const double gbps = us > 0 ? double(touched) / (us * 1e3) : 0;
    const auto& props = ctx.properties();
    if (a.json) {
        std::printf("{\"op\": \"%s\", \"n\": %" PRIu64
                    ", \"variant\": \"%s\", \"density\": %.4f, \"runs\": %u, "
                    "\"warmup\": %u, \"median_us\": %.3f, \"min_us\": %.3f, \"copy_median_us\": %.3f, "
                    "\"ratio_vs_copy\": %.4f, \"compute_copy_median_us\": %.3f, \"ratio_vs_compute_copy\": %.4f, "
                    "\"peer_copy_bytes\": %" PRIu64 ", \"touched_bytes\": %" PRIu64 ", \"input_bytes\": %" PRIu64
                    ", \"effective_gbps\": %.2f, \"lookback_status\": \"%s\", \"workgroup\": %u, \"vectors\": %u, "
                    "\"lookback_per_lane\": %u",
                    a.opName.c_str(), n, job.variant().c_str(), a.density, a.runs, a.warmup, us, minUs, copyUs,
                    copyUs > 0 ? us / copyUs : 0.0, computeCopyUs, computeCopyUs > 0 ? us / computeCopyUs : 0.0,
                    peerBytes, touched, n * 4, gbps, job.lookbackStatus(), a.workgroup, a.vectors, a.perLane);
        if (appendUs) std::printf(", \"atomic_append_median_us\": %.3f", *appendUs);
        std::printf(", \"verified\": %s", verified ? (*verified ? "true" : "false") : "null");
        std::printf(", \"device\": \"%s\", \"driver_version\": %u, \"api_version\": \"%u.%u.%u\"}\n", props.deviceName,
                    props.driverVersion, VK_API_VERSION_MAJOR(props.apiVersion), VK_API_VERSION_MINOR(props.apiVersion),
                    VK_API_VERSION_PATCH(props.apiVersion));
    } else {
        std::printf("%s n=%" PRIu64 " (%s) on %s: median %.2f us (min %.2f); copies of %" PRIu64
                    " bytes: vkCmdCopyBuffer %.2f us (ratio %.3f), compute %.2f us (ratio %.3f)\n",
                    a.opName.c_str(), n, job.variant().c_str(), props.deviceName, us, minUs, peerBytes, copyUs,
                    copyUs > 0 ? us / copyUs : 0.0, computeCopyUs, computeCopyUs > 0 ? us / computeCopyUs : 0.0);
        if (appendUs) std::printf("atomic-append peer: median %.2f us\n", *appendUs);
        if (verified) std::printf("verify: %s\n", *verified ? "match" : "MISMATCH");
    }
    return verified && !*verified ? 1 : 0;
}

}  // namespace

int primMain(int argc, char** argv) {
    Args a;
    if (auto exit = parser(a).run(argc, argv, 2)) return *exit;
    if (std::string error = check(a); !error.empty()) {
        std::fprintf(stderr, "sieve-bench prim: %s\nRun 'sieve-bench prim --help' for the list of options.\n",
                     error.c_str());
        return 2;
    }
    return a.n ? runTiming(a) : runFile(a);
}

}  // namespace bench
