#pragma once
// The cluster plugin's slots and the uses of its passes (sieve/cluster.h), declared in one place.
#include <string>
#include <vector>

#include "core/readback_ring.h"
#include "sieve/cluster.h"

namespace sieve::cluster {

// Sizes the slots derive from (resolved capacities).
struct Sizes {
    uint32_t maxInstances = 0;
    uint32_t drawCapacity = 0;       // C: records per input list
    uint32_t candidateCapacity = 0;  // K
    uint32_t outputCapacity = 0;     // O
    uint32_t visibilitySlots = 0;
    uint32_t framesInFlight = 2;
    VkDeviceSize paramsStride = 0;
    uint32_t scanTile = 4096;  // values per workgroup of the phase's scans (shaders/cluster/scan.glsl)
    // u32 words of the scans' look-back status (shaders/cluster/scan.glsl), zeroed once per frame.
    VkDeviceSize lookbackWords() const;
    VkExtent2D pyramid{1, 1};
    uint32_t pyramidMips = 1;
    // No drawIndirectCount: the output lists are drawn over their capacity, so they start zeroed (empty
    // records past the count).
    bool padDraws = false;
};

// One frame's record in the readback ring: tag, counters, both list counts.
struct StatsRecord {
    ReadbackHeader header;  // core/readback_ring.h (payload unused)
    gpu::ClusterCounters counters;
    gpu::DrawCounts early;
    gpu::DrawCounts late;
};
static_assert(sizeof(StatsRecord) == 96);

struct SlotIds {
    SlotId instances, primitives, clusters, ranges, instanceSlots, drawsEarly, countsEarly, drawsLate, countsLate,
        pyramid;
    SlotId params, visibility, counters, candOffsets, work, lookback, flags, candidates, stats;
    SlotId outDraws[2], outCounts[2], outIds[2], tasks[2];
};

// Fills `slots` and `passes` (pass order: sieve::ClusterPlugin::PassIndex) and returns the ids.
SlotIds describeSlots(const Sizes& s, std::vector<SlotDesc>& slots, std::vector<PassDesc>& passes);

}  // namespace sieve::cluster
