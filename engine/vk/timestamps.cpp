#include "engine/vk/timestamps.h"

#include <utility>

#include "engine/vk/context.h"
#include "sieve/gpu.h"

namespace engine {

sieve::Result<GpuTimestamps> GpuTimestamps::create(Context& ctx, uint32_t maxScopes, uint32_t slots,
                                                   const char* debugName) {
    if (maxScopes == 0 || slots == 0)
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "GpuTimestamps: no scopes or no slots");
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical(), &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical(), &count, families.data());
    const uint32_t bits = families.at(ctx.queueFamily()).timestampValidBits;
    if (bits == 0) return sieve::makeError(VK_ERROR_FEATURE_NOT_PRESENT, "the queue has no timestamps");
    GpuTimestamps t;
    t.device_ = ctx.device();
    t.nsPerTick_ = ctx.properties().limits.timestampPeriod;
    t.validMask_ = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    t.maxScopes_ = maxScopes;
    t.slots_.resize(slots);
    for (Slot& s : t.slots_) {
        VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        info.queryType = VK_QUERY_TYPE_TIMESTAMP;
        info.queryCount = maxScopes * 2;
        SIEVE_VK_TRY(vkCreateQueryPool(t.device_, &info, nullptr, &s.pool));
        // Reset on the host now (hostQueryReset): a pool is never in an undefined state.
        vkResetQueryPool(t.device_, s.pool, 0, info.queryCount);
        sieve::setDebugName(ctx.info(), VK_OBJECT_TYPE_QUERY_POOL, s.pool, debugName);
    }
    return t;
}

GpuTimestamps::GpuTimestamps(GpuTimestamps&& o) noexcept
    : device_(o.device_),
      nsPerTick_(o.nsPerTick_),
      validMask_(o.validMask_),
      maxScopes_(o.maxScopes_),
      slots_(std::exchange(o.slots_, {})) {}

GpuTimestamps& GpuTimestamps::operator=(GpuTimestamps&& o) noexcept {
    if (this != &o) {
        destroy();
        device_ = o.device_;
        nsPerTick_ = o.nsPerTick_;
        validMask_ = o.validMask_;
        maxScopes_ = o.maxScopes_;
        slots_ = std::exchange(o.slots_, {});
    }
    return *this;
}

GpuTimestamps::~GpuTimestamps() {
    destroy();
}

void GpuTimestamps::destroy() {
    for (Slot& s : slots_)
        if (s.pool) vkDestroyQueryPool(device_, s.pool, nullptr);
    slots_.clear();
}

void GpuTimestamps::reset(VkCommandBuffer cmd, uint32_t slot) {
    Slot& s = slots_.at(slot);
    vkCmdResetQueryPool(cmd, s.pool, 0, maxScopes_ * 2);
    s.names.clear();
    s.open = false;
}

void GpuTimestamps::begin(VkCommandBuffer cmd, std::string_view name, uint32_t slot, VkPipelineStageFlags2 stage) {
    Slot& s = slots_.at(slot);
    if (s.open || s.names.size() >= maxScopes_) return;
    vkCmdWriteTimestamp2(cmd, stage, s.pool, uint32_t(s.names.size() * 2));
    s.names.emplace_back(name);
    s.open = true;
}

void GpuTimestamps::end(VkCommandBuffer cmd, uint32_t slot, VkPipelineStageFlags2 stage) {
    Slot& s = slots_.at(slot);
    if (!s.open) return;
    vkCmdWriteTimestamp2(cmd, stage, s.pool, uint32_t(s.names.size() * 2 - 1));
    s.open = false;
}

sieve::Result<std::vector<GpuTimestamps::Scope>> GpuTimestamps::read(uint32_t slot, bool wait) const {
    const Slot& s = slots_.at(slot);
    // A scope left open has no end timestamp: only closed ones are read.
    const uint32_t closed = uint32_t(s.names.size()) - (s.open ? 1 : 0);
    std::vector<Scope> out;
    if (closed == 0) return out;
    std::vector<uint64_t> ticks(size_t(closed) * 2);
    const VkQueryResultFlags flags = VK_QUERY_RESULT_64_BIT | (wait ? VK_QUERY_RESULT_WAIT_BIT : 0);
    const VkResult r = vkGetQueryPoolResults(device_, s.pool, 0, closed * 2, ticks.size() * sizeof(uint64_t),
                                             ticks.data(), sizeof(uint64_t), flags);
    if (r != VK_SUCCESS) return sieve::makeError(r, "timestamps not available");  // VK_NOT_READY: not finished
    out.reserve(closed);
    for (uint32_t i = 0; i < closed; ++i) {
        const uint64_t delta = ((ticks[2 * i + 1] & validMask_) - (ticks[2 * i] & validMask_)) & validMask_;
        out.push_back({s.names[i], double(delta) * nsPerTick_ * 1e-6});
    }
    return out;
}

}  // namespace engine
