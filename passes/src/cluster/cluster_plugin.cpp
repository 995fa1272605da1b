// The cluster plugin (sieve/cluster.h): per phase, clusters per listed draw, their scan, the cluster test,
// the scan of its flags and the stable compaction into the phase's cluster list.
#include <algorithm>
#include <cstring>
#include <string>

#include "cluster/cluster_slots.h"
#include "core/vk.h"
#include "prim/common.h"
#include "sieve/barriers.h"
#include "sieve/cull_flags.h"
#include "sieve/hiz.h"
#include "sieve/pipeline.h"
#include "sieve/prim/scan.h"

namespace sieve {

using namespace cluster;

namespace {

Error error(std::string message) {
    return makeError(VK_ERROR_INITIALIZATION_FAILED, "ClusterPlugin: " + std::move(message));
}

constexpr uint64_t kNever = UINT64_MAX;
constexpr uint64_t kDefaultMaxCandidates = uint64_t(1) << 24;

}  // namespace

struct ClusterPlugin::Impl {
    DeviceInfo dev;
    ClusterConfig config;
    Sizes sizes;
    prim::Scan scan;
    ComputePipeline count, test, emit;
    NearestSampler sampler;
    std::vector<SlotDesc> slots;
    std::vector<PassDesc> passes;
    SlotIds id{};
    uint32_t instanceCount = 0;
    ViewDesc view;
    bool haveView = false;
    ClusterToggles toggles;
    ClusterStats stats;
    gpu::CullParams params{};
    gpu::ClusterPush push{};
    FrameInfo info;
    bool prepared = false;
    bool fresh = true;  // persistent slots not yet initialised by this plugin
    std::vector<uint64_t> written;

    void describe() {
        const VkExtent2D depth = config.viewport.width && config.viewport.height ? config.viewport : VkExtent2D{1, 1};
        sizes.pyramid = HiZBuilder::pyramidExtent(depth);
        sizes.pyramidMips = HiZBuilder::mipCount(sizes.pyramid);
        id = describeSlots(sizes, slots, passes);
        fresh = true;
        written.assign(sizes.framesInFlight, kNever);
    }
    Result<gpu::CullParams> cullParams(const ViewDesc& v, uint32_t bits) const {
        CullSettings s;
        s.toggles = bits;
        return makeCullParams(v, sizes.pyramid, sizes.pyramidMips, instanceCount, s);
    }
    Result<void> checkBindings(uint32_t pass, const Bindings& b) const;
    Result<void> recordPhase(VkCommandBuffer cmd, const Bindings& b, uint32_t phase) const;
    void recordStats(VkCommandBuffer cmd, const Bindings& b);
};

ClusterPlugin::ClusterPlugin(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ClusterPlugin::~ClusterPlugin() = default;

Result<std::unique_ptr<ClusterPlugin>> ClusterPlugin::create(const DeviceInfo& dev, const ClusterConfig& config) {
    if (const std::string m = dev.missing(kCullingNeeds); !m.empty())
        return error("the device was created without " + m + " (sieve::requirements() lists what to enable)");
    if (config.maxInstances == 0 || config.drawCapacity == 0 || config.framesInFlight == 0)
        return error("maxInstances, drawCapacity and framesInFlight must be > 0");
    if (config.maxClustersPerDraw == 0) return error("maxClustersPerDraw is 0 (no clusters were built)");
    const uint64_t slotsIn = 2 * uint64_t(config.drawCapacity);
    if (!prim::SumBound::perValue(slotsIn, config.maxClustersPerDraw).fitsU32())
        return error("2 x drawCapacity x maxClustersPerDraw candidates exceed 2^32; lower drawCapacity");
    const VkDeviceSize range = dev.limits.maxStorageBufferRange;
    uint64_t k = config.candidateCapacity
                     ? config.candidateCapacity
                     : std::min<uint64_t>({slotsIn * config.maxClustersPerDraw, kDefaultMaxCandidates, range / 8});
    uint64_t o = config.outputCapacity ? config.outputCapacity : k;
    if (k * 8 > range || slotsIn * 4 > range)
        return makeError(VK_ERROR_OUT_OF_DEVICE_MEMORY, "ClusterPlugin: " + std::to_string(k) +
                                                            " candidates exceed maxStorageBufferRange; lower "
                                                            "candidateCapacity");
    if (o * sizeof(gpu::DrawCommand) > range || o > dev.limits.maxDrawIndirectCount)
        return makeError(VK_ERROR_OUT_OF_DEVICE_MEMORY,
                         "ClusterPlugin: an output list of " + std::to_string(o) +
                             " records exceeds maxStorageBufferRange or maxDrawIndirectCount; lower outputCapacity");
    if (uint64_t(config.visibilitySlots) * 4 > range)
        return makeError(VK_ERROR_OUT_OF_DEVICE_MEMORY, "ClusterPlugin: " + std::to_string(config.visibilitySlots) +
                                                            " visibility slots exceed maxStorageBufferRange");
    auto impl = std::make_unique<Impl>();
    Impl& m = *impl;
    m.dev = dev;
    m.config = config;
    m.instanceCount = config.maxInstances;
    auto scan = prim::Scan::create(dev, prim::detail::forTransientScratch(config.scan));
    if (!scan) return scan.error();
    m.scan = std::move(scan).value();
    for (auto [pipe, name] : {std::pair{&m.count, "cluster/count.comp"}, std::pair{&m.test, "cluster/test.comp"},
                              std::pair{&m.emit, "cluster/emit.comp"}}) {
        // count and emit take their workgroup size from constant 0 (test.comp has a fixed one).
        const uint32_t group[] = {fittedGroupSize(dev, 256)};
        ComputePipelineDesc desc{name, sizeof(gpu::ClusterPush)};
        if (pipe != &m.test) desc.specialization = group;
        auto p = ComputePipeline::create(dev, desc);
        if (!p) return p.error();
        *pipe = std::move(p).value();
    }
    auto sampler = NearestSampler::create(dev, "clusters.pyramid");
    if (!sampler) return sampler.error();
    m.sampler = std::move(sampler).value();
    Sizes& s = m.sizes;
    s.maxInstances = config.maxInstances;
    s.drawCapacity = config.drawCapacity;
    s.candidateCapacity = uint32_t(std::max<uint64_t>(k, 1));
    s.outputCapacity = uint32_t(std::max<uint64_t>(o, 1));
    s.visibilitySlots = config.visibilitySlots;
    s.padDraws = !dev.drawIndirectCount();
    s.framesInFlight = config.framesInFlight;
    const VkDeviceSize a = std::max<VkDeviceSize>(dev.limits.minUniformBufferOffsetAlignment, 1);
    s.paramsStride = (sizeof(gpu::CullParams) + a - 1) / a * a;
    s.scratchBytes = m.scan.scratchBytes(std::max<uint64_t>(slotsIn, s.candidateCapacity));
    m.describe();
    return std::unique_ptr<ClusterPlugin>(new ClusterPlugin(std::move(impl)));
}

Result<void> ClusterPlugin::resize(VkExtent2D viewport) {
    impl_->config.viewport = viewport;
    impl_->describe();
    return {};
}

Result<void> ClusterPlugin::setInstanceCount(uint32_t n) {
    if (n > impl_->config.maxInstances)
        return error(std::to_string(n) + " instances exceed maxInstances " +
                     std::to_string(impl_->config.maxInstances));
    impl_->instanceCount = n;
    return {};
}

Result<void> ClusterPlugin::setView(const ViewDesc& view) {
    if (auto p = impl_->cullParams(view, gpu::SIEVE_CULL_ALL); !p) return p.error();
    impl_->view = view;
    impl_->haveView = true;
    return {};
}

ClusterToggles& ClusterPlugin::toggles() {
    return impl_->toggles;
}
const ClusterStats& ClusterPlugin::stats() const {
    return impl_->stats;
}
const ClusterConfig& ClusterPlugin::config() const {
    return impl_->config;
}
uint32_t ClusterPlugin::candidateCapacity() const {
    return impl_->sizes.candidateCapacity;
}
uint32_t ClusterPlugin::outputCapacity() const {
    return impl_->sizes.outputCapacity;
}
std::span<const SlotDesc> ClusterPlugin::slots() const {
    return impl_->slots;
}
std::span<const PassDesc> ClusterPlugin::passes() const {
    return impl_->passes;
}
SlotId ClusterPlugin::slot(std::string_view name) const {
    for (size_t i = 0; i < impl_->slots.size(); ++i)
        if (impl_->slots[i].name == name) return SlotId(i);
    return kNoSlot;
}

Result<void> ClusterPlugin::prepare(const FrameInfo& frame) {
    clearError();
    Impl& m = *impl_;
    m.prepared = false;
    if (frame.framesInFlight != m.config.framesInFlight ||
        frame.frameSlot != frame.frameIndex % m.config.framesInFlight)
        return fail(error("FrameInfo: frame " + std::to_string(frame.frameIndex) + " in slot " +
                          std::to_string(frame.frameSlot) + " does not match " +
                          std::to_string(m.config.framesInFlight) + " frames in flight"));
    if (!m.haveView) return fail(error("prepare() before setView()"));
    const ClusterToggles& t = m.toggles;
    const uint32_t bits = (t.frustum ? gpu::SIEVE_CULL_FRUSTUM : 0u) | (t.occlusion ? gpu::SIEVE_CULL_OCCLUSION : 0u);
    auto params = m.cullParams(m.view, bits);
    if (!params) return fail(params.error());
    m.params = params.value();
    m.push = {};
    m.push.drawCapacity = m.sizes.drawCapacity;
    m.push.candidateCapacity = m.sizes.candidateCapacity;
    m.push.outputCapacity = m.sizes.outputCapacity;
    m.push.toggles = t.cone ? gpu::SIEVE_CLUSTER_CONE : 0u;
    m.push.coneBins = m.config.coneBins;
    m.push.visibilitySlots = m.sizes.visibilitySlots;
    m.push.maxGroupsX = std::max(m.config.meshGroupsX, 1u);
    m.info = frame;
    m.prepared = true;
    return {};
}

Result<void> ClusterPlugin::Impl::checkBindings(uint32_t pass, const Bindings& b) const {
    if (b.slots.size() < slots.size())
        return error("pass " + passes[pass].name + ": " + std::to_string(b.slots.size()) + " bindings for " +
                     std::to_string(slots.size()) + " slots");
    for (const ResourceUse& u : passes[pass].uses) {
        const SlotDesc& d = slots[u.slot];
        const SlotBinding& got = b[u.slot];
        std::string what;
        if (d.kind == SlotKind::Buffer) {
            if (!got.buffer)
                what = "no buffer";
            else if (got.size && got.size < d.size && d.lifetime != Lifetime::Imported)
                what = std::to_string(got.size) + " bytes, needs " + std::to_string(d.size);
            else if (d.memory != Memory::Device && !got.mapped)
                what = "not mapped";
        } else if (!got.view) {
            what = "no image view";
        }
        if (!what.empty()) return error("pass " + passes[pass].name + ": slot " + d.name + " is bound with " + what);
    }
    return {};
}

Result<void> ClusterPlugin::Impl::recordPhase(VkCommandBuffer cmd, const Bindings& b, uint32_t phase) const {
    auto r = [&](SlotId s) -> BufferRange { return {b[s].buffer, b[s].offset, b[s].size ? b[s].size : slots[s].size}; };
    auto st = [&](SlotId s) { return Binding::storage(r(s)); };
    auto word = [&](SlotId s, VkDeviceSize w) { return BufferRange{b[s].buffer, b[s].offset + 4 * w, 4}; };
    gpu::ClusterPush push = this->push;
    push.phase = phase;
    const SlotId drawsB = phase == 0 ? id.drawsEarly : id.drawsLate;
    const SlotId countsB = phase == 0 ? id.countsEarly : id.countsLate;
    const uint64_t candidateSlots = uint64_t(sizes.drawCapacity) * (phase == 0 ? 1 : 2);
    const uint64_t K = sizes.candidateCapacity;
    ScopedLabel label(cmd, phase == 0 ? "cluster.early" : "cluster.late");
    if (sizes.padDraws) {  // drawn over the capacity: records past the count must be empty
        vkCmdFillBuffer(cmd, b[id.outDraws[phase]].buffer, b[id.outDraws[phase]].offset,
                        VkDeviceSize(sizes.outputCapacity) * sizeof(gpu::DrawCommand), 0);
        transferToComputeBarrier(cmd);
    }
    count.dispatchLinear(
        cmd, {st(id.ranges), st(id.drawsEarly), st(id.countsEarly), st(drawsB), st(countsB), st(id.candCounts)}, push,
        count.groupsFor(candidateSlots));
    computeToComputeBarrier(cmd);
    // Bounds were checked at create(); the host's bindings (offsets, sizes) are checked here.
    if (auto r0 = scan.record(cmd, {r(id.candCounts), r(id.candOffsets), word(id.totals, 0), r(id.scratch)},
                              candidateSlots, prim::SumBound::perValue(candidateSlots, config.maxClustersPerDraw));
        !r0)
        return r0;
    computeToComputeBarrier(cmd);
    const BufferRange params{b[id.params].buffer, b[id.params].offset + sizes.paramsStride * info.frameSlot,
                             sizeof(gpu::CullParams)};
    test.dispatchLinear(
        cmd,
        {Binding::uniform(params), st(id.instances), st(id.primitives), st(id.clusters), st(id.ranges),
         st(id.instanceSlots), st(id.drawsEarly), st(drawsB), st(id.candOffsets), st(id.totals), st(id.visibility),
         st(id.flags), st(id.candidates), st(id.counters),
         Binding::sampled(b[id.pyramid].view, sampler.handle(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)},
        push, test.groupsFor(K));
    computeToComputeBarrier(cmd);
    if (auto r1 = scan.record(cmd, {r(id.flags), r(id.outOffsets), word(id.totals, 1), r(id.scratch)}, K,
                              prim::SumBound::flags(K));
        !r1)
        return r1;
    computeToComputeBarrier(cmd);
    emit.dispatchLinear(cmd,
                        {st(id.clusters), st(id.drawsEarly), st(drawsB), st(id.flags), st(id.candidates),
                         st(id.outOffsets), st(id.totals), st(id.outDraws[phase]), st(id.outIds[phase]),
                         st(id.outCounts[phase]), st(id.tasks[phase]), st(id.counters)},
                        push, emit.groupsFor(K));
    return {};
}

void ClusterPlugin::Impl::recordStats(VkCommandBuffer cmd, const Bindings& b) {
    const uint32_t slot = info.frameSlot;
    auto* ring = static_cast<StatsRecord*>(b[id.stats].mapped);
    // Written framesInFlight frames ago; the host waited for that frame's fence before recording this one.
    const StatsRecord& rec = ring[slot];
    const uint64_t tag = uint64_t(rec.frameHi) << 32 | rec.frameLo;
    if (written[slot] != kNever && rec.valid == 1 && tag == written[slot]) {
        stats.valid = true;
        stats.frame = tag;
        stats.counters = rec.counters;
        stats.early = rec.early;
        stats.late = rec.late;
    }
    const VkDeviceSize base = b[id.stats].offset + sizeof(StatsRecord) * slot;
    const uint32_t header[4] = {uint32_t(info.frameIndex), uint32_t(info.frameIndex >> 32), 1u, 0u};
    vkCmdUpdateBuffer(cmd, b[id.stats].buffer, base, sizeof(header), header);
    const VkBufferCopy counters{b[id.counters].offset, base + offsetof(StatsRecord, counters),
                                sizeof(gpu::ClusterCounters)};
    const VkBufferCopy early{b[id.outCounts[0]].offset, base + offsetof(StatsRecord, early), sizeof(gpu::DrawCounts)};
    const VkBufferCopy late{b[id.outCounts[1]].offset, base + offsetof(StatsRecord, late), sizeof(gpu::DrawCounts)};
    vkCmdCopyBuffer(cmd, b[id.counters].buffer, b[id.stats].buffer, 1, &counters);
    vkCmdCopyBuffer(cmd, b[id.outCounts[0]].buffer, b[id.stats].buffer, 1, &early);
    vkCmdCopyBuffer(cmd, b[id.outCounts[1]].buffer, b[id.stats].buffer, 1, &late);
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    written[slot] = info.frameIndex;
}

Result<void> ClusterPlugin::record(uint32_t pass, VkCommandBuffer cmd, const Bindings& b, const FrameInfo& frame) {
    Impl& m = *impl_;
    if (pass >= kPassCount) return fail(error("no pass " + std::to_string(pass)));
    if (!m.prepared || frame.frameIndex != m.info.frameIndex)
        return fail(error("record() of frame " + std::to_string(frame.frameIndex) + " without its prepare()"));
    if (auto r = m.checkBindings(pass, b); !r) return fail(r.error());
    if (pass == kStats) {
        if (m.fresh) m.written.assign(m.written.size(), kNever);
        m.recordStats(cmd, b);
        m.fresh = false;
        return {};
    }
    if (pass == kEarly) {
        auto* dst = static_cast<char*>(b[m.id.params].mapped);
        std::memcpy(dst + m.sizes.paramsStride * m.info.frameSlot, &m.params, sizeof(m.params));
        vkCmdFillBuffer(cmd, b[m.id.counters].buffer, b[m.id.counters].offset, sizeof(gpu::ClusterCounters), 0);
        // Last frame's visibility of memory the host just created means nothing: start from none.
        // Only the slot's own bytes: the binding may be a range of a larger buffer.
        if (m.fresh && m.sizes.visibilitySlots)
            vkCmdFillBuffer(cmd, b[m.id.visibility].buffer, b[m.id.visibility].offset,
                            VkDeviceSize(m.sizes.visibilitySlots) * 4, 0);
        transferToComputeBarrier(cmd);
    }
    if (auto r = m.recordPhase(cmd, b, pass == kEarly ? 0u : 1u); !r) return fail(r.error());
    return {};
}

}  // namespace sieve
