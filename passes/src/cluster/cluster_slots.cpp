#include "cluster/cluster_slots.h"

#include <algorithm>

#include "sieve/hiz.h"

namespace sieve::cluster {

SlotId declareBuffer(SlotTable& slots, const char* name, Lifetime life, VkDeviceSize size, VkBufferUsageFlags usage,
                     Memory memory) {
    return slots.buffer(name, life, std::max<VkDeviceSize>(size, 16), usage, memory);
}

void declareImported(SlotTable& slots, const Sizes& s) {
    using CP = ClusterPlugin;
    const VkDeviceSize C = s.drawCapacity;
    auto add = [&](const char* name, VkDeviceSize size) {
        declareBuffer(slots, name, Lifetime::Imported, size, kStorage);
    };
    add(CP::kInstances, VkDeviceSize(s.maxInstances) * sizeof(gpu::Instance));
    add(CP::kPrimitives, sizeof(gpu::MeshPrimitive));
    add(CP::kClusters, sizeof(gpu::Cluster));
    add(CP::kRanges, sizeof(gpu::ClusterRange));
    add(CP::kInstanceSlots, VkDeviceSize(s.maxInstances) * 4);
    add(CP::kDrawsEarly, C * sizeof(gpu::DrawCommand));
    add(CP::kCountsEarly, sizeof(gpu::DrawCounts));
    add(CP::kDrawsLate, C * sizeof(gpu::DrawCommand));
    add(CP::kCountsLate, sizeof(gpu::DrawCounts));
    slots.image(CP::kPyramid, Lifetime::Imported, kHiZFormat, s.pyramid, s.pyramidMips, kHiZUsage);
}

void declareShared(SlotTable& slots, const Sizes& s) {
    const VkDeviceSize C = s.drawCapacity, K = s.candidateCapacity;
    auto add = [&](const char* name, Lifetime life, VkDeviceSize size, VkBufferUsageFlags usage) {
        declareBuffer(slots, name, life, size, usage);
    };
    declareBuffer(slots, kParams, Lifetime::Persistent, s.paramsStride * s.framesInFlight,
                  VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, Memory::Upload);
    add(ClusterPlugin::kVisibility, Lifetime::Persistent, VkDeviceSize(s.visibilitySlots) * 4, kStorage | kDst | kSrc);
    add(kCounters, Lifetime::Transient, sizeof(gpu::ClusterCounters), kStorage | kDst | kSrc);
    add(kCandOffsets, Lifetime::Transient, 2 * C * 4, kStorage);
    // The phase's live sizes and indirect dispatches (shared/cluster.h ClusterWork), and its scans'
    // look-back status (zeroed by the early pass).
    add(kWork, Lifetime::Transient, sizeof(gpu::ClusterWork), kStorage | kIndirect);
    add(kLookback, Lifetime::Transient, s.lookbackWords() * 4, kStorage | kDst);
    add(kFlags, Lifetime::Transient, K * 4, kStorage);
    add(kCandidates, Lifetime::Transient, K * 8, kStorage);
}

// Two control words (ticket counter, epoch), then up to three words per tile of the larger scan (two when
// packed, after the 64-bit alignment of the control words).
VkDeviceSize Sizes::lookbackWords() const {
    const VkDeviceSize values = std::max<VkDeviceSize>(2 * VkDeviceSize(drawCapacity), candidateCapacity);
    return 2 + 3 * ((values + scanTile - 1) / scanTile);
}

SlotIds requireSlots(SlotTable& slots) {
    using CP = ClusterPlugin;
    auto r = [&](const char* name) { return slots.require(name); };
    SlotIds id{r(CP::kInstances),
               r(CP::kPrimitives),
               r(CP::kClusters),
               r(CP::kRanges),
               r(CP::kInstanceSlots),
               r(CP::kDrawsEarly),
               r(CP::kCountsEarly),
               r(CP::kDrawsLate),
               r(CP::kCountsLate),
               r(CP::kPyramid),
               r(kParams),
               r(CP::kVisibility),
               r(kCounters),
               r(kCandOffsets),
               r(kWork),
               r(kLookback),
               r(kFlags),
               r(kCandidates),
               {},
               {},
               {},
               {}};
    for (int p = 0; p < 2; ++p) {
        id.outDraws[p] = r(kOutDraws[p]);
        id.outCounts[p] = r(kOutCounts[p]);
        id.outIds[p] = r(kOutIds[p]);
        id.tasks[p] = r(kTasks[p]);
    }
    return id;
}

}  // namespace sieve::cluster
