#include "cluster/cluster_slots.h"

#include <algorithm>

#include "sieve/hiz.h"

namespace sieve::cluster {

namespace {

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
constexpr VkBufferUsageFlags kIndirect = VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
constexpr VkBufferUsageFlags kSrc = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
constexpr VkBufferUsageFlags kDst = VK_BUFFER_USAGE_TRANSFER_DST_BIT;

struct Adder {
    std::vector<SlotDesc>& slots;
    SlotId buffer(const char* name, Lifetime life, VkDeviceSize size, VkBufferUsageFlags usage,
                  Memory memory = Memory::Device) {
        return add(bufferSlot(name, life, std::max<VkDeviceSize>(size, 16), usage, memory));
    }
    SlotId add(SlotDesc d) {
        slots.push_back(std::move(d));
        return SlotId(slots.size() - 1);
    }
};

// The slots the host shares with the culling plugin (imported: sizes are minimums).
void addImported(const Sizes& s, Adder& add, SlotIds& id) {
    using CP = ClusterPlugin;
    const VkDeviceSize C = s.drawCapacity;
    id.instances =
        add.buffer(CP::kInstances, Lifetime::Imported, VkDeviceSize(s.maxInstances) * sizeof(gpu::Instance), kStorage);
    id.primitives = add.buffer(CP::kPrimitives, Lifetime::Imported, sizeof(gpu::MeshPrimitive), kStorage);
    id.clusters = add.buffer(CP::kClusters, Lifetime::Imported, sizeof(gpu::Cluster), kStorage);
    id.ranges = add.buffer(CP::kRanges, Lifetime::Imported, sizeof(gpu::ClusterRange), kStorage);
    id.instanceSlots = add.buffer(CP::kInstanceSlots, Lifetime::Imported, VkDeviceSize(s.maxInstances) * 4, kStorage);
    id.drawsEarly = add.buffer(CP::kDrawsEarly, Lifetime::Imported, C * sizeof(gpu::DrawCommand), kStorage);
    id.countsEarly = add.buffer(CP::kCountsEarly, Lifetime::Imported, sizeof(gpu::DrawCounts), kStorage);
    id.drawsLate = add.buffer(CP::kDrawsLate, Lifetime::Imported, C * sizeof(gpu::DrawCommand), kStorage);
    id.countsLate = add.buffer(CP::kCountsLate, Lifetime::Imported, sizeof(gpu::DrawCounts), kStorage);
    id.pyramid = add.add(imageSlot(CP::kPyramid, Lifetime::Imported, kHiZFormat, s.pyramid, s.pyramidMips, kHiZUsage));
}

// The plugin's own slots: parameters, visibility, the phase's work and scans, and each phase's lists.
void addOwn(const Sizes& s, Adder& add, SlotIds& id) {
    using CP = ClusterPlugin;
    const VkDeviceSize C = s.drawCapacity, K = s.candidateCapacity, O = s.outputCapacity;
    id.params = add.buffer("clusters.params", Lifetime::Persistent, s.paramsStride * s.framesInFlight,
                           VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, Memory::Upload);
    id.visibility =
        add.buffer(CP::kVisibility, Lifetime::Persistent, VkDeviceSize(s.visibilitySlots) * 4, kStorage | kDst | kSrc);
    id.counters =
        add.buffer("clusters.counters", Lifetime::Transient, sizeof(gpu::ClusterCounters), kStorage | kDst | kSrc);
    id.candOffsets = add.buffer("clusters.candidate_offsets", Lifetime::Transient, 2 * C * 4, kStorage);
    // The phase's live sizes and indirect dispatches (shared/cluster.h ClusterWork), and its scans'
    // look-back status (zeroed by the early pass).
    id.work = add.buffer("clusters.work", Lifetime::Transient, sizeof(gpu::ClusterWork), kStorage | kIndirect);
    id.lookback = add.buffer("clusters.lookback", Lifetime::Transient, s.lookbackWords() * 4, kStorage | kDst);
    id.flags = add.buffer("clusters.flags", Lifetime::Transient, K * 4, kStorage);
    id.candidates = add.buffer("clusters.candidates", Lifetime::Transient, K * 8, kStorage);
    id.stats = add.buffer("clusters.stats", Lifetime::Persistent, sizeof(StatsRecord) * s.framesInFlight, kDst,
                          Memory::Readback);
    const char* draws[2] = {CP::kClusterDrawsEarly, CP::kClusterDrawsLate};
    const char* counts[2] = {CP::kClusterCountsEarly, CP::kClusterCountsLate};
    const char* ids[2] = {CP::kClusterIdsEarly, CP::kClusterIdsLate};
    const char* tasks[2] = {CP::kTasksEarly, CP::kTasksLate};
    for (int p = 0; p < 2; ++p) {
        id.outDraws[p] =
            add.buffer(draws[p], Lifetime::Transient, O * sizeof(gpu::DrawCommand), kStorage | kIndirect | kSrc | kDst);
        id.outCounts[p] =
            add.buffer(counts[p], Lifetime::Transient, sizeof(gpu::DrawCounts), kStorage | kIndirect | kSrc);
        id.outIds[p] = add.buffer(ids[p], Lifetime::Transient, O * 4, kStorage | kSrc);
        id.tasks[p] = add.buffer(tasks[p], Lifetime::Transient, 16, kStorage | kIndirect | kSrc);
    }
}

// The early and late cluster passes and the stats pass, with every slot each binds.
void addPasses(const Sizes& s, const SlotIds& id, std::vector<PassDesc>& passes) {
    using namespace use;
    for (int p = 0; p < 2; ++p) {
        PassDesc d;
        d.name = p == 0 ? "cluster.early" : "cluster.late";
        d.uses = {uniformRead(id.params),        storageRead(id.instances),        storageRead(id.primitives),
                  storageRead(id.clusters),      storageRead(id.ranges),           storageRead(id.instanceSlots),
                  storageRead(id.drawsEarly),    storageRead(id.countsEarly),      storageReadWrite(id.visibility),
                  storageReadWrite(id.counters), storageReadWrite(id.candOffsets), storageReadWrite(id.work),
                  storageReadWrite(id.lookback), storageReadWrite(id.flags),       storageReadWrite(id.candidates),
                  sampledImage(id.pyramid),      storageWrite(id.outDraws[p]),     storageWrite(id.outCounts[p]),
                  storageWrite(id.outIds[p]),    storageWrite(id.tasks[p])};
        d.uses.push_back(indirectRead(id.work));
        if (s.padDraws) d.uses.push_back(transferWrite(id.outDraws[p]));
        if (p == 0) {
            d.uses.push_back(transferWrite(id.counters));
            d.uses.push_back(transferWrite(id.visibility));  // cleared on first use
            d.uses.push_back(transferWrite(id.lookback));    // cleared every frame
        } else {
            d.uses.push_back(storageRead(id.drawsLate));
            d.uses.push_back(storageRead(id.countsLate));
        }
        passes.push_back(std::move(d));
    }
    PassDesc st;
    st.name = "cluster.stats";
    st.sideEffect = true;
    st.uses = {transferRead(id.counters), transferRead(id.outCounts[0]), transferRead(id.outCounts[1]),
               transferWrite(id.stats)};
    passes.push_back(std::move(st));
}

}  // namespace

// Two control words (ticket counter, epoch), then up to three words per tile of the larger scan (two when
// packed, after the 64-bit alignment of the control words).
VkDeviceSize Sizes::lookbackWords() const {
    const VkDeviceSize values = std::max<VkDeviceSize>(2 * VkDeviceSize(drawCapacity), candidateCapacity);
    return 2 + 3 * ((values + scanTile - 1) / scanTile);
}

SlotIds describeSlots(const Sizes& s, std::vector<SlotDesc>& slots, std::vector<PassDesc>& passes) {
    slots.clear();
    passes.clear();
    Adder add{slots};
    SlotIds id{};
    addImported(s, add, id);
    addOwn(s, add, id);
    addPasses(s, id, passes);
    return id;
}

}  // namespace sieve::cluster
