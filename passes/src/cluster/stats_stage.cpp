// The cluster plugin's counters and both output lists' counts into a readback ring (cluster.stats), read
// framesInFlight frames later without waiting. A record is trusted only if this plugin wrote it
// (core/readback_ring.h).
#include <cstddef>

#include "cluster/cluster_stage.h"
#include "core/vk.h"
#include "sieve/barriers.h"

namespace sieve::cluster {

namespace {

class StatsStage final : public ClusterStage {
public:
    Result<void> create(ClusterKit& kit) override {
        stats = &kit.stats();
        return {};
    }

    void declare(SlotTable& slots, const ClusterKit& kit) override {
        const uint32_t frames = kit.sizes().framesInFlight;
        declareBuffer(slots, kStats, Lifetime::Persistent, sizeof(StatsRecord) * frames,
                      VK_BUFFER_USAGE_TRANSFER_DST_BIT, Memory::Readback);
        written.reset(frames);
        framesInFlight = frames;
    }

    PassDesc describe(SlotTable& slots) override {
        counters = slots.require(kCounters);
        outCounts[0] = slots.require(kOutCounts[0]);
        outCounts[1] = slots.require(kOutCounts[1]);
        ring = slots.require(kStats);
        using namespace use;
        PassDesc st;
        st.name = "cluster.stats";
        st.sideEffect = true;
        st.uses = {transferRead(counters), transferRead(outCounts[0]), transferRead(outCounts[1]), transferWrite(ring)};
        return st;
    }

    Result<void> record(VkCommandBuffer cmd, const Bindings& b, const ClusterFrame& f) override {
        if (f.fresh) written.reset(framesInFlight);
        const uint32_t slot = f.info.frameSlot;
        // Written framesInFlight frames ago; the host waited for that frame's fence before recording this one.
        read(static_cast<const StatsRecord*>(b[ring].mapped)[slot], slot);
        const VkDeviceSize base = b[ring].offset + sizeof(StatsRecord) * slot;
        const ReadbackHeader header = readbackHeader(f.info.frameIndex, 0u);
        vkCmdUpdateBuffer(cmd, b[ring].buffer, base, sizeof(header), &header);
        const VkBufferCopy copied[3] = {
            {b[counters].offset, base + offsetof(StatsRecord, counters), sizeof(gpu::ClusterCounters)},
            {b[outCounts[0]].offset, base + offsetof(StatsRecord, early), sizeof(gpu::DrawCounts)},
            {b[outCounts[1]].offset, base + offsetof(StatsRecord, late), sizeof(gpu::DrawCounts)}};
        const SlotId from[3] = {counters, outCounts[0], outCounts[1]};
        for (int i = 0; i < 3; ++i) vkCmdCopyBuffer(cmd, b[from[i]].buffer, b[ring].buffer, 1, &copied[i]);
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        written.wrote(slot, f.info.frameIndex);
        return {};
    }

private:
    void read(const StatsRecord& rec, uint32_t slot) {
        if (!written.trusted(slot, rec.header)) return;
        stats->valid = true;
        stats->frame = uint64_t(rec.header.frameHi) << 32 | rec.header.frameLo;
        stats->counters = rec.counters;
        stats->early = rec.early;
        stats->late = rec.late;
    }

    ClusterStats* stats = nullptr;
    ReadbackTags written;  // the frame this plugin wrote into each slot of the ring
    uint32_t framesInFlight = 2;
    SlotId counters{}, outCounts[2]{}, ring{};
};

}  // namespace

std::unique_ptr<ClusterStage> makeStatsStage() {
    return std::make_unique<StatsStage>();
}

}  // namespace sieve::cluster
