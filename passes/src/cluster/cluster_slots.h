#pragma once
// The cluster plugin's slots: their names, the sizes they derive from, those the host imports and those
// both phases share (declared by the early phase stage), and the lookup of every slot by name. Each stage
// declares the rest of its own slots and its pass beside its record() (cluster/*_stage.cpp).
#include <string>

#include "core/readback_ring.h"
#include "core/stage.h"
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

// The plugin's own slots (the imported and exported ones are named in sieve/cluster.h).
inline constexpr const char* kParams = "clusters.params";
inline constexpr const char* kCounters = "clusters.counters";
inline constexpr const char* kCandOffsets = "clusters.candidate_offsets";
inline constexpr const char* kWork = "clusters.work";
inline constexpr const char* kLookback = "clusters.lookback";
inline constexpr const char* kFlags = "clusters.flags";
inline constexpr const char* kCandidates = "clusters.candidates";
inline constexpr const char* kStats = "clusters.stats";
// Each phase's output lists (phase 0: early, 1: late).
inline constexpr const char* kOutDraws[2] = {ClusterPlugin::kClusterDrawsEarly, ClusterPlugin::kClusterDrawsLate};
inline constexpr const char* kOutCounts[2] = {ClusterPlugin::kClusterCountsEarly, ClusterPlugin::kClusterCountsLate};
inline constexpr const char* kOutIds[2] = {ClusterPlugin::kClusterIdsEarly, ClusterPlugin::kClusterIdsLate};
inline constexpr const char* kTasks[2] = {ClusterPlugin::kTasksEarly, ClusterPlugin::kTasksLate};

// The usages the cluster slots combine.
inline constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
inline constexpr VkBufferUsageFlags kIndirect = VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
inline constexpr VkBufferUsageFlags kSrc = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
inline constexpr VkBufferUsageFlags kDst = VK_BUFFER_USAGE_TRANSFER_DST_BIT;

// A buffer slot of at least 16 bytes (a count of 0 still binds).
SlotId declareBuffer(SlotTable& slots, const char* name, Lifetime life, VkDeviceSize size, VkBufferUsageFlags usage,
                     Memory memory = Memory::Device);
// The slots the host shares with the culling plugin (imported: sizes are minimums).
void declareImported(SlotTable& slots, const Sizes& s);
// Parameters, visibility, counters and the phases' work and scans (both phases bind them).
void declareShared(SlotTable& slots, const Sizes& s);

struct SlotIds {
    SlotId instances, primitives, clusters, ranges, instanceSlots, drawsEarly, countsEarly, drawsLate, countsLate,
        pyramid;
    SlotId params, visibility, counters, candOffsets, work, lookback, flags, candidates;
    SlotId outDraws[2], outCounts[2], outIds[2], tasks[2];
};
// Every slot above, by name (a missing one is reported by describeStages).
SlotIds requireSlots(SlotTable& slots);

}  // namespace sieve::cluster
