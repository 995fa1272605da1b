// A host of the installed plugin: creates its own Vulkan device (host.cpp), hands it to Sieve, fills a
// buffer with a ComputePipeline built from the plugin's embedded SPIR-V, scans it with the plugin's
// exclusive scan, and checks every offset, the total and the guard words after the output; then
// creates the culling plugin on the same device.
#include <cstdio>

#include "host.h"
#include "sieve/sieve.h"

namespace {

constexpr uint32_t kCount = 50000;  // crosses several scan tiles and leaves the total below 2^32
constexpr uint32_t kGuardWords = 16;
constexpr uint32_t kGuard = 0xdeadbeefu;

// Writes of the previous command (compute shaders, transfers) become visible to the next compute reads.
void barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess) {
    VkMemoryBarrier2 b{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    b.srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT;
    b.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT;
    b.dstStageMask = dstStage;
    b.dstAccessMask = dstAccess;
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.memoryBarrierCount = 1;
    dep.pMemoryBarriers = &b;
    vkCmdPipelineBarrier2(cmd, &dep);
}

int fails(const char* what) {
    std::fprintf(stderr, "sieve_consumer: %s\n", what);
    return 1;
}

}  // namespace

int main() {
    host::Device device;
    const sieve::DeviceInfo info = sieve::describeDevice(device.physical(), device.device());
    std::printf("subgroup size %u, validation %s\n", info.subgroupSize, device.validation() ? "on" : "off");
    if (sieve::embeddedSpirv("prim/scan_tile.comp").empty()) return fails("no embedded SPIR-V in libsieve");

    // in[i] = i, written by the plugin's test shader through the public ComputePipeline API.
    auto fill = sieve::ComputePipeline::create(info, {.shader = "test/fill.comp", .pushConstantBytes = 8});
    if (!fill) return fails(fill.error().message.c_str());
    auto scan = sieve::prim::Scan::create(info);
    if (!scan) return fails(scan.error().message.c_str());
    std::printf("scan tier %s, tile %u\n", sieve::prim::tierName(scan->tier()), scan->tileSize());

    host::Buffer input(device, kCount * 4);
    host::Buffer output(device, (kCount + kGuardWords) * 4);
    host::Buffer total(device, 4 * 4);
    host::Buffer scratch(device, scan->scratchBytes(kCount) + 4);
    for (uint32_t i = 0; i < kCount + kGuardWords; ++i) output.words()[i] = kGuard;
    for (uint32_t i = 0; i < 4; ++i) total.words()[i] = kGuard;

    const uint64_t expectTotal = uint64_t(kCount) * (kCount - 1) / 2;
    sieve::Result<void> recorded;
    device.submitAndWait([&](VkCommandBuffer cmd) {
        struct {
            uint32_t count, value;
        } push{kCount, 0};
        fill->dispatchLinear(cmd, {sieve::Binding::storage({input.handle(), 0, kCount * 4})}, push,
                             fill->groupsFor(kCount));
        barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
        const sieve::prim::ScanBuffers buffers{.input = {input.handle(), 0, kCount * 4},
                                               .output = {output.handle(), 0, kCount * 4},
                                               .total = {total.handle(), 4, 4},
                                               .scratch = {scratch.handle(), 0, scratch.size()}};
        recorded = scan->record(cmd, buffers, kCount, sieve::prim::SumBound::total(expectTotal));
        barrier(cmd, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    });
    if (!recorded) return fails(recorded.error().message.c_str());

    uint64_t sum = 0;
    for (uint32_t i = 0; i < kCount; ++i) {
        if (output.words()[i] != uint32_t(sum)) {
            std::fprintf(stderr, "offset %u: got %u, want %llu\n", i, output.words()[i], (unsigned long long)sum);
            return 1;
        }
        sum += i;
    }
    for (uint32_t i = kCount; i < kCount + kGuardWords; ++i)
        if (output.words()[i] != kGuard) return fails("the scan wrote past its output");
    if (total.words()[1] != expectTotal) return fails("wrong total");
    if (total.words()[0] != kGuard || total.words()[2] != kGuard) return fails("the scan wrote beside its total");
    std::printf("scan of %u values ok, total %u\n", kCount, total.words()[1]);

    // The culling plugin itself (its passes run inside a host's render graph, which this program does
    // not have): it must create its pipelines on this device and describe itself.
    auto culling = sieve::CullingPlugin::create(info, {.maxInstances = 1024, .viewport = {64, 64}});
    if (!culling) return fails(culling.error().message.c_str());
    const sieve::CullingPlugin& plugin = **culling;
    if (plugin.passes().size() != sieve::CullingPlugin::kPassCount) return fails("culling: wrong pass count");
    for (const char* slot : {sieve::CullingPlugin::kInstances, sieve::CullingPlugin::kDepth,
                             sieve::CullingPlugin::kDrawsEarly, sieve::CullingPlugin::kCountsLate})
        if (plugin.slot(slot) == sieve::kNoSlot) return fails("culling: a documented slot is missing");
    std::printf("culling plugin: %zu slots, %zu passes, %u draw records\n", plugin.slots().size(),
                plugin.passes().size(), plugin.drawCapacity());

    if (host::Device::validationMessages() != 0) return fails("validation messages");
    std::printf("sieve_consumer: ok\n");
    return 0;
}
