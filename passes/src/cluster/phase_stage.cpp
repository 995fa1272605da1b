// One phase of the cluster plugin (sieve/cluster.h: cluster.early, cluster.late), four dependent
// dispatches: the live sizes from the input lists' counts (args.comp), the scan of the clusters per listed
// draw (scan_candidates), the cluster test (test.comp), and the scan of its flags with the stable
// compaction into the phase's cluster list (scan_emit); the scans are single-pass (decoupled look-back,
// shaders/cluster/scan.glsl). Every step after the first is dispatched indirectly from the sizes the GPU
// wrote (shared/cluster.h ClusterWork): a phase costs what the frame holds, not what the capacities allow.
// The early stage also owns the slots both phases share and starts the frame with them.
#include <cstddef>
#include <cstring>

#include "cluster/cluster_stage.h"
#include "core/slot_uses.h"
#include "core/vk.h"
#include "prim/single_pass.h"
#include "shared/cull_bindings.h"
#include "sieve/barriers.h"
#include "sieve/pipeline.h"

namespace sieve::cluster {

namespace {

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

// What both phases record with, created once per plugin.
struct PhaseShared {
    Pipelines pipes;
    NearestSampler sampler;
};

Result<PhaseShared> createShared(const ClusterKit& kit) {
    auto pipes = createPipelines(kit.dev(), kit.tiles(), kit.scanOptions());
    if (!pipes) return pipes.error();
    auto sampler = NearestSampler::create(kit.dev(), "clusters.pyramid");
    if (!sampler) return sampler.error();
    return PhaseShared{std::move(pipes).value(), std::move(sampler).value()};
}

class PhaseStage final : public ClusterStage {
public:
    explicit PhaseStage(uint32_t phase) : phase_(phase) {}

    Result<void> create(ClusterKit& kit) override {
        auto shared = kit.shared<PhaseShared>([&] { return createShared(kit); });
        if (!shared) return shared.error();
        shared_ = shared.value();
        return {};
    }

    void declare(SlotTable& slots, const ClusterKit& kit) override {
        sizes = kit.sizes();
        const VkDeviceSize O = sizes.outputCapacity;
        if (phase_ == 0) declareShared(slots, sizes);
        const uint32_t p = phase_;
        const Lifetime t = Lifetime::Transient;
        declareBuffer(slots, kOutDraws[p], t, O * sizeof(gpu::DrawCommand), kStorage | kIndirect | kSrc | kDst);
        declareBuffer(slots, kOutCounts[p], t, sizeof(gpu::DrawCounts), kStorage | kIndirect | kSrc);
        declareBuffer(slots, kOutIds[p], t, O * 4, kStorage | kSrc);
        declareBuffer(slots, kTasks[p], t, 16, kStorage | kIndirect | kSrc);
    }

    PassDesc describe(SlotTable& slots) override;
    Result<void> record(VkCommandBuffer cmd, const Bindings& b, const ClusterFrame& f) override;

private:
    void recordFrameStart(VkCommandBuffer cmd, const Bindings& b, const ClusterFrame& f) const;
    Result<void> recordPhase(VkCommandBuffer cmd, const Bindings& b, uint32_t phase) const;
    BindingSet<gpu::SIEVE_CTEST_BINDINGS> testBindings(const Bindings& b, SlotId drawsB, BufferRange params) const;
    BindingSet<gpu::SIEVE_CSCAN_BINDINGS> scanBindings(const Bindings& b, SlotId drawsB, uint32_t phase,
                                                       bool emit) const;
    std::array<SlotUse, 3> argsTable(SlotId countsB) const;
    std::array<SlotUse, 15> testTable(SlotId drawsB) const;
    std::array<SlotUse, 7> candidatesTable(SlotId drawsB) const;
    std::array<SlotUse, 12> emitTable(SlotId drawsB, uint32_t phase) const;
    BufferRange range(const Bindings& b, SlotId s) const { return sieve::range(b, *slots_, s); }
    BufferRange dispatchArgs(const Bindings& b, size_t offset) const {
        return {b[id.work].buffer, b[id.work].offset + offset, sizeof(gpu::ClusterDispatch)};
    }

    uint32_t phase_;
    const PhaseShared* shared_ = nullptr;
    const SlotTable* slots_ = nullptr;
    Sizes sizes;
    SlotIds id{};
    gpu::ClusterPush push{};  // this frame's
    FrameInfo info;
};

// The phase's pass: every slot its dispatches bind, from the tables their descriptors are pushed from,
// in dispatch order (each transient is written before it is read), then the fills.
PassDesc PhaseStage::describe(SlotTable& slots) {
    id = requireSlots(slots);
    slots_ = &slots;
    const uint32_t p = phase_;
    const SlotId drawsB = p == 0 ? id.drawsEarly : id.drawsLate;
    using namespace use;
    PassDesc d;
    d.name = p == 0 ? "cluster.early" : "cluster.late";
    appendUses(d.uses, argsTable(p == 0 ? id.countsEarly : id.countsLate));
    d.uses.push_back(indirectRead(id.work));  // every later dispatch
    appendUses(d.uses, candidatesTable(drawsB));
    appendUses(d.uses, testTable(drawsB));
    appendUses(d.uses, emitTable(drawsB, p));
    if (sizes.padDraws) d.uses.push_back(transferWrite(id.outDraws[p]));
    if (p == 0) {
        d.uses.push_back(transferWrite(id.counters));
        d.uses.push_back(transferWrite(id.visibility));  // cleared on first use
        d.uses.push_back(transferWrite(id.lookback));    // cleared every frame
    }
    return d;
}

Result<void> PhaseStage::record(VkCommandBuffer cmd, const Bindings& b, const ClusterFrame& f) {
    if (phase_ == 0) recordFrameStart(cmd, b, f);
    push = f.push;
    push.testGroup = shared_->pipes.test.localSize()[0];
    info = f.info;
    return recordPhase(cmd, b, phase_);
}

// The frame's view into its slot of the parameters, the counters cleared (and the visibility, in memory the
// host just created).
void PhaseStage::recordFrameStart(VkCommandBuffer cmd, const Bindings& b, const ClusterFrame& f) const {
    auto* dst = static_cast<char*>(b[id.params].mapped);
    std::memcpy(dst + sizes.paramsStride * f.info.frameSlot, &f.params, sizeof(f.params));
    vkCmdFillBuffer(cmd, b[id.counters].buffer, b[id.counters].offset, sizeof(gpu::ClusterCounters), 0);
    // The scans' look-back status: counter, epoch and statuses at 0 (shaders/cluster/scan.glsl); the
    // frame's four scans then run in epochs 0..3.
    vkCmdFillBuffer(cmd, b[id.lookback].buffer, b[id.lookback].offset, sizes.lookbackWords() * 4, 0);
    // Last frame's visibility of memory the host just created means nothing: start from none.
    // Only the slot's own bytes: the binding may be a range of a larger buffer.
    if (f.fresh && sizes.visibilitySlots)
        vkCmdFillBuffer(cmd, b[id.visibility].buffer, b[id.visibility].offset, VkDeviceSize(sizes.visibilitySlots) * 4,
                        0);
    transferToComputeBarrier(cmd);
}

// cluster/args.comp's descriptors and their uses (shared/cull_bindings.h); countsB: the phase's list's counts.
std::array<SlotUse, 3> PhaseStage::argsTable(SlotId countsB) const {
    return {{{gpu::SIEVE_CARGS_COUNTS_A, id.countsEarly, Access::Read},
             {gpu::SIEVE_CARGS_COUNTS_B, countsB, Access::Read},
             {gpu::SIEVE_CARGS_WORK, id.work, Access::Write}}};
}

// cluster/test.comp's descriptors and their uses (shared/cull_bindings.h); drawsB: the phase's instance
// draw list.
std::array<SlotUse, 15> PhaseStage::testTable(SlotId drawsB) const {
    return {{{gpu::SIEVE_CTEST_PARAMS, id.params, Access::Uniform},
             {gpu::SIEVE_CTEST_INSTANCES, id.instances, Access::Read},
             {gpu::SIEVE_CTEST_PRIMITIVES, id.primitives, Access::Read},
             {gpu::SIEVE_CTEST_CLUSTERS, id.clusters, Access::Read},
             {gpu::SIEVE_CTEST_RANGES, id.ranges, Access::Read},
             {gpu::SIEVE_CTEST_INSTANCE_SLOTS, id.instanceSlots, Access::Read},
             {gpu::SIEVE_CTEST_DRAWS_A, id.drawsEarly, Access::Read},
             {gpu::SIEVE_CTEST_DRAWS_B, drawsB, Access::Read},
             {gpu::SIEVE_CTEST_OFFSETS, id.candOffsets, Access::Read},
             {gpu::SIEVE_CTEST_WORK, id.work, Access::Read},
             {gpu::SIEVE_CTEST_VISIBILITY, id.visibility, Access::ReadWrite},
             {gpu::SIEVE_CTEST_FLAGS, id.flags, Access::Write},
             {gpu::SIEVE_CTEST_CANDIDATES, id.candidates, Access::Write},
             {gpu::SIEVE_CTEST_COUNTERS, id.counters, Access::ReadWrite},
             {gpu::SIEVE_CTEST_PYRAMID, id.pyramid, Access::Sampled}}};
}

// params: this frame's view.
BindingSet<gpu::SIEVE_CTEST_BINDINGS> PhaseStage::testBindings(const Bindings& b, SlotId drawsB,
                                                               BufferRange params) const {
    auto set = bindSlots<gpu::SIEVE_CTEST_BINDINGS>(testTable(drawsB), b, *slots_, shared_->sampler.handle());
    set[gpu::SIEVE_CTEST_PARAMS] = Binding::uniform(params);
    return set;
}

// The scans' descriptors and their uses (shared/cull_bindings.h SIEVE_CSCAN_*), each scan's own:
// scan_candidates computes its input and writes the candidate offsets, scan_emit scans the test's flags
// into the phase's list.
std::array<SlotUse, 7> PhaseStage::candidatesTable(SlotId drawsB) const {
    return {{{gpu::SIEVE_CSCAN_OUTPUT, id.candOffsets, Access::Write},
             {gpu::SIEVE_CSCAN_LOOKBACK, id.lookback, Access::ReadWrite},
             {gpu::SIEVE_CSCAN_WORK, id.work, Access::ReadWrite},
             {gpu::SIEVE_CSCAN_DRAWS_A, id.drawsEarly, Access::Read},
             {gpu::SIEVE_CSCAN_DRAWS_B, drawsB, Access::Read},
             {gpu::SIEVE_CSCAN_COUNTERS, id.counters, Access::ReadWrite},
             {gpu::SIEVE_CSCAN_RANGES, id.ranges, Access::Read}}};
}

std::array<SlotUse, 12> PhaseStage::emitTable(SlotId drawsB, uint32_t phase) const {
    return {{{gpu::SIEVE_CSCAN_FLAGS, id.flags, Access::Read},
             {gpu::SIEVE_CSCAN_OUTPUT, id.outIds[phase], Access::Write},
             {gpu::SIEVE_CSCAN_LOOKBACK, id.lookback, Access::ReadWrite},
             {gpu::SIEVE_CSCAN_WORK, id.work, Access::ReadWrite},
             {gpu::SIEVE_CSCAN_DRAWS_A, id.drawsEarly, Access::Read},
             {gpu::SIEVE_CSCAN_DRAWS_B, drawsB, Access::Read},
             {gpu::SIEVE_CSCAN_COUNTERS, id.counters, Access::ReadWrite},
             {gpu::SIEVE_CSCAN_CLUSTERS, id.clusters, Access::Read},
             {gpu::SIEVE_CSCAN_CANDIDATES, id.candidates, Access::Read},
             {gpu::SIEVE_CSCAN_OUT_DRAWS, id.outDraws[phase], Access::Write},
             {gpu::SIEVE_CSCAN_OUT_COUNTS, id.outCounts[phase], Access::Write},
             {gpu::SIEVE_CSCAN_TASKS, id.tasks[phase], Access::Write}}};
}

BindingSet<gpu::SIEVE_CSCAN_BINDINGS> PhaseStage::scanBindings(const Bindings& b, SlotId drawsB, uint32_t phase,
                                                               bool emit) const {
    return emit ? bindSlots<gpu::SIEVE_CSCAN_BINDINGS>(emitTable(drawsB, phase), b, *slots_)
                : bindSlots<gpu::SIEVE_CSCAN_BINDINGS>(candidatesTable(drawsB), b, *slots_);
}

Result<void> PhaseStage::recordPhase(VkCommandBuffer cmd, const Bindings& b, uint32_t phase) const {
    const Pipelines& pipes = shared_->pipes;
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
    pipes.args.dispatch(cmd, bindSlots<gpu::SIEVE_CARGS_BINDINGS>(argsTable(countsB), b, *slots_), push, 1);
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

}  // namespace

std::unique_ptr<ClusterStage> makePhaseStage(uint32_t phase) {
    return std::make_unique<PhaseStage>(phase);
}

}  // namespace sieve::cluster
