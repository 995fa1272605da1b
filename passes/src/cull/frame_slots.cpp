// The slots and commands the first stage of a frame and the stream-writing stages share (cull/stage.h):
// the early flag stage starts the frame, the compact stages lay out the streams.
#include <cstring>

#include "core/vk.h"
#include "cull/stage.h"
#include "sieve/barriers.h"

namespace sieve::cull {

namespace {

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
constexpr VkBufferUsageFlags kTransferDst = VK_BUFFER_USAGE_TRANSFER_DST_BIT;

VkDeviceSize alignUp(VkDeviceSize v, VkDeviceSize a) {
    return (v + a - 1) / a * a;
}
VkDeviceSize storageAlignment(const DeviceInfo& dev) {
    return std::max<VkDeviceSize>(dev.limits.minStorageBufferOffsetAlignment, 16);
}

VkDeviceSize uniformAlignment(const DeviceInfo& dev) {
    return std::max<VkDeviceSize>(dev.limits.minUniformBufferOffsetAlignment, 1);
}

// Every view's counter stripes (shared/cull.h CullCounterStripe).
VkDeviceSize counterBytes(const CullingConfig& c) {
    return VkDeviceSize(sizeof(gpu::CullCounterStripe)) * gpu::SIEVE_CULL_COUNTER_STRIPES * c.maxViews;
}
}  // namespace

// The flag passes bind each frame's views and the occlusion camera as uniform buffers, the other stages
// the views and the stream table as storage.
VkDeviceSize StageKit::occlusionOffset() const {
    return alignUp(VkDeviceSize(config_.maxViews) * sizeof(gpu::CullParams), uniformAlignment(dev_));
}

VkDeviceSize StageKit::streamTableOffset() const {
    return alignUp(occlusionOffset() + sizeof(gpu::CullParams), storageAlignment(dev_));
}

VkDeviceSize StageKit::paramsStride() const {
    return alignUp(streamTableOffset() + VkDeviceSize(streams_.size()) * sizeof(gpu::DrawStream),
                   std::max(storageAlignment(dev_), uniformAlignment(dev_)));
}

VkDeviceSize visibilityBytes(const CullingConfig& c) {
    return VkDeviceSize(std::max(c.maxInstances, 1u)) * c.maxViews * 4;
}

void declareFrameSlots(SlotTable& slots, const StageKit& kit) {
    const CullingConfig& c = kit.config();
    const VkDeviceSize n = std::max(c.maxInstances, 1u);
    slots.buffer(kParams, Lifetime::Persistent, kit.paramsStride() * c.framesInFlight,
                 kStorage | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, Memory::Upload);
    // (Transfer source: tests read it back.)
    slots.buffer(kVisibility, Lifetime::Persistent, visibilityBytes(c),
                 kStorage | kTransferDst | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    slots.buffer(kCounters, Lifetime::Transient, counterBytes(c),
                 kStorage | kTransferDst | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    // Exported for debug views (and read back by tests).
    slots.buffer(CullingPlugin::kInstanceState, Lifetime::Transient, n * 4,
                 kStorage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
}

FrameSlots requireFrameSlots(SlotTable& slots) {
    return {slots.require(kParams), slots.require(kVisibility), slots.require(kCounters),
            slots.require(CullingPlugin::kInstanceState)};
}

Result<void> recordFrameStart(VkCommandBuffer cmd, const Bindings& b, const FrameState& f, const StageKit& kit,
                              const FrameSlots& s, const char* pass) {
    auto* dst = static_cast<char*>(b[s.params].mapped);
    if (!dst) return makeError(VK_ERROR_MEMORY_MAP_FAILED, std::string(pass) + ": cull.params is not mapped");
    char* frame = dst + kit.paramsStride() * f.info.frameSlot;
    std::memcpy(frame, f.views.data(), f.views.size() * sizeof(gpu::CullParams));
    std::memcpy(frame + kit.occlusionOffset(), &f.occlusion, sizeof(gpu::CullParams));
    std::memcpy(frame + kit.streamTableOffset(), kit.streams().data(), kit.streams().size_bytes());
    vkCmdFillBuffer(cmd, b[s.counters].buffer, b[s.counters].offset, counterBytes(kit.config()), 0);
    // Last frame's visibility of memory the host just created means nothing: start from none. Only the
    // slot's own bytes: the binding may be a range of a larger buffer.
    if (f.initPersistent)
        vkCmdFillBuffer(cmd, b[s.visibility].buffer, b[s.visibility].offset, visibilityBytes(kit.config()), 0);
    transferToComputeBarrier(cmd);
    return {};
}

BufferRange viewsRange(const Bindings& b, const FrameState& f, const StageKit& kit, SlotId params) {
    return {b[params].buffer, b[params].offset + kit.paramsStride() * f.info.frameSlot,
            f.views.size() * sizeof(gpu::CullParams)};
}

BufferRange occlusionRange(const Bindings& b, const FrameState& f, const StageKit& kit, SlotId params) {
    return {b[params].buffer, b[params].offset + kit.paramsStride() * f.info.frameSlot + kit.occlusionOffset(),
            sizeof(gpu::CullParams)};
}

BufferRange streamTableRange(const Bindings& b, const FrameState& f, const StageKit& kit, SlotId params,
                             uint32_t streams) {
    return {b[params].buffer, b[params].offset + kit.paramsStride() * f.info.frameSlot + kit.streamTableOffset(),
            VkDeviceSize(std::max(streams, 1u)) * sizeof(gpu::DrawStream)};
}

void declareStreamSlots(SlotTable& slots, const StageKit& kit, Phase phase) {
    const VkBufferUsageFlags drawUsage =
        kStorage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    // (Transfer destination: zeroed each frame where the device lacks drawIndirectCount.)
    slots.buffer(phase == Phase::Early ? CullingPlugin::kDrawsEarly : CullingPlugin::kDrawsLate, Lifetime::Transient,
                 std::max<VkDeviceSize>(kit.drawRecords(), 1) * sizeof(gpu::DrawCommand), drawUsage | kTransferDst);
    slots.buffer(phase == Phase::Early ? CullingPlugin::kCountsEarly : CullingPlugin::kCountsLate, Lifetime::Transient,
                 VkDeviceSize(kit.streamCount()) * sizeof(gpu::DrawCounts), drawUsage | kTransferDst);
}

void clearInactiveCounts(VkCommandBuffer cmd, const SlotBinding& counts, uint32_t active, const StageKit& kit) {
    if (active >= kit.streamCount()) return;
    vkCmdFillBuffer(cmd, counts.buffer, counts.offset + VkDeviceSize(active) * sizeof(gpu::DrawCounts),
                    VkDeviceSize(kit.streamCount() - active) * sizeof(gpu::DrawCounts), 0);
    transferToComputeBarrier(cmd);
}

}  // namespace sieve::cull
