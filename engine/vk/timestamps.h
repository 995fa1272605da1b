#pragma once
// GPU time of named scopes from timestamp queries: one query pool per slot (a frame in flight, or 1 for
// one-off submissions), owned here. A slot's recording starts with reset(); begin()/end() bracket each
// scope; read() gives the scopes of the slot's last recording once its work completed (after the slot's
// fence, or waiting). Used by the render graph executor (a scope per pass), the viewer (the overlay),
// sieve-bench (a scope per timed run) and host2 (a scope per pass of its graph).
#include <volk.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sieve/result.h"

namespace engine {

class Context;

class GpuTimestamps {
public:
    struct Scope {
        std::string name;
        double ms = 0;
    };

    // maxScopes per slot; scopes past it in one recording are not timed.
    static sieve::Result<GpuTimestamps> create(Context& ctx, uint32_t maxScopes, uint32_t slots = 1,
                                               const char* debugName = "timestamps");
    GpuTimestamps(GpuTimestamps&& o) noexcept;
    GpuTimestamps& operator=(GpuTimestamps&& o) noexcept;
    GpuTimestamps(const GpuTimestamps&) = delete;
    GpuTimestamps& operator=(const GpuTimestamps&) = delete;
    ~GpuTimestamps();

    // Starts the slot's recording in `cmd` (outside any rendering scope): resets its queries and forgets
    // the scopes of its previous recording.
    void reset(VkCommandBuffer cmd, uint32_t slot = 0);
    // Timestamps around a scope (outside rendering or around whole rendering scopes). Scopes do not nest.
    void begin(VkCommandBuffer cmd, std::string_view name, uint32_t slot = 0,
               VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    void end(VkCommandBuffer cmd, uint32_t slot = 0,
             VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    // The scopes of the slot's last recording, in order. wait = false: VK_NOT_READY while its work has
    // not completed; wait = true blocks until it has (only for work already submitted).
    sieve::Result<std::vector<Scope>> read(uint32_t slot = 0, bool wait = false) const;
    uint32_t slots() const { return uint32_t(slots_.size()); }

private:
    GpuTimestamps() = default;
    void destroy();
    struct Slot {
        VkQueryPool pool = VK_NULL_HANDLE;
        std::vector<std::string> names;  // scopes of the last recording
        bool open = false;
    };
    VkDevice device_ = VK_NULL_HANDLE;
    double nsPerTick_ = 1.0;
    uint64_t validMask_ = ~uint64_t{0};
    uint32_t maxScopes_ = 0;
    std::vector<Slot> slots_;
};

}  // namespace engine
