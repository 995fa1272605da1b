#pragma once
// Counts the dispatches and pipeline barriers the plugin records, so that the zero-work dispatch-chain
// peer has exactly the subject's shape (its fixed cost: dispatch launch and barrier drain, no bytes).
// While a CommandCount is alive, the plugin's entry points for `device` (sieve::vkCmdDispatch, ...;
// passes/src/core/vk.h) are wrapped by counting ones; the host's (volk) calls are not counted. One at a
// time; bench-only.
#include <volk.h>

#include <cstdint>

namespace bench {

class CommandCount {
public:
    explicit CommandCount(VkDevice device);
    ~CommandCount();
    CommandCount(const CommandCount&) = delete;
    CommandCount& operator=(const CommandCount&) = delete;
    uint32_t dispatches() const;
    uint32_t barriers() const;

private:
    VkDevice device_;
};

}  // namespace bench
