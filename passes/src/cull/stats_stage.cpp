// Counts of the frame into a readback ring, read framesInFlight frames later without waiting. A record is
// trusted only if this plugin wrote it (the frame it wrote is remembered on the CPU and tagged in the
// record), never because the host's memory happened to look valid.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "core/readback_ring.h"
#include "core/slot_uses.h"
#include "core/vk.h"
#include "cull/stage.h"
#include "shared/cull_bindings.h"
#include "sieve/barriers.h"
#include "sieve/pipeline.h"

namespace sieve::cull {

namespace {

// One frame's record in the readback ring, word by word: the header, CullCounters[maxViews],
// DrawCounts early[streams] and late[streams], then the check's count (16 bytes).
// (core/readback_ring.h: the header's payload is the instance count.)
static_assert(sizeof(gpu::CullCounters) == 4 * gpu::SIEVE_CULL_COUNTER_WORDS && sizeof(gpu::DrawCounts) == 16);
constexpr VkDeviceSize kCounterBytes = sizeof(gpu::CullCounters);

constexpr const char* kStats = "cull.stats";

gpu::DrawCounts add(gpu::DrawCounts a, const gpu::DrawCounts& b) {
    a.count += b.count;
    a.overflow += b.overflow;
    a.total += b.total;
    return a;
}

class StatsStage final : public Stage {
public:
    Result<void> create(StageKit& kit) override {
        auto p = ComputePipeline::create(kit.dev(), {"cull/stats.comp", sizeof(gpu::CullStatsPush)});
        if (!p) return p.error();
        pipeline_ = std::move(p).value();
        stats_ = &kit.stats();
        views_ = kit.config().maxViews;
        bins_ = kit.config().binCount;
        streams_ = kit.streamCount();
        align_ = std::max<VkDeviceSize>(kit.dev().limits.minStorageBufferOffsetAlignment, 16);
        return {};
    }

    void declare(SlotTable& slots, const StageKit& kit) override {
        slots.buffer(kStats, Lifetime::Persistent, recordBytes() * kit.config().framesInFlight,
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, Memory::Readback);
        ring_.assign(kit.config().framesInFlight, Written{});
        tags_.reset(ring_.size());
    }

    PassDesc describe(SlotTable& slots) override {
        counters_ = slots.require(kCounters);
        early_ = slots.require(CullingPlugin::kCountsEarly);
        late_ = slots.require(CullingPlugin::kCountsLate);
        check_ = slots.require(kCheckCount);
        stats_slot_ = slots.require(kStats);
        slots_ = &slots;
        PassDesc d;
        d.name = "cull.stats";
        d.sideEffect = true;
        appendUses(d.uses, bindings());
        return d;
    }

    Result<void> record(VkCommandBuffer cmd, const Bindings& b, const FrameState& f) override {
        const uint32_t slot = f.info.frameSlot;
        if (f.initPersistent) tags_.reset(ring_.size());
        auto* ring = static_cast<const char*>(b[stats_slot_].mapped);
        if (!ring) return makeError(VK_ERROR_MEMORY_MAP_FAILED, "cull.stats: the readback slot is not mapped");
        // Written framesInFlight frames ago; the host waited for that frame's fence before recording this one.
        read(ring + recordBytes() * slot, slot);
        // One dispatch (four copies and an update cost 11.7 us on the H200: bench/RESULTS.md).
        const VkDeviceSize base = b[stats_slot_].offset + recordBytes() * slot;
        const gpu::CullStatsPush push{
            uint32_t(f.info.frameIndex), uint32_t(f.info.frameIndex >> 32), f.instanceCount, views_, streams_, 0, 0, 0};
        auto set = bindSlots<gpu::SIEVE_STATS_BINDINGS>(bindings(), b, *slots_);
        set[gpu::SIEVE_STATS_RING] = Binding::storage({b[stats_slot_].buffer, base, recordBytes()});  // this frame's
        pipeline_.dispatch(cmd, set, push, 1);
        // Make the record visible to the host once the frame's fence is signalled.
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        ring_[slot] = {f.viewInfo, f.check};
        tags_.wrote(slot, f.info.frameIndex);
        return {};
    }

private:
    // What the CPU remembers of the frame recorded into each ring slot.
    struct Written {
        std::vector<CullingViewStats> views;  // names and kinds
        bool check = false;
    };

    // stats.comp's descriptors and their uses (shared/cull_bindings.h).
    std::array<SlotUse, 5> bindings() const {
        return {{{gpu::SIEVE_STATS_COUNTERS, counters_, Access::Read},
                 {gpu::SIEVE_STATS_EARLY, early_, Access::Read},
                 {gpu::SIEVE_STATS_LATE, late_, Access::Read},
                 {gpu::SIEVE_STATS_CHECK, check_, Access::Read},
                 {gpu::SIEVE_STATS_RING, stats_slot_, Access::Write}}};
    }

    // Each record at a storage-buffer offset the device accepts (the dispatch binds it alone).
    VkDeviceSize recordBytes() const {
        const VkDeviceSize bytes = 16 * (2 + 2 * VkDeviceSize(streams_)) + kCounterBytes * views_;
        return (bytes + align_ - 1) / align_ * align_;
    }

    void read(const char* rec, uint32_t slot) {
        ReadbackHeader h;
        std::memcpy(&h, rec, sizeof(h));
        if (!tags_.trusted(slot, h)) return;
        const Written& w = ring_[slot];
        CullingStats& s = *stats_;
        s.valid = true;
        s.frame = uint64_t(h.frameHi) << 32 | h.frameLo;
        s.instances = h.payload;
        s.views = w.views;
        const char* counts = rec + 16 + views_ * kCounterBytes;
        for (size_t v = 0; v < s.views.size(); ++v) {
            CullingViewStats& vs = s.views[v];
            gpu::CullCounters c;
            std::memcpy(&c, rec + 16 + v * kCounterBytes, kCounterBytes);
            vs.frustumVisible = c.frustumVisible;
            vs.earlyDrawn = c.earlyDrawn;
            vs.lateVisible = c.lateVisible;
            vs.lateDrawn = c.lateDrawn;
            // What each test removed, by the first test that culls (kCullTests order): the GPU counts only
            // what cannot be derived. Frustum: every instance not in the frustum (and, for a view with an
            // instance mask, not of its kinds).
            const uint32_t inFrustum = c.frustumVisible + c.distanceCulled;
            vs.culled[gpu::SIEVE_TEST_FRUSTUM] = h.payload > inFrustum ? h.payload - inFrustum : 0u;
            vs.culled[gpu::SIEVE_TEST_DISTANCE] = c.distanceCulled;
            vs.culled[gpu::SIEVE_TEST_OCCLUSION] = c.frustumVisible - std::min(c.lateVisible, c.frustumVisible);
            vs.early.assign(bins_, {});
            vs.late.assign(bins_, {});
            std::memcpy(vs.early.data(), counts + v * bins_ * 16, bins_ * 16);
            std::memcpy(vs.late.data(), counts + (streams_ + v * bins_) * 16, bins_ * 16);
        }
        const CullingViewStats& main = s.views.front();
        s.frustumVisible = main.frustumVisible;
        s.earlyDrawn = main.earlyDrawn;
        s.lateVisible = main.lateVisible;
        s.lateDrawn = main.lateDrawn;
        s.early = s.late = {};
        for (uint32_t bin = 0; bin < bins_; ++bin) {
            s.early = add(s.early, main.early[bin]);
            s.late = add(s.late, main.late[bin]);
        }
        s.falselyCulledValid = w.check;
        std::memcpy(&s.falselyCulled, counts + 2 * streams_ * 16, 4);
        if (!w.check) s.falselyCulled = 0;
    }

    ComputePipeline pipeline_;
    const SlotTable* slots_ = nullptr;
    CullingStats* stats_ = nullptr;
    uint32_t views_ = 1, bins_ = 1, streams_ = 1;
    VkDeviceSize align_ = 16;
    std::vector<Written> ring_;
    ReadbackTags tags_;
    SlotId counters_{}, early_{}, late_{}, check_{}, stats_slot_{};
};

}  // namespace

std::unique_ptr<Stage> makeStatsStage() {
    return std::make_unique<StatsStage>();
}

}  // namespace sieve::cull
