#include "engine/scene/draw_readback.h"

#include <algorithm>
#include <cstring>

#include "sieve/barriers.h"

namespace engine {

namespace {

using sieve::gpu::DrawCommand;
using sieve::gpu::DrawCounts;

// Host buffer layout: counts early, counts late, then the early list and the late list.
VkDeviceSize listOffset(bool late, uint32_t capacity) {
    return 2 * sizeof(DrawCounts) + (late ? VkDeviceSize(capacity) * sizeof(DrawCommand) : 0);
}

uint64_t listTriangles(std::span<const DrawCommand> list, const DrawCounts& counts) {
    uint64_t sum = 0;
    const size_t n = std::min<size_t>(counts.count, list.size());
    for (size_t i = 0; i < n; ++i) sum += uint64_t(list[i].indexCount / 3) * list[i].instanceCount;
    return sum;
}

}  // namespace

uint64_t drawnTriangles(std::span<const DrawCommand> early, const DrawCounts& earlyCounts,
                        std::span<const DrawCommand> late, const DrawCounts& lateCounts) {
    return listTriangles(early, earlyCounts) + listTriangles(late, lateCounts);
}

sieve::Result<void> DrawReadback::arm(bool on) {
    if (on)
        for (Slot& s : slots_) {
            if (s.buffer) continue;
            auto b = Buffer::create(*ctx_, listOffset(true, capacity_) + VkDeviceSize(capacity_) * sizeof(DrawCommand),
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
    const sieve::SlotBinding& de = b[drawsEarly_];
    const sieve::SlotBinding& ce = b[countsEarly_];
    const sieve::SlotBinding& dl = b[drawsLate_];
    const sieve::SlotBinding& cl = b[countsLate_];
    const VkDeviceSize listBytes = VkDeviceSize(capacity_) * sizeof(DrawCommand);
    const VkBufferCopy counts[2] = {{ce.offset, 0, sizeof(DrawCounts)},
                                    {cl.offset, sizeof(DrawCounts), sizeof(DrawCounts)}};
    vkCmdCopyBuffer(cmd, ce.buffer, s.buffer.handle(), 1, &counts[0]);
    vkCmdCopyBuffer(cmd, cl.buffer, s.buffer.handle(), 1, &counts[1]);
    if (listBytes > 0) {
        const VkBufferCopy early{de.offset, listOffset(false, capacity_), std::min(listBytes, de.size)};
        const VkBufferCopy late{dl.offset, listOffset(true, capacity_), std::min(listBytes, dl.size)};
        vkCmdCopyBuffer(cmd, de.buffer, s.buffer.handle(), 1, &early);
        vkCmdCopyBuffer(cmd, dl.buffer, s.buffer.handle(), 1, &late);
    }
    sieve::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    s.frame = frame.frameIndex;
}

std::optional<DrawReadback::Frame> DrawReadback::read(uint32_t frameSlot) const {
    if (frameSlot >= slots_.size() || !slots_[frameSlot].frame) return std::nullopt;
    const Slot& s = slots_[frameSlot];
    const auto* bytes = static_cast<const uint8_t*>(s.buffer.mapped());
    if (!bytes) return std::nullopt;
    DrawCounts counts[2];
    std::memcpy(counts, bytes, sizeof(counts));
    const auto* early = reinterpret_cast<const DrawCommand*>(bytes + listOffset(false, capacity_));
    const auto* late = reinterpret_cast<const DrawCommand*>(bytes + listOffset(true, capacity_));
    Frame f;
    f.frameIndex = *s.frame;
    f.triangles = drawnTriangles({early, capacity_}, counts[0], {late, capacity_}, counts[1]);
    f.draws = std::min(counts[0].count, capacity_) + std::min(counts[1].count, capacity_);
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
