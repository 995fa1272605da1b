#include "command_count.h"

#include "core/vk.h"

namespace bench {

namespace {

uint32_t g_dispatches = 0, g_barriers = 0;
sieve::detail::DeviceTable g_original;  // the device's table before the counter replaced it

VKAPI_ATTR void VKAPI_CALL countDispatch(VkCommandBuffer cmd, uint32_t x, uint32_t y, uint32_t z) {
    ++g_dispatches;
    g_original.vkCmdDispatch(cmd, x, y, z);
}
VKAPI_ATTR void VKAPI_CALL countDispatchIndirect(VkCommandBuffer cmd, VkBuffer buffer, VkDeviceSize offset) {
    ++g_dispatches;
    g_original.vkCmdDispatchIndirect(cmd, buffer, offset);
}
VKAPI_ATTR void VKAPI_CALL countBarrier(VkCommandBuffer cmd, const VkDependencyInfo* dep) {
    ++g_barriers;
    g_original.vkCmdPipelineBarrier2(cmd, dep);
}

}  // namespace

CommandCount::CommandCount(VkDevice device) : device_(device) {
    g_dispatches = g_barriers = 0;
    g_original = sieve::detail::deviceFunctions(device);
    sieve::detail::DeviceTable counting = g_original;
    counting.vkCmdDispatch = countDispatch;
    counting.vkCmdDispatchIndirect = countDispatchIndirect;
    counting.vkCmdPipelineBarrier2 = countBarrier;
    (void)sieve::detail::replaceDeviceFunctions(device, counting);
}

CommandCount::~CommandCount() {
    (void)sieve::detail::replaceDeviceFunctions(device_, g_original);
}

uint32_t CommandCount::dispatches() const {
    return g_dispatches;
}
uint32_t CommandCount::barriers() const {
    return g_barriers;
}

}  // namespace bench
