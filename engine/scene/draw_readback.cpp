#include "engine/scene/draw_readback.h"

#include <algorithm>
#include <cstring>

#include "sieve/barriers.h"

namespace engine {

namespace {

using sieve::gpu::DrawCommand;
using sieve::gpu::DrawCounts;

// Host buffer layout: the counts of every (phase, stream), then the records of each (phase, stream) in
// the same order.
VkDeviceSize countsBytes(size_t streams) {
    return 2 * streams * sizeof(DrawCounts);
}

}  // namespace

uint64_t streamTriangles(std::span<const DrawCommand> list, const DrawCounts& counts) {
    uint64_t sum = 0;
    const size_t n = std::min<size_t>(counts.count, list.size());
    for (size_t i = 0; i < n; ++i) sum += uint64_t(list[i].indexCount / 3) * list[i].instanceCount;
    return sum;
}

DrawReadback::DrawReadback(Context& ctx, std::vector<sieve::StreamRange> streams, uint32_t framesInFlight)
    : ctx_(&ctx), streams_(std::move(streams)), slots_(framesInFlight) {
    for (const sieve::StreamRange& r : streams_) capacity_ += 2 * uint64_t(r.maxDraws);
}

sieve::Result<void> DrawReadback::arm(bool on) {
    if (on)
        for (Slot& s : slots_) {
            if (s.buffer) continue;
            auto b = Buffer::create(*ctx_, countsBytes(streams_.size()) + capacity_ * sizeof(DrawCommand),
                                    VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback, "readback.draws");
            if (!b) return b.error();
            s.buffer = std::move(b).value();
        }
    armed_ = on;
    return {};
}

sieve::PassDesc DrawReadback::describe(sieve::SlotId drawsEarly, sieve::SlotId countsEarly, sieve::SlotId drawsLate,
                                       sieve::SlotId countsLate) {
    drawsEarly_ = drawsEarly, countsEarly_ = countsEarly, drawsLate_ = drawsLate, countsLate_ = countsLate;
    using namespace sieve::use;
    sieve::PassDesc d;
    d.name = "readback.draws";
    d.sideEffect = true;
    d.uses = {transferRead(drawsEarly), transferRead(countsEarly), transferRead(drawsLate), transferRead(countsLate)};
    return d;
}

void DrawReadback::record(VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo& frame) {
    if (frame.frameSlot >= slots_.size()) return;
    Slot& s = slots_[frame.frameSlot];
    s.frame.reset();
    if (!armed_ || !s.buffer) return;
    VkDeviceSize recordsAt = countsBytes(streams_.size());
    for (int late = 0; late < 2; ++late) {
        const sieve::SlotBinding& draws = b[late ? drawsLate_ : drawsEarly_];
        const sieve::SlotBinding& counts = b[late ? countsLate_ : countsEarly_];
        for (size_t k = 0; k < streams_.size(); ++k) {
            const sieve::StreamRange& r = streams_[k];
            const VkBufferCopy c{counts.offset + r.countOffset, (late * streams_.size() + k) * sizeof(DrawCounts),
                                 sizeof(DrawCounts)};
            vkCmdCopyBuffer(cmd, counts.buffer, s.buffer.handle(), 1, &c);
            const VkDeviceSize bytes = VkDeviceSize(r.maxDraws) * sizeof(DrawCommand);
            if (bytes > 0) {
                const VkBufferCopy d{draws.offset + r.drawOffset, recordsAt, bytes};
                vkCmdCopyBuffer(cmd, draws.buffer, s.buffer.handle(), 1, &d);
            }
            recordsAt += bytes;
        }
    }
    s.written(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, frame.frameIndex);
}

std::optional<DrawReadback::Frame> DrawReadback::read(uint32_t frameSlot) const {
    Frame f;
    const uint8_t* bytes = readbackBytes(slots_, frameSlot, f.frameIndex);
    if (!bytes) return std::nullopt;
    const size_t n = streams_.size();
    std::vector<DrawCounts> counts(2 * n);
    std::memcpy(counts.data(), bytes, countsBytes(n));
    const auto* records = reinterpret_cast<const DrawCommand*>(bytes + countsBytes(n));
    for (size_t k = 0; k < 2 * n; ++k) {
        const uint32_t capacity = streams_[k % n].maxDraws;
        f.triangles += streamTriangles({records, capacity}, counts[k]);
        f.draws += std::min(counts[k].count, capacity);
        records += capacity;
    }
    return f;
}

void TriangleHistory::add(const FrameTriangles& f) {
    std::erase_if(entries_, [&](const FrameTriangles& e) { return e.frameIndex == f.frameIndex; });
    entries_.push_back(f);
    if (entries_.size() > depth_) entries_.erase(entries_.begin());
}

std::optional<FrameTriangles> TriangleHistory::find(uint64_t frameIndex) const {
    for (const FrameTriangles& e : entries_)
        if (e.frameIndex == frameIndex) return e;
    return std::nullopt;
}

std::optional<FrameTriangles> TriangleHistory::latest() const {
    if (entries_.empty()) return std::nullopt;
    return entries_.back();
}

}  // namespace engine
