#include "gpu_timer.h"

#include <algorithm>

namespace bench {

sieve::Result<TimestampPairs> TimestampPairs::create(engine::Context& ctx, uint32_t pairs) {
    TimestampPairs t;
    t.device_ = ctx.device();
    t.pairs_ = pairs;
    t.periodNs_ = ctx.properties().limits.timestampPeriod;
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = pairs * 2;
    SIEVE_VK_TRY(vkCreateQueryPool(t.device_, &info, nullptr, &t.pool_));
    return t;
}

TimestampPairs::TimestampPairs(TimestampPairs&& o) noexcept
    : device_(o.device_), pool_(o.pool_), pairs_(o.pairs_), periodNs_(o.periodNs_) {
    o.pool_ = VK_NULL_HANDLE;
}

TimestampPairs::~TimestampPairs() {
    if (pool_) vkDestroyQueryPool(device_, pool_, nullptr);
}

void TimestampPairs::reset(VkCommandBuffer cmd) {
    vkCmdResetQueryPool(cmd, pool_, 0, pairs_ * 2);
}

void TimestampPairs::begin(VkCommandBuffer cmd, uint32_t pair) {
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_, pair * 2);
}

void TimestampPairs::end(VkCommandBuffer cmd, uint32_t pair) {
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_, pair * 2 + 1);
}

sieve::Result<std::vector<double>> TimestampPairs::readMicroseconds() {
    std::vector<uint64_t> raw(pairs_ * 2);
    SIEVE_VK_TRY(vkGetQueryPoolResults(device_, pool_, 0, pairs_ * 2, raw.size() * 8, raw.data(), 8,
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    std::vector<double> us(pairs_);
    for (uint32_t i = 0; i < pairs_; ++i) us[i] = double(raw[2 * i + 1] - raw[2 * i]) * periodNs_ / 1000.0;
    return us;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace bench
