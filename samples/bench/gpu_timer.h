#pragma once
// GPU time of recorded work from timestamp queries: pairs of timestamps around each run, read after
// the submission completes, converted with timestampPeriod.
#include <volk.h>

#include <cstdint>
#include <vector>

#include "engine/vk/context.h"

namespace bench {

class TimestampPairs {
public:
    static sieve::Result<TimestampPairs> create(engine::Context& ctx, uint32_t pairs);
    ~TimestampPairs();
    TimestampPairs(TimestampPairs&& o) noexcept;
    TimestampPairs& operator=(TimestampPairs&&) = delete;
    TimestampPairs(const TimestampPairs&) = delete;

    void reset(VkCommandBuffer cmd);  // before the first begin() of a submission
    void begin(VkCommandBuffer cmd, uint32_t pair);
    void end(VkCommandBuffer cmd, uint32_t pair);
    // Microseconds per pair, after the submission completed.
    sieve::Result<std::vector<double>> readMicroseconds();

private:
    TimestampPairs() = default;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueryPool pool_ = VK_NULL_HANDLE;
    uint32_t pairs_ = 0;
    double periodNs_ = 1;
};

double median(std::vector<double> v);

}  // namespace bench
