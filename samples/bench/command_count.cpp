#include "command_count.h"

#include <volk.h>

#include "core/vk.h"

namespace bench {

namespace {

uint32_t g_dispatches = 0, g_barriers = 0;
PFN_vkCmdDispatch g_dispatch = nullptr;
PFN_vkCmdDispatchIndirect g_dispatchIndirect = nullptr;
PFN_vkCmdPipelineBarrier2 g_barrier = nullptr;

VKAPI_ATTR void VKAPI_CALL countDispatch(VkCommandBuffer cmd, uint32_t x, uint32_t y, uint32_t z) {
    ++g_dispatches;
    g_dispatch(cmd, x, y, z);
}
VKAPI_ATTR void VKAPI_CALL countDispatchIndirect(VkCommandBuffer cmd, VkBuffer buffer, VkDeviceSize offset) {
    ++g_dispatches;
    g_dispatchIndirect(cmd, buffer, offset);
}
VKAPI_ATTR void VKAPI_CALL countBarrier(VkCommandBuffer cmd, const VkDependencyInfo* dep) {
    ++g_barriers;
    g_barrier(cmd, dep);
}

}  // namespace

CommandCount::CommandCount() {
    g_dispatches = g_barriers = 0;
    g_dispatch = sieve::vkCmdDispatch;
    g_dispatchIndirect = sieve::vkCmdDispatchIndirect;
    g_barrier = sieve::vkCmdPipelineBarrier2;
    sieve::vkCmdDispatch = countDispatch;
    sieve::vkCmdDispatchIndirect = countDispatchIndirect;
    sieve::vkCmdPipelineBarrier2 = countBarrier;
}

CommandCount::~CommandCount() {
    sieve::vkCmdDispatch = g_dispatch;
    sieve::vkCmdDispatchIndirect = g_dispatchIndirect;
    sieve::vkCmdPipelineBarrier2 = g_barrier;
}

uint32_t CommandCount::dispatches() const {
    return g_dispatches;
}
uint32_t CommandCount::barriers() const {
    return g_barriers;
}

}  // namespace bench
