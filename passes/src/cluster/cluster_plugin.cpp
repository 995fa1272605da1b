// The cluster plugin (sieve/cluster.h): per phase four dependent dispatches: the live sizes from the input
// lists' counts (args.comp), the scan of the clusters per listed draw (scan_candidates), the cluster test
// (test.comp), and the scan of its flags with the stable compaction into the phase's cluster list
// (scan_emit); the scans are single-pass (decoupled look-back, shaders/cluster/scan.glsl). Every step after
// the first is dispatched indirectly from the sizes the GPU wrote (shared/cluster.h ClusterWork): a phase
// costs what the frame holds, not what the capacities allow.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>

#include "cluster/cluster_slots.h"
#include "core/bindings.h"
#include "core/vk.h"
#include "prim/common.h"
#include "prim/single_pass.h"
#include "shared/cull_bindings.h"
#include "sieve/barriers.h"
#include "sieve/cluster_tuning.h"
#include "sieve/cull_flags.h"
#include "sieve/hiz.h"
#include "sieve/pipeline.h"
#include "sieve/prim/bound.h"

namespace sieve {

using namespace cluster;

namespace {

Error error(std::string message) {
    return makeError(VK_ERROR_INITIALIZATION_FAILED, "ClusterPlugin: " + std::move(message));
}

constexpr uint64_t kDefaultMaxCandidates = uint64_t(1) << 24;

// Compute writes (sizes, dispatch arguments, values) -> the next dispatch's indirect arguments and
// storage reads and writes.
void computeToIndirectBarrier(VkCommandBuffer cmd) {
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                      VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

// The pipelines of a phase: args.comp, the two scans (shaders/cluster/scan.glsl) and test.comp.
struct Pipelines {
    ComputePipeline args, scanCandidates, test, scanEmit;
};

// The scans' constants: the prim tiles' (0..2), then the single-pass scan's (3..7; MODE 0 offsets,
// MODE 1 records).
Result<std::array<uint32_t, 8>> scanSpec(const DeviceInfo& dev, const prim::detail::Tiles& tiles,
                                         const prim::PrimOptions& options, uint32_t mode, bool& packed) {
    auto look = prim::detail::Lookback::resolve(dev, options, false, mode, false);
    if (!look) return look.error();
    packed = look->packed;
    const std::array<uint32_t, 3> t = tiles.spec();
    const std::array<uint32_t, 5>& c = look->constants;
    return std::array<uint32_t, 8>{t[0], t[1], t[2], c[0], c[1], c[2], c[3], c[4]};
}

Result<Pipelines> createPipelines(const DeviceInfo& dev, const prim::detail::Tiles& tiles,
                                  const prim::PrimOptions& options) {
    Pipelines p;
    bool packed = false;
    auto offsets = scanSpec(dev, tiles, options, 0, packed);
    if (!offsets) return offsets.error();
    auto records = scanSpec(dev, tiles, options, 1, packed);
    if (!records) return records.error();
    const struct {
        ComputePipeline* pipe;
        const char* name;
        std::span<const uint32_t> spec;
    } all[] = {
        {&p.args, "cluster/args.comp", {}},
        {&p.scanCandidates, packed ? "cluster/scan_candidates_packed.comp" : "cluster/scan_candidates.comp", *offsets},
        {&p.test, "cluster/test.comp", {}},
        {&p.scanEmit, packed ? "cluster/scan_emit_packed.comp" : "cluster/scan_emit.comp", *records}};
    for (const auto& a : all) {
        ComputePipelineDesc desc{a.name, uint32_t(sizeof(gpu::ClusterPush))};
        desc.specialization = a.spec;
        auto pipe = ComputePipeline::create(dev, desc);
        if (!pipe) return pipe.error();
        *a.pipe = std::move(pipe).value();
    }
    return p;
}

}  // namespace

struct ClusterPlugin::Impl {
    DeviceInfo dev;
    ClusterConfig config;
    ClusterTuning tuning;
    Sizes sizes;
    Pipelines pipes;
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
    bool fresh = true;     // persistent slots not yet initialised by this plugin
    ReadbackTags written;  // the frame this plugin wrote into each slot of the stats ring

    void describe() {
        const VkExtent2D depth = config.viewport.width && config.viewport.height ? config.viewport : VkExtent2D{1, 1};
        sizes.pyramid = HiZBuilder::pyramidExtent(depth);
        sizes.pyramidMips = HiZBuilder::mipCount(sizes.pyramid);
        id = describeSlots(sizes, slots, passes);
        fresh = true;
        written.reset(sizes.framesInFlight);
    }
    Result<gpu::CullParams> cullParams(const ViewDesc& v, uint32_t bits) const {
        CullSettings s;
        s.toggles = bits;
        return makeCullParams(v, sizes.pyramid, sizes.pyramidMips, instanceCount, s);
    }
    Result<void> recordPhase(VkCommandBuffer cmd, const Bindings& b, uint32_t phase) const;
    BindingSet<gpu::SIEVE_CTEST_BINDINGS> testBindings(const Bindings& b, SlotId drawsB, BufferRange params) const;
    BindingSet<gpu::SIEVE_CSCAN_BINDINGS> scanBindings(const Bindings& b, SlotId drawsB, uint32_t phase,
                                                       bool emit) const;
    BufferRange range(const Bindings& b, SlotId s) const {
        return {b[s].buffer, b[s].offset, b[s].size ? b[s].size : slots[s].size};
    }
    BufferRange dispatchArgs(const Bindings& b, size_t offset) const {
        return {b[id.work].buffer, b[id.work].offset + offset, sizeof(gpu::ClusterDispatch)};
    }
    void recordStats(VkCommandBuffer cmd, const Bindings& b);
};

ClusterPlugin::ClusterPlugin(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ClusterPlugin::~ClusterPlugin() = default;

Result<std::unique_ptr<ClusterPlugin>> ClusterPlugin::create(const DeviceInfo& dev, const ClusterConfig& config) {
    return createClusterPlugin(dev, config, {});
}

const ClusterTuning& tuning(const ClusterPlugin& plugin) {
    return plugin.impl_->tuning;
}

namespace {

// The capacities the configuration resolves to (candidates per phase, records per list), checked against the
// device's limits.
Result<Sizes> resolveSizes(const DeviceInfo& dev, const ClusterConfig& config) {
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
    Sizes s;
    s.maxInstances = config.maxInstances;
    s.drawCapacity = config.drawCapacity;
    s.candidateCapacity = uint32_t(std::max<uint64_t>(k, 1));
    s.outputCapacity = uint32_t(std::max<uint64_t>(o, 1));
    s.visibilitySlots = config.visibilitySlots;
    s.padDraws = !dev.drawIndirectCount();
    s.framesInFlight = config.framesInFlight;
    const VkDeviceSize a = std::max<VkDeviceSize>(dev.limits.minUniformBufferOffsetAlignment, 1);
    s.paramsStride = (sizeof(gpu::CullParams) + a - 1) / a * a;
    return s;
}

}  // namespace

Result<std::unique_ptr<ClusterPlugin>> createClusterPlugin(const DeviceInfo& dev, const ClusterConfig& config,
                                                           const ClusterTuning& tuning) {
    auto sizes = resolveSizes(dev, config);
    if (!sizes) return sizes.error();
    auto tiles = prim::detail::resolveTiles(dev, tuning.scan, true);
    if (!tiles) return tiles.error();
    auto impl = std::make_unique<ClusterPlugin::Impl>();
    ClusterPlugin::Impl& m = *impl;
    m.dev = dev;
    m.config = config;
    m.tuning = tuning;
    m.instanceCount = config.maxInstances;
    m.sizes = sizes.value();
    m.sizes.scanTile = tiles.value().tile();
    auto pipes = createPipelines(dev, tiles.value(), tuning.scan);
    if (!pipes) return pipes.error();
    m.pipes = std::move(pipes).value();
    auto sampler = NearestSampler::create(dev, "clusters.pyramid");
    if (!sampler) return sampler.error();
    m.sampler = std::move(sampler).value();
    m.describe();
    return std::unique_ptr<ClusterPlugin>(new ClusterPlugin(std::move(impl)));
}

Result<void> ClusterPlugin::resize(VkExtent2D viewport) {
    impl_->config.viewport = viewport;
    impl_->describe();
    return {};
}

Result<void> ClusterPlugin::setInstanceCount(uint32_t n) {
    if (auto r = checkInstanceCount("ClusterPlugin", n, impl_->config.maxInstances); !r) return r;
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
    m.push.testGroup = m.pipes.test.localSize()[0];
    m.push.scanTile = m.sizes.scanTile;
    m.info = frame;
    m.prepared = true;
    return {};
}

// cluster/test.comp's descriptors (shared/cull_bindings.h); drawsB: the phase's instance draw list.
BindingSet<gpu::SIEVE_CTEST_BINDINGS> ClusterPlugin::Impl::testBindings(const Bindings& b, SlotId drawsB,
                                                                        BufferRange params) const {
    auto st = [&](SlotId s) { return Binding::storage(range(b, s)); };
    return bindingsAt<gpu::SIEVE_CTEST_BINDINGS>(
        {bindAt(gpu::SIEVE_CTEST_PARAMS, Binding::uniform(params)),
         bindAt(gpu::SIEVE_CTEST_INSTANCES, st(id.instances)), bindAt(gpu::SIEVE_CTEST_PRIMITIVES, st(id.primitives)),
         bindAt(gpu::SIEVE_CTEST_CLUSTERS, st(id.clusters)), bindAt(gpu::SIEVE_CTEST_RANGES, st(id.ranges)),
         bindAt(gpu::SIEVE_CTEST_INSTANCE_SLOTS, st(id.instanceSlots)),
         bindAt(gpu::SIEVE_CTEST_DRAWS_A, st(id.drawsEarly)), bindAt(gpu::SIEVE_CTEST_DRAWS_B, st(drawsB)),
         bindAt(gpu::SIEVE_CTEST_OFFSETS, st(id.candOffsets)), bindAt(gpu::SIEVE_CTEST_WORK, st(id.work)),
         bindAt(gpu::SIEVE_CTEST_VISIBILITY, st(id.visibility)), bindAt(gpu::SIEVE_CTEST_FLAGS, st(id.flags)),
         bindAt(gpu::SIEVE_CTEST_CANDIDATES, st(id.candidates)), bindAt(gpu::SIEVE_CTEST_COUNTERS, st(id.counters)),
         bindAt(gpu::SIEVE_CTEST_PYRAMID,
                Binding::sampled(b[id.pyramid].view, sampler.handle(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL))});
}

// The scans' descriptors (shared/cull_bindings.h SIEVE_CSCAN_*): scan_candidates (emit false) writes the
// candidate offsets, scan_emit the phase's list; each shader's layout holds only the bindings it uses.
BindingSet<gpu::SIEVE_CSCAN_BINDINGS> ClusterPlugin::Impl::scanBindings(const Bindings& b, SlotId drawsB,
                                                                        uint32_t phase, bool emit) const {
    auto st = [&](SlotId s) { return Binding::storage(range(b, s)); };
    return bindingsAt<gpu::SIEVE_CSCAN_BINDINGS>(
        {bindAt(gpu::SIEVE_CSCAN_FLAGS, st(id.flags)),
         bindAt(gpu::SIEVE_CSCAN_OUTPUT, st(emit ? id.outIds[phase] : id.candOffsets)),
         bindAt(gpu::SIEVE_CSCAN_LOOKBACK, st(id.lookback)), bindAt(gpu::SIEVE_CSCAN_WORK, st(id.work)),
         bindAt(gpu::SIEVE_CSCAN_DRAWS_A, st(id.drawsEarly)), bindAt(gpu::SIEVE_CSCAN_DRAWS_B, st(drawsB)),
         bindAt(gpu::SIEVE_CSCAN_COUNTERS, st(id.counters)), bindAt(gpu::SIEVE_CSCAN_RANGES, st(id.ranges)),
         bindAt(gpu::SIEVE_CSCAN_CLUSTERS, st(id.clusters)), bindAt(gpu::SIEVE_CSCAN_CANDIDATES, st(id.candidates)),
         bindAt(gpu::SIEVE_CSCAN_OUT_DRAWS, st(id.outDraws[phase])),
         bindAt(gpu::SIEVE_CSCAN_OUT_COUNTS, st(id.outCounts[phase])),
         bindAt(gpu::SIEVE_CSCAN_TASKS, st(id.tasks[phase]))});
}

Result<void> ClusterPlugin::Impl::recordPhase(VkCommandBuffer cmd, const Bindings& b, uint32_t phase) const {
    auto st = [&](SlotId s) { return Binding::storage(range(b, s)); };
    gpu::ClusterPush push = this->push;
    push.phase = phase;
    push.computeGroupsX = pipes.args.maxGroupsX();
    const SlotId drawsB = phase == 0 ? id.drawsEarly : id.drawsLate;
    const SlotId countsB = phase == 0 ? id.countsEarly : id.countsLate;
    ScopedLabel label(cmd, phase == 0 ? "cluster.early" : "cluster.late");
    if (sizes.padDraws) {  // drawn over the capacity: records past the count must be empty
        vkCmdFillBuffer(cmd, b[id.outDraws[phase]].buffer, b[id.outDraws[phase]].offset,
                        VkDeviceSize(sizes.outputCapacity) * sizeof(gpu::DrawCommand), 0);
        transferToComputeBarrier(cmd);
    }
    // Four dependent dispatches; each barrier also makes the sizes and dispatches just written visible to
    // the indirect reads after it.
    pipes.args.dispatch(cmd, {st(id.countsEarly), st(countsB), st(id.work)}, push, 1);
    computeToIndirectBarrier(cmd);
    pipes.scanCandidates.dispatchIndirect(cmd, scanBindings(b, drawsB, phase, false), &push, sizeof(push),
                                          dispatchArgs(b, offsetof(gpu::ClusterWork, slotTiles)));
    computeToIndirectBarrier(cmd);
    const BufferRange params{b[id.params].buffer, b[id.params].offset + sizes.paramsStride * info.frameSlot,
                             sizeof(gpu::CullParams)};
    const auto test = testBindings(b, drawsB, params);
    pipes.test.dispatchIndirect(cmd, test, &push, sizeof(push), dispatchArgs(b, offsetof(gpu::ClusterWork, tests)));
    computeToIndirectBarrier(cmd);
    pipes.scanEmit.dispatchIndirect(cmd, scanBindings(b, drawsB, phase, true), &push, sizeof(push),
                                    dispatchArgs(b, offsetof(gpu::ClusterWork, candidateTiles)));
    return {};
}

void ClusterPlugin::Impl::recordStats(VkCommandBuffer cmd, const Bindings& b) {
    const uint32_t slot = info.frameSlot;
    auto* ring = static_cast<StatsRecord*>(b[id.stats].mapped);
    // Written framesInFlight frames ago; the host waited for that frame's fence before recording this one.
    const StatsRecord& rec = ring[slot];
    if (written.trusted(slot, rec.header)) {
        stats.valid = true;
        stats.frame = uint64_t(rec.header.frameHi) << 32 | rec.header.frameLo;
        stats.counters = rec.counters;
        stats.early = rec.early;
        stats.late = rec.late;
    }
    const VkDeviceSize base = b[id.stats].offset + sizeof(StatsRecord) * slot;
    const ReadbackHeader header = readbackHeader(info.frameIndex, 0u);
    vkCmdUpdateBuffer(cmd, b[id.stats].buffer, base, sizeof(header), &header);
    const VkBufferCopy counters{b[id.counters].offset, base + offsetof(StatsRecord, counters),
                                sizeof(gpu::ClusterCounters)};
    const VkBufferCopy early{b[id.outCounts[0]].offset, base + offsetof(StatsRecord, early), sizeof(gpu::DrawCounts)};
    const VkBufferCopy late{b[id.outCounts[1]].offset, base + offsetof(StatsRecord, late), sizeof(gpu::DrawCounts)};
    vkCmdCopyBuffer(cmd, b[id.counters].buffer, b[id.stats].buffer, 1, &counters);
    vkCmdCopyBuffer(cmd, b[id.outCounts[0]].buffer, b[id.stats].buffer, 1, &early);
    vkCmdCopyBuffer(cmd, b[id.outCounts[1]].buffer, b[id.stats].buffer, 1, &late);
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    written.wrote(slot, info.frameIndex);
}

Result<void> ClusterPlugin::record(uint32_t pass, VkCommandBuffer cmd, const Bindings& b, const FrameInfo& frame) {
    Impl& m = *impl_;
    if (pass >= kPassCount) return fail(error("no pass " + std::to_string(pass)));
    if (!m.prepared || frame.frameIndex != m.info.frameIndex)
        return fail(error("record() of frame " + std::to_string(frame.frameIndex) + " without its prepare()"));
    if (auto r = checkPassBindings(m.slots, m.passes[pass], b); !r) return fail(error(r.error().message));
    if (pass == kStats) {
        if (m.fresh) m.written.reset(m.sizes.framesInFlight);
        m.recordStats(cmd, b);
        m.fresh = false;
        return {};
    }
    if (pass == kEarly) {
        auto* dst = static_cast<char*>(b[m.id.params].mapped);
        std::memcpy(dst + m.sizes.paramsStride * m.info.frameSlot, &m.params, sizeof(m.params));
        vkCmdFillBuffer(cmd, b[m.id.counters].buffer, b[m.id.counters].offset, sizeof(gpu::ClusterCounters), 0);
        // The scans' look-back status: counter, epoch and statuses at 0 (shaders/cluster/scan.glsl); the
        // frame's four scans then run in epochs 0..3.
        vkCmdFillBuffer(cmd, b[m.id.lookback].buffer, b[m.id.lookback].offset, m.sizes.lookbackWords() * 4, 0);
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
