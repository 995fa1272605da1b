#pragma once
// Interleaved GPU timing: every subject of a measurement (the primitive and its peers) runs once per round,
// rounds back to back in one submission, so that they all see the same clocks. A warm-up by time comes
// first in the same submission: an idle GPU clocks down (H200: 345 MHz SM idle) and a count of 5 warm-ups
// does not bring it back, so at least `warmupMs` of GPU work runs right before the first timed round.
#include <volk.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench_util.h"
#include "clocks.h"

namespace bench {

struct Subject {
    std::string name;
    Recorder body;      // timed (between two timestamps)
    Recorder setup;     // optional, recorded before the first timestamp (layout transitions, say)
    Recorder teardown;  // optional, after the second timestamp
};

struct InterleavedOptions {
    uint32_t runs = 50;     // timed rounds
    double warmupMs = 500;  // GPU time of the warm-up rounds, at least
    uint32_t minWarmupRounds = 1;
    uint32_t maxWarmupRounds = 20000;                // bounds the command buffer of very short rounds
    void (*between)(VkCommandBuffer) = fullBarrier;  // before every subject of every round
    bool readClocks = true;                          // nvidia-smi before and after the timed submission
};

struct InterleavedTimes {
    std::vector<std::vector<double>> us;  // per subject, its timed runs in round order
    uint32_t warmupRounds = 0;
    double roundUs = 0;   // GPU time of one round (the probe's fastest of each subject)
    double warmupUs = 0;  // GPU time of the warm-up rounds, measured (a timestamp pair around them)
    std::optional<Clocks> clocksBefore, clocksAfter;  // around the timed submission (warm-up included)
    std::vector<Stat> stats() const;
};

// Times the subjects round-robin (the order rotates by one subject per round, so no subject always
// follows the same neighbour). A probe of two rounds first measures a round; the timed submission then
// holds ceil(warmupMs / round) warm-up rounds (clamped to [minWarmupRounds, maxWarmupRounds]) and the
// timed rounds.
sieve::Result<InterleavedTimes> timeInterleaved(engine::Context& ctx, const std::vector<Subject>& subjects,
                                                const InterleavedOptions& options);

}  // namespace bench
