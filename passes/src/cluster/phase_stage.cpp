// One phase of the cluster plugin (sieve/cluster.h: cluster.early, cluster.late): the live sizes from the
// input lists' counts, clusters per listed draw, their scan, the cluster test (shaders/cluster/test.comp),
// the scan of its flags and the stable compaction into the phase's cluster list (emit.comp). Every step
// after the first is dispatched indirectly from the sizes the GPU wrote (shared/cluster.h ClusterWork): a
// phase costs what the frame holds, not what the capacities allow. The early stage also owns the slots
// both phases share and starts the frame with them.
#include <cstddef>
#include <cstring>

#include "cluster/cluster_stage.h"
#include "core/slot_uses.h"
#include "core/vk.h"
#include "shared/cull_bindings.h"
#include "sieve/barriers.h"
#include "sieve/pipeline.h"

namespace sieve::cluster {

namespace {

// Compute writes (sizes, dispatch arguments, values) -> the next dispatch's indirect arguments and
// storage reads and writes.
void computeToIndirectBarrier(VkCommandBuffer cmd) {
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                      VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

// The pipelines of a phase: args.comp, count/test/emit, and the three dispatches of its scans.
struct Pipelines {
    ComputePipeline args, count, test, emit, scanReduce, scanTop, scanDown;
};

Result<Pipelines> createPipelines(const DeviceInfo& dev, const prim::detail::Tiles& tiles) {
    Pipelines p;
    // count and emit take their workgroup size from constant 0 (test.comp and args.comp have fixed ones);
    // the scans take the prim tiles' constants.
    const uint32_t group[] = {fittedGroupSize(dev, 256)};
    const std::array<uint32_t, 3> tileSpec = tiles.spec();
    const struct {
        ComputePipeline* pipe;
        const char* name;
        std::span<const uint32_t> spec;
    } all[] = {{&p.args, "cluster/args.comp", {}},
               {&p.count, "cluster/count.comp", group},
               {&p.test, "cluster/test.comp", {}},
               {&p.emit, "cluster/emit.comp", group},
               {&p.scanReduce, "cluster/scan_reduce.comp", tileSpec},
               {&p.scanTop, "cluster/scan_top.comp", tileSpec},
               {&p.scanDown, "cluster/scan_down.comp", tileSpec}};
    for (const auto& a : all) {
        // count.comp reads everything it needs from ClusterWork: no push constants.
        ComputePipelineDesc desc{a.name, a.pipe == &p.count ? 0u : uint32_t(sizeof(gpu::ClusterPush))};
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
    auto pipes = createPipelines(kit.dev(), kit.tiles());
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
    BindingSet<gpu::SIEVE_CEMIT_BINDINGS> emitBindings(const Bindings& b, SlotId drawsB, uint32_t phase) const;
    std::array<SlotUse, 15> testTable(SlotId drawsB) const;
    std::array<SlotUse, 10> emitTable(SlotId drawsB, uint32_t phase) const;
    void recordScan(VkCommandBuffer cmd, const Bindings& b, gpu::ClusterPush push, SlotId src, SlotId dst) const;
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

// The phase's pass, with every slot any of its dispatches binds: those of args.comp, count.comp and the
// scans (recordPhase, recordScan) first, as they write what the test and the emit read, then the test's
// and the emit's, from the tables their descriptors are pushed from.
PassDesc PhaseStage::describe(SlotTable& slots) {
    id = requireSlots(slots);
    slots_ = &slots;
    const uint32_t p = phase_;
    const SlotId drawsB = p == 0 ? id.drawsEarly : id.drawsLate;
    using namespace use;
    PassDesc d;
    d.name = p == 0 ? "cluster.early" : "cluster.late";
    d.uses = {storageRead(id.countsEarly),
              storageRead(p == 0 ? id.countsEarly : id.countsLate),
              storageRead(id.ranges),
              storageReadWrite(id.candCounts),
              storageReadWrite(id.candOffsets),
              storageReadWrite(id.work),
              indirectRead(id.work),
              storageReadWrite(id.tileSums),
              storageReadWrite(id.counters),
              storageWrite(id.outOffsets),
              storageWrite(id.outCounts[p]),
              storageWrite(id.tasks[p])};
    appendUses(d.uses, testTable(drawsB));
    appendUses(d.uses, emitTable(drawsB, p));
    if (sizes.padDraws) d.uses.push_back(transferWrite(id.outDraws[p]));
    if (p == 0) {
        d.uses.push_back(transferWrite(id.counters));
        d.uses.push_back(transferWrite(id.visibility));  // cleared on first use
    }
    return d;
}

Result<void> PhaseStage::record(VkCommandBuffer cmd, const Bindings& b, const ClusterFrame& f) {
    if (phase_ == 0) recordFrameStart(cmd, b, f);
    push = f.push;
    push.linearGroup = shared_->pipes.count.localSize()[0];
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
    // Last frame's visibility of memory the host just created means nothing: start from none.
    // Only the slot's own bytes: the binding may be a range of a larger buffer.
    if (f.fresh && sizes.visibilitySlots)
        vkCmdFillBuffer(cmd, b[id.visibility].buffer, b[id.visibility].offset, VkDeviceSize(sizes.visibilitySlots) * 4,
                        0);
    transferToComputeBarrier(cmd);
}

void PhaseStage::recordScan(VkCommandBuffer cmd, const Bindings& b, gpu::ClusterPush push, SlotId src,
                            SlotId dst) const {
    const Pipelines& pipes = shared_->pipes;
    auto st = [&](SlotId s) { return Binding::storage(range(b, s)); };
    const BufferRange tiles = dispatchArgs(
        b, push.step == 0 ? offsetof(gpu::ClusterWork, slotTiles) : offsetof(gpu::ClusterWork, candidateTiles));
    const uint32_t phase = push.phase;
    pipes.scanReduce.dispatchIndirect(cmd, {st(src), st(id.tileSums), st(id.work)}, &push, sizeof(push), tiles);
    computeToComputeBarrier(cmd);
    pipes.scanTop.dispatch(
        cmd,
        {st(id.tileSums), st(id.tileSums), st(id.work), st(id.counters), st(id.outCounts[phase]), st(id.tasks[phase])},
        push, 1);
    computeToIndirectBarrier(cmd);
    pipes.scanDown.dispatchIndirect(cmd, {st(src), st(dst), st(id.work), st(id.tileSums)}, &push, sizeof(push), tiles);
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

// cluster/emit.comp's descriptors and their uses (shared/cull_bindings.h).
std::array<SlotUse, 10> PhaseStage::emitTable(SlotId drawsB, uint32_t phase) const {
    return {{{gpu::SIEVE_CEMIT_CLUSTERS, id.clusters, Access::Read},
             {gpu::SIEVE_CEMIT_DRAWS_A, id.drawsEarly, Access::Read},
             {gpu::SIEVE_CEMIT_DRAWS_B, drawsB, Access::Read},
             {gpu::SIEVE_CEMIT_FLAGS, id.flags, Access::Read},
             {gpu::SIEVE_CEMIT_CANDIDATES, id.candidates, Access::Read},
             {gpu::SIEVE_CEMIT_OUT_OFFSETS, id.outOffsets, Access::Read},
             {gpu::SIEVE_CEMIT_WORK, id.work, Access::Read},
             {gpu::SIEVE_CEMIT_OUT_DRAWS, id.outDraws[phase], Access::Write},
             {gpu::SIEVE_CEMIT_OUT_IDS, id.outIds[phase], Access::Write},
             {gpu::SIEVE_CEMIT_COUNTERS, id.counters, Access::ReadWrite}}};
}

BindingSet<gpu::SIEVE_CEMIT_BINDINGS> PhaseStage::emitBindings(const Bindings& b, SlotId drawsB, uint32_t phase) const {
    return bindSlots<gpu::SIEVE_CEMIT_BINDINGS>(emitTable(drawsB, phase), b, *slots_);
}

Result<void> PhaseStage::recordPhase(VkCommandBuffer cmd, const Bindings& b, uint32_t phase) const {
    const Pipelines& pipes = shared_->pipes;
    auto st = [&](SlotId s) { return Binding::storage(range(b, s)); };
    gpu::ClusterPush push = this->push;
    push.phase = phase;
    push.computeGroupsX = pipes.count.maxGroupsX();
    const SlotId drawsB = phase == 0 ? id.drawsEarly : id.drawsLate;
    const SlotId countsB = phase == 0 ? id.countsEarly : id.countsLate;
    ScopedLabel label(cmd, phase == 0 ? "cluster.early" : "cluster.late");
    if (sizes.padDraws) {  // drawn over the capacity: records past the count must be empty
        vkCmdFillBuffer(cmd, b[id.outDraws[phase]].buffer, b[id.outDraws[phase]].offset,
                        VkDeviceSize(sizes.outputCapacity) * sizeof(gpu::DrawCommand), 0);
        transferToComputeBarrier(cmd);
    }
    pipes.args.dispatch(cmd, {st(id.countsEarly), st(countsB), st(id.work)}, push, 1);
    computeToIndirectBarrier(cmd);
    pipes.count.dispatchIndirect(cmd, {st(id.ranges), st(id.drawsEarly), st(drawsB), st(id.work), st(id.candCounts)},
                                 nullptr, 0, dispatchArgs(b, offsetof(gpu::ClusterWork, slots)));
    computeToComputeBarrier(cmd);
    push.step = 0;
    recordScan(cmd, b, push, id.candCounts, id.candOffsets);
    computeToIndirectBarrier(cmd);
    const BufferRange params{b[id.params].buffer, b[id.params].offset + sizes.paramsStride * info.frameSlot,
                             sizeof(gpu::CullParams)};
    const auto test = testBindings(b, drawsB, params);
    pipes.test.dispatchIndirect(cmd, test, &push, sizeof(push), dispatchArgs(b, offsetof(gpu::ClusterWork, tests)));
    computeToComputeBarrier(cmd);
    push.step = 1;
    recordScan(cmd, b, push, id.flags, id.outOffsets);
    computeToIndirectBarrier(cmd);
    const auto emit = emitBindings(b, drawsB, phase);
    pipes.emit.dispatchIndirect(cmd, emit, &push, sizeof(push),
                                dispatchArgs(b, offsetof(gpu::ClusterWork, candidates)));
    return {};
}

}  // namespace

std::unique_ptr<ClusterStage> makePhaseStage(uint32_t phase) {
    return std::make_unique<PhaseStage>(phase);
}

}  // namespace sieve::cluster
