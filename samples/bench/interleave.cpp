#include "interleave.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "engine/vk/timestamps.h"

namespace bench {

namespace {

sieve::Result<void> recordRounds(VkCommandBuffer cmd, const std::vector<Subject>& subjects, uint32_t warmup,
                                 uint32_t runs, engine::GpuTimestamps& timer, void (*between)(VkCommandBuffer)) {
    const size_t n = subjects.size();
    timer.reset(cmd);
    if (warmup) timer.begin(cmd, "warmup");
    for (uint32_t round = 0; round < warmup + runs; ++round) {
        const bool timed = round >= warmup;
        if (warmup && round == warmup) timer.end(cmd);
        for (size_t k = 0; k < n; ++k) {
            const size_t s = (k + round) % n;
            const Subject& sub = subjects[s];
            between(cmd);
            if (sub.setup)
                if (auto r = sub.setup(cmd); !r) return r;
            if (timed) timer.begin(cmd, std::to_string(s));
            if (auto r = sub.body(cmd); !r) return r;
            if (timed) timer.end(cmd);
            if (sub.teardown)
                if (auto r = sub.teardown(cmd); !r) return r;
        }
    }
    return {};
}

// The timed runs per subject; warmupUs: the GPU time of the warm-up rounds as a whole.
sieve::Result<std::vector<std::vector<double>>> run(engine::Context& ctx, const std::vector<Subject>& subjects,
                                                    uint32_t warmup, uint32_t runs, void (*between)(VkCommandBuffer),
                                                    double& warmupUs) {
    auto timer = engine::GpuTimestamps::create(ctx, runs * uint32_t(subjects.size()) + 1, 1, "bench interleaved");
    if (!timer) return timer.error();
    sieve::Result<void> rec;
    auto r =
        ctx.submitNow([&](VkCommandBuffer cmd) { rec = recordRounds(cmd, subjects, warmup, runs, *timer, between); });
    if (!rec) return rec.error();
    if (!r) return r.error();
    auto scopes = timer->read(0, true);
    if (!scopes) return scopes.error();
    std::vector<std::vector<double>> us(subjects.size());
    warmupUs = 0;
    for (const engine::GpuTimestamps::Scope& s : scopes.value()) {
        if (s.name == "warmup")
            warmupUs = s.ms * 1000.0;
        else
            us[std::stoul(s.name)].push_back(s.ms * 1000.0);
    }
    for (const auto& v : us)
        if (v.size() != runs) return sieve::makeError(VK_ERROR_UNKNOWN, "bench: a timed run has no timestamps");
    return us;
}

}  // namespace

std::vector<Stat> InterleavedTimes::stats() const {
    std::vector<Stat> s;
    for (const auto& v : us) s.push_back(stat(v));
    return s;
}

sieve::Result<InterleavedTimes> timeInterleaved(engine::Context& ctx, const std::vector<Subject>& subjects,
                                                const InterleavedOptions& o) {
    InterleavedTimes t;
    // Two probes of three rounds, the fastest of each subject: a cold first round must not shorten the
    // warm-up (2026-12-01, H200 at 345 MHz before a 2^28 run: one probe gave 270-430 ms of warm-up).
    double unused = 0;
    std::vector<double> fastest(subjects.size(), 1e300);
    for (int p = 0; p < 2; ++p) {
        auto probe = run(ctx, subjects, 0, 3, o.between, unused);
        if (!probe) return probe.error();
        for (size_t k = 0; k < subjects.size(); ++k)
            for (double us : probe.value()[k]) fastest[k] = std::min(fastest[k], us);
    }
    for (double us : fastest) t.roundUs += us;
    // 1.25x: the probe often runs on a GPU that is still clocking up, so its rounds look slower than the
    // warm ones (2026-12-01 H200: 270-380 ms of warm-up where 500 were asked, on an idle GPU).
    const double rounds = t.roundUs > 0 ? std::ceil(1.25 * o.warmupMs * 1000.0 / t.roundUs) : double(o.maxWarmupRounds);
    t.warmupRounds = uint32_t(std::clamp(rounds, double(o.minWarmupRounds), double(o.maxWarmupRounds)));
    if (o.readClocks) t.clocksBefore = readClocks();
    auto times = run(ctx, subjects, t.warmupRounds, o.runs, o.between, t.warmupUs);
    if (!times) return times.error();
    if (o.readClocks) t.clocksAfter = readClocks();
    t.us = std::move(times).value();
    return t;
}

}  // namespace bench
