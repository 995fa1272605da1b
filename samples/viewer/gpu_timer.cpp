#include "gpu_timer.h"

#include "engine/vk/context.h"

namespace viewer {

sieve::Result<std::unique_ptr<GpuTimer>> GpuTimer::create(engine::Context& ctx, uint32_t framesInFlight,
                                                          uint32_t maxScopes) {
    std::unique_ptr<GpuTimer> t(new GpuTimer());
    t->device_ = ctx.device();
    t->nsPerTick_ = ctx.properties().limits.timestampPeriod;
    t->maxScopes_ = maxScopes;
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical(), &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical(), &count, families.data());
    const uint32_t bits = families[ctx.queueFamily()].timestampValidBits;
    t->validMask_ = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
    t->slots_.resize(framesInFlight);
    for (Slot& s : t->slots_) {
        VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        info.queryType = VK_QUERY_TYPE_TIMESTAMP;
        info.queryCount = maxScopes * 2;
        SIEVE_VK_TRY(vkCreateQueryPool(ctx.device(), &info, nullptr, &s.pool));
        vkResetQueryPool(ctx.device(), s.pool, 0, info.queryCount);  // hostQueryReset (required feature)
    }
    return t;
}

GpuTimer::~GpuTimer() {
    for (Slot& s : slots_)
        if (s.pool) vkDestroyQueryPool(device_, s.pool, nullptr);
}

void GpuTimer::collect(uint32_t slot, engine::ui::PassTimings& out) {
    Slot& s = slots_[slot];
    if (s.names.empty()) return;
    std::vector<uint64_t> ticks(s.names.size() * 2 * 2);  // value + availability per query
    // The slot's fence has been waited: every query is available, no WAIT flag needed.
    VkResult r = vkGetQueryPoolResults(device_, s.pool, 0, uint32_t(s.names.size() * 2), ticks.size() * 8, ticks.data(),
                                       16, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
    if (r == VK_SUCCESS || r == VK_NOT_READY)
        for (size_t i = 0; i < s.names.size(); ++i) {
            const uint64_t t0 = ticks[i * 4], a0 = ticks[i * 4 + 1], t1 = ticks[i * 4 + 2], a1 = ticks[i * 4 + 3];
            if (!a0 || !a1) continue;
            const uint64_t delta = (t1 - t0) & validMask_;
            out.add(s.names[i], float(double(delta) * nsPerTick_ * 1e-6));
        }
    vkResetQueryPool(device_, s.pool, 0, uint32_t(s.names.size() * 2));
    s.names.clear();
}

void GpuTimer::begin(VkCommandBuffer cmd, uint32_t slot, const char* name) {
    Slot& s = slots_[slot];
    if (s.open || s.names.size() >= maxScopes_) return;
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, s.pool, uint32_t(s.names.size() * 2));
    s.names.push_back(name);
    s.open = true;
}

void GpuTimer::end(VkCommandBuffer cmd, uint32_t slot) {
    Slot& s = slots_[slot];
    if (!s.open) return;
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, s.pool, uint32_t(s.names.size() * 2 - 1));
    s.open = false;
}

}  // namespace viewer
