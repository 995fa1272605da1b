// sieve-bench prim: the GPU primitives from the command line.
//   file mode:   sieve-bench prim --op OP --input IN --output OUT
//   timing mode: sieve-bench prim --op OP --n N [--density D] [--tier a|b|c] [--method M] [--runs R]
//                [--warmup-ms MS] [--no-verify] [--json]
// Files are raw little-endian arrays (see usage()). Timing (interleave.h): the primitive and its peers
// run round-robin in one submission after a warm-up by time, each between GPU timestamps; medians, p10
// and p90 of the timed rounds; the result of the last timed round is compared with the CPU reference
// (`verified`), and the GPU clocks are read before and after (nvidia-smi, where present). Peers:
//  - vkCmdCopyBuffer and a compute-shader copy (shaders/prim/copy.comp; NVIDIA's vkCmdCopyBuffer is far
//    below memory bandwidth) of half the bytes the primitive touches, so that they move the same traffic
//    (bytes read + bytes written): scan: n*4 read + n*4 written, so the peer copies the input;
//    compaction: the flags read and the records written (plus payload reads); reduce: the input read;
//  - a read stream (prim::Reduce, max f32) over the input;
//  - a chain of zero-work dispatches with the primitive's own number of dispatches and barriers (counted
//    while it records): the fixed cost of its shape;
//  - compaction: the unordered atomic-append compaction, on its own buffers.
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
#include "clocks.h"
#include "command_count.h"
#include "compute_copy.h"
#include "engine/vk/context.h"
#include "engine/vk/resources.h"
#include "interleave.h"
#include "shared/test_push.h"
#include "sieve/barriers.h"
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
    uint32_t runs = 50, warmup = 1;  // warmup: at least this many rounds, and --warmup-ms of GPU work
    bool packedStatus = true;
    uint32_t workgroup = 256, vectors = 4;  // tile = workgroup * vectors * 4 elements
    uint32_t perLane = 1;                   // tier c look-back: predecessors per lane and poll
    bool persistent = false;                // tier c: PrimOptions::persistentLookback
    double warmupMs = 500;
    bool verify = false, noVerify = false, json = false;  // --verify is the default; kept for old scripts
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
            "--method", "M", "compact: scatter, onepass, gather, append (default onepass, or scatter when --tier a|b)",
            [&a](const std::string& v) {
                const std::pair<const char*, CompactMethod> methods[] = {{"scatter", CompactMethod::ScanScatter},
                                                                         {"onepass", CompactMethod::OnePass},
                                                                         {"gather", CompactMethod::Gather},
                                                                         {"append", CompactMethod::AtomicAppend}};
                for (const auto& [name, m] : methods)
                    if (v == name) return a.method = m, true;
                return false;
            },
            "scatter, onepass, gather or append")
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
        .flag("--persistent", "tier c: persistent look-back state (no clear pass; the scratch is zeroed once)",
              a.persistent)
        .count("--runs", "R", "timed runs (default 50)", a.runs, 1, 100000)
        .count("--warmup", "W", "warm-up rounds, at least (default 1; the warm-up lasts --warmup-ms anyway)", a.warmup,
               0, 100000)
        .option(
            "--warmup-ms", "MS", "GPU time of the warm-up right before the timed rounds (default 500)",
            [&a](const std::string& v) { return cli::parseDouble(v, a.warmupMs) && a.warmupMs >= 0; },
            "a number of milliseconds >= 0")
        .flag("--verify", "compare the last timed result with the CPU reference (the default)", a.verify)
        .flag("--no-verify", "skip the comparison (the line then says \"verified\": null)", a.noVerify)
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
    if (a.method == CompactMethod::OnePass && a.tier && *a.tier != ScanTier::SinglePass)
        return "--method onepass runs on tier c only";
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
    // What download() reads: poisoned before the timed rounds.
    std::vector<const engine::Buffer*> outputs() const { return {&out_, &aux_}; }

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
    engine::Buffer peerOut_, peerAux_, peerScratch_;  // the atomic-append peer's own, so the subject's stay verifiable
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
    prim.persistentLookback = a.persistent;
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
        o.method = a.method ? *a.method
                            : (a.tier && *a.tier != ScanTier::SinglePass ? CompactMethod::ScanScatter
                                                                         : CompactMethod::OnePass);
        auto c = sieve::prim::Compact::create(ctx.info(), o);
        if (!c) return c.error();
        job->compact_ = std::make_unique<sieve::prim::Compact>(std::move(c).value());
        o.method = CompactMethod::AtomicAppend;
        o.prim.persistentLookback = false;  // the peer scans nothing
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
    job->bytes_ = n * 4 + out + scratch + n * 4 + (job->append_ ? out + job->append_->scratchBytes(n) : 0);
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
    // Zero once: persistent look-back state starts from epoch 0 (the other variants clear what they use).
    if (auto r = ctx.submitNow(
            [&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, job->scratch_.handle(), 0, VK_WHOLE_SIZE, 0); });
        !r)
        return r.error();
    if (job->append_) {
        auto po = deviceBuffer(ctx, out, "prim append peer output");
        auto px = deviceBuffer(ctx, 16, "prim append peer count/overflow");
        auto ps = deviceBuffer(ctx, job->append_->scratchBytes(n), "prim append peer scratch");
        if (!po) return po.error();
        if (!px) return px.error();
        if (!ps) return ps.error();
        job->peerOut_ = std::move(po).value();
        job->peerAux_ = std::move(px).value();
        job->peerScratch_ = std::move(ps).value();
    }
    return job;
}

const char* Job::lookbackStatus() const {
    const bool singlePass = (scan_ && scan_->tierFor(n_) == ScanTier::SinglePass) ||
                            (compact_ && (compact_->options().method == CompactMethod::OnePass ||
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
        if (compact_->options().method != CompactMethod::OnePass &&
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
        if (peer)
            return append_->record(cmd,
                                   {in_.range(), in_.range(), peerOut_.range(), peerAux_.range(0, 4),
                                    peerAux_.range(4, 4), peerScratch_.range()},
                                   n_, n32);
        return compact_->record(
            cmd, {in_.range(), in_.range(), out_.range(), aux_.range(0, 4), aux_.range(4, 4), scratch_.range()}, n_,
            n32);
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
    constexpr VkPipelineStageFlags2 kStages = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT;
    sieve::memoryBarrier(cmd, kStages, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT, kStages,
                         VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                             VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
}

// The peers' pipelines and buffers.
struct PeerKit {
    std::optional<ComputeCopy> copy;
    std::optional<sieve::prim::Reduce> read;
    sieve::ComputePipeline zero;  // test/fill.comp with count 0: a dispatch that writes nothing
    engine::Buffer copyDst, readOut, readScratch;
};

sieve::Result<PeerKit> makePeers(engine::Context& ctx, uint64_t n) {
    PeerKit k;
    auto c = ComputeCopy::create(ctx.info());
    if (!c) return c.error();
    k.copy = std::move(c).value();
    auto r = sieve::prim::Reduce::create(ctx.info(), sieve::prim::ReduceOp::MaxF32);
    if (!r) return r.error();
    k.read = std::move(r).value();
    sieve::ComputePipelineDesc desc;
    desc.shader = "test/fill.comp";
    desc.pushConstantBytes = sizeof(sieve::gpu::FillPush);
    auto z = sieve::ComputePipeline::create(ctx.info(), desc);
    if (!z) return z.error();
    k.zero = std::move(z).value();
    auto dst = deviceBuffer(ctx, n * 4, "copy peer destination");
    auto out = deviceBuffer(ctx, 16, "read peer output");
    auto scratch = deviceBuffer(ctx, k.read->scratchBytes(n), "read peer scratch");
    if (!dst) return dst.error();
    if (!out) return out.error();
    if (!scratch) return scratch.error();
    k.copyDst = std::move(dst).value();
    k.readOut = std::move(out).value();
    k.readScratch = std::move(scratch).value();
    return k;
}

// Fills the outputs with a pattern no correct result has, so that verification sees only what the GPU wrote.
sieve::Result<void> poison(engine::Context& ctx, const std::vector<const engine::Buffer*>& buffers) {
    return ctx.submitNow([&](VkCommandBuffer cmd) {
        for (const engine::Buffer* b : buffers) vkCmdFillBuffer(cmd, b->handle(), 0, VK_WHOLE_SIZE, 0xdeadbeefu);
    });
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
    const bool verify = !a.noVerify;
    // The reference first: the CPU work and the uploads must not sit between the warm-up and the timing.
    const std::vector<uint32_t> expect = verify ? referenceWords(a.op, input) : std::vector<uint32_t>{};
    auto peersR = makePeers(ctx, n);
    if (!peersR) return fail(peersR.error().message);
    PeerKit& peers = peersR.value();

    // The primitive's shape, counted while it records (into a submission that also checks it runs).
    uint32_t dispatches = 0, barriers = 0;
    {
        sieve::Result<void> rec;
        CommandCount count(ctx.device());
        auto r = ctx.submitNow([&](VkCommandBuffer cmd) { rec = job.record(cmd); });
        dispatches = count.dispatches();
        barriers = count.barriers();
        if (!rec) return fail(rec.error().message);
        if (!r) return fail(r.error().message);
    }
    if (verify)
        if (auto r = poison(ctx, job.outputs()); !r) return fail(r.error().message);

    // Both copy peers move the primitive's traffic: half of it read, half written (a multiple of 16 bytes,
    // at most the input's n * 4).
    const uint64_t touched = job.touchedBytes();
    const uint64_t peerBytes = std::min<uint64_t>(touched / 2 / 16 * 16, n * 4);
    const uint32_t readWords = uint32_t(std::min<uint64_t>(n, ctx.info().limits.maxStorageBufferRange / 4));
    std::vector<Subject> subjects;
    subjects.push_back({"op", [&](VkCommandBuffer cmd) { return job.record(cmd); }, {}, {}});
    subjects.push_back({"compute_copy",
                        [&](VkCommandBuffer cmd) -> sieve::Result<void> {
                            peers.copy->record(cmd, job.input().handle(), peers.copyDst.handle(), peerBytes);
                            return {};
                        },
                        {},
                        {}});
    subjects.push_back({"copy",
                        [&](VkCommandBuffer cmd) -> sieve::Result<void> {
                            if (peerBytes) {
                                VkBufferCopy region{0, 0, peerBytes};
                                vkCmdCopyBuffer(cmd, job.input().handle(), peers.copyDst.handle(), 1, &region);
                            }
                            return {};
                        },
                        {},
                        {}});
    subjects.push_back({"read",
                        [&](VkCommandBuffer cmd) -> sieve::Result<void> {
                            auto r = peers.read->record(cmd, job.input().range(), peers.readOut.range(0, 4),
                                                        peers.readScratch.range(), readWords);
                            if (!r) return r.error();
                            return {};
                        },
                        {},
                        {}});
    subjects.push_back({"chain",
                        [&](VkCommandBuffer cmd) -> sieve::Result<void> {
                            // The barriers first where there are more of them than gaps between dispatches.
                            const sieve::gpu::FillPush push{0, 0};
                            const uint32_t gaps = dispatches ? dispatches - 1 : 0;
                            for (uint32_t b = gaps; b < barriers; ++b) interRunBarrier(cmd);
                            for (uint32_t d = 0; d < dispatches; ++d) {
                                if (d && d <= barriers) interRunBarrier(cmd);
                                peers.zero.dispatch(cmd, {sieve::Binding::storage(peers.copyDst.range())}, push, 1);
                            }
                            return {};
                        },
                        {},
                        {}});
    if (a.op == Op::Compact)
        subjects.push_back({"append", [&](VkCommandBuffer cmd) { return job.record(cmd, true); }, {}, {}});
    enum { kOp, kComputeCopy, kCopy, kRead, kChain, kAppend };

    InterleavedOptions o;
    o.runs = a.runs;
    o.warmupMs = a.warmupMs;
    o.minWarmupRounds = a.warmup;
    o.between = interRunBarrier;
    auto timesR = timeInterleaved(ctx, subjects, o);
    if (!timesR) return fail(timesR.error().message);
    const InterleavedTimes& times = timesR.value();
    const std::vector<Stat> st = times.stats();

    std::optional<bool> verified;
    if (verify) {  // the last timed round's result: a race between tiles would show here
        auto words = job.download();
        if (!words) return fail(words.error().message);
        verified = words.value() == expect;
    }

    const Stat& op = st[kOp];
    const double copyUs = st[kCopy].median, computeCopyUs = st[kComputeCopy].median;
    const double gbps = op.median > 0 ? double(touched) / (op.median * 1e3) : 0;
    const auto& props = ctx.properties();
    if (a.json) {
        Json j;
        j.str("op", a.opName)
            .integer("n", n)
            .str("variant", job.variant())
            .num("density", a.density)
            .integer("runs", a.runs)
            .integer("warmup_rounds", times.warmupRounds)
            .num("warmup_ms", times.warmupUs / 1000.0);
        // NAME_median_us (the key older lines used), NAME_p10_us, NAME_p90_us.
        auto stats = [&j](const std::string& name, const Stat& s) {
            const std::string p = name.empty() ? "" : name + "_";
            j.num(p + "median_us", s.median).num(p + "p10_us", s.p10).num(p + "p90_us", s.p90);
        };
        stats("", op);
        j.num("min_us", op.min);
        stats("compute_copy", st[kComputeCopy]);
        stats("copy", st[kCopy]);
        stats("read", st[kRead]);
        stats("chain", st[kChain]);
        if (a.op == Op::Compact) stats("atomic_append", st[kAppend]);
        j.num("ratio_vs_copy", copyUs > 0 ? op.median / copyUs : 0)
            .num("ratio_vs_compute_copy", computeCopyUs > 0 ? op.median / computeCopyUs : 0)
            .integer("peer_copy_bytes", peerBytes)
            .integer("touched_bytes", touched)
            .integer("input_bytes", n * 4)
            .num("effective_gbps", gbps)
            .num("read_gbps", st[kRead].median > 0 ? double(readWords) * 4 / (st[kRead].median * 1e3) : 0)
            .integer("chain_dispatches", dispatches)
            .integer("chain_barriers", barriers)
            .str("lookback_status", job.lookbackStatus())
            .integer("workgroup", a.workgroup)
            .integer("vectors", a.vectors)
            .integer("lookback_per_lane", a.perLane)
            .boolean("persistent", a.persistent)
            .raw("clocks_before", clocksJson(times.clocksBefore))
            .raw("clocks_after", clocksJson(times.clocksAfter))
            .raw("verified", verified ? (*verified ? "true" : "false") : "null")
            .integer("driver_version", props.driverVersion);
        char api[32];
        std::snprintf(api, sizeof api, "%u.%u.%u", VK_API_VERSION_MAJOR(props.apiVersion),
                      VK_API_VERSION_MINOR(props.apiVersion), VK_API_VERSION_PATCH(props.apiVersion));
        j.str("api_version", api);
        describe(ctx, j);
        std::printf("%s\n", j.text().c_str());
    } else {
        std::printf("%s n=%" PRIu64 " (%s) on %s: median %.2f us (p10 %.2f, p90 %.2f); copies of %" PRIu64
                    " bytes: compute %.2f us (ratio %.3f), vkCmdCopyBuffer %.2f us; read stream %.2f us; "
                    "chain of %u dispatches / %u barriers %.2f us\n",
                    a.opName.c_str(), n, job.variant().c_str(), props.deviceName, op.median, op.p10, op.p90, peerBytes,
                    computeCopyUs, computeCopyUs > 0 ? op.median / computeCopyUs : 0.0, copyUs, st[kRead].median,
                    dispatches, barriers, st[kChain].median);
        if (a.op == Op::Compact) std::printf("atomic-append peer: median %.2f us\n", st[kAppend].median);
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
