#pragma once
// GPU time of named scopes with timestamp queries, one query pool per frame in flight. Results are read
// after the slot's fence was waited (Target::beginFrame), so reading never blocks.
#include <volk.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/ui/frame_stats.h"
#include "sieve/result.h"

namespace engine {
class Context;
}

namespace viewer {

class GpuTimer {
public:
    static sieve::Result<std::unique_ptr<GpuTimer>> create(engine::Context& ctx, uint32_t framesInFlight,
                                                           uint32_t maxScopes);
    ~GpuTimer();
    // After the slot's fence wait: adds the slot's previous results to `out`, then resets its queries.
    void collect(uint32_t slot, engine::ui::PassTimings& out);
    // Timestamps around a scope of `cmd` (recorded in frame slot `slot`). Scopes past maxScopes are not timed.
    void begin(VkCommandBuffer cmd, uint32_t slot, const char* name);
    void end(VkCommandBuffer cmd, uint32_t slot);

private:
    GpuTimer() = default;
    struct Slot {
        VkQueryPool pool = VK_NULL_HANDLE;
        std::vector<std::string> names;  // scopes recorded in the slot's last frame
        bool open = false;
    };
    VkDevice device_ = VK_NULL_HANDLE;
    double nsPerTick_ = 1.0;
    uint64_t validMask_ = ~0ull;
    uint32_t maxScopes_ = 0;
    std::vector<Slot> slots_;
};

}  // namespace viewer
