#include "prim/common.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <vector>

#include "sieve/barriers.h"
#include "sieve/pipeline.h"

namespace sieve::prim {

namespace {
std::atomic<uint64_t> g_maxBindingBytes{0};
}

void overrideMaxBindingBytes(uint64_t bytes) {
    g_maxBindingBytes = bytes;
}

const char* tierName(ScanTier tier) {
    switch (tier) {
        case ScanTier::Auto: return "auto";
        case ScanTier::Multilevel: return "a-multilevel";
        case ScanTier::Subgroup: return "b-subgroup";
        case ScanTier::SinglePass: return "c-single-pass";
    }
    return "?";
}

namespace detail {

Result<Tiles> resolveTiles(const DeviceInfo& dev, const PrimOptions& o, bool wantSubgroups) {
    Tiles t;
    // A valid size the device cannot run (above its limits; the Vulkan minimum is 128 invocations) is
    // lowered to the largest power of two it can, not rejected: the default 256 must work everywhere.
    t.workgroup = std::has_single_bit(o.workgroupSize) && o.workgroupSize >= 32 && o.workgroupSize <= 1024
                      ? std::max(fittedGroupSize(dev, o.workgroupSize), 32u)
                      : o.workgroupSize;
    t.vectors = o.vectorsPerThread;
    // The subgroup scans keep one shared entry per subgroup, WG / 4 of them (shaders/prim/workgroup_scan.glsl),
    // and count a subgroup's active invocations by ballot: a device whose subgroups can be smaller than 4, or
    // without ballots, takes the shared-memory scan.
    t.subgroups =
        wantSubgroups && o.subgroups && dev.subgroupArithmetic && dev.subgroupBallot && dev.minSubgroupSize >= 4;
    if (!std::has_single_bit(t.workgroup) || t.workgroup < 32 || t.workgroup > 1024 ||
        t.workgroup > dev.limits.maxComputeWorkGroupInvocations || t.workgroup > dev.limits.maxComputeWorkGroupSize[0])
        return makeError(VK_ERROR_INITIALIZATION_FAILED,
                         "prim: workgroup size " + std::to_string(t.workgroup) +
                             " must be a power of two in 32..1024 within the device limits");
    // A workgroup smaller than the subgroup size is one partial subgroup: the shared-memory scan serves it.
    if (t.workgroup < dev.subgroupSize) t.subgroups = false;
    if (t.vectors < 1 || t.vectors > 4)
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "prim: vectorsPerThread must be 1..4");
    return t;
}

uint64_t storageAlignment(const DeviceInfo& dev) {
    return std::max<uint64_t>(dev.limits.minStorageBufferOffsetAlignment, 16);
}

uint64_t maxBindingBytes(const DeviceInfo& dev) {
    uint64_t limit = dev.limits.maxStorageBufferRange;
    if (uint64_t o = g_maxBindingBytes.load()) limit = std::min(limit, o);
    return limit;
}

uint64_t chunkElements(const DeviceInfo& dev, uint64_t bytesPerElement, uint64_t granule) {
    uint64_t n = maxBindingBytes(dev) / bytesPerElement / granule * granule;
    return std::max<uint64_t>(n, granule);
}

Word wordAt(const DeviceInfo& dev, BufferRange r, VkDeviceSize byteOffset) {
    const VkDeviceSize at = r.offset + byteOffset;
    const VkDeviceSize aligned = at / storageAlignment(dev) * storageAlignment(dev);
    return {Binding::storage({r.buffer, aligned, at - aligned + 4}), uint32_t((at - aligned) / 4)};
}

Result<void> checkArray(const DeviceInfo& dev, const BufferRange& r, uint64_t bytes, const char* what) {
    if (r.buffer == VK_NULL_HANDLE) return makeError(VK_ERROR_UNKNOWN, std::string("prim: no buffer for ") + what);
    if (r.offset % storageAlignment(dev) != 0)
        return makeError(VK_ERROR_UNKNOWN, std::string("prim: ") + what + " offset " + std::to_string(r.offset) +
                                               " is not a multiple of " + std::to_string(storageAlignment(dev)));
    if (r.size != VK_WHOLE_SIZE && r.size < bytes)
        return makeError(VK_ERROR_UNKNOWN, std::string("prim: ") + what + " range holds " + std::to_string(r.size) +
                                               " bytes, needs " + std::to_string(bytes));
    return {};
}

Result<void> checkWord(const BufferRange& r, const char* what) {
    if (r.buffer == VK_NULL_HANDLE) return makeError(VK_ERROR_UNKNOWN, std::string("prim: no buffer for ") + what);
    if (r.offset % 4 != 0 || (r.size != VK_WHOLE_SIZE && r.size < 4))
        return makeError(VK_ERROR_UNKNOWN, std::string("prim: ") + what + " must be 4 aligned bytes");
    return {};
}

void computeBarrier(VkCommandBuffer cmd) {
    computeToComputeBarrier(cmd);
}

Result<ComputePipeline> makePipeline(const DeviceInfo& dev, const char* shader, uint32_t pushBytes, const Tiles& tiles,
                                     std::initializer_list<uint32_t> extra) {
    std::vector<uint32_t> spec;
    for (uint32_t v : tiles.spec()) spec.push_back(v);
    spec.insert(spec.end(), extra.begin(), extra.end());
    ComputePipelineDesc desc;
    desc.shader = shader;
    desc.pushConstantBytes = pushBytes;
    desc.specialization = spec;
    return ComputePipeline::create(dev, desc);
}

Result<Clear> Clear::create(const DeviceInfo& dev) {
    Clear c;
    auto p = ComputePipeline::create(dev, {"prim/clear.comp", sizeof(gpu::ClearPush)});
    if (!p) return p.error();
    c.pipe_ = std::move(p).value();
    return c;
}

void Clear::record(VkCommandBuffer cmd, Binding dst, uint32_t first, uint32_t count, uint32_t value) const {
    pipe_.dispatchLinear(cmd, bindingsAt<gpu::SIEVE_CLEAR_BINDINGS>({bindAt(gpu::SIEVE_CLEAR_DST, dst)}),
                         gpu::ClearPush{first, count, value}, pipe_.groupsFor(count));
}

}  // namespace detail
}  // namespace sieve::prim
