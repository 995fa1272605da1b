// The cluster plugin (sieve/cluster.h): the ordered list of its stages (cluster/cluster_stage.h: the
// early and late phases, the stats), the frame's decisions in prepare(), and the checks that make a host's
// mistake an error instead of a wrong picture.
#include <algorithm>
#include <string>

#include "cluster/cluster_stage.h"
#include "core/bindings.h"
#include "prim/common.h"
#include "sieve/cluster_tuning.h"
#include "sieve/cull_flags.h"
#include "sieve/hiz.h"
#include "sieve/prim/bound.h"

namespace sieve {

using namespace cluster;

namespace {

Error error(std::string message) {
    return makeError(VK_ERROR_INITIALIZATION_FAILED, "ClusterPlugin: " + std::move(message));
}

constexpr uint64_t kDefaultMaxCandidates = uint64_t(1) << 24;

}  // namespace

struct ClusterPlugin::Impl {
    Impl(const DeviceInfo& dev, const ClusterConfig& config, const ClusterTuning& tuning, const Sizes& sizes,
         const prim::detail::Tiles& tiles)
        : config(config), tuning(tuning), kit(dev, sizes, tiles, tuning.scan) {}
    ClusterConfig config;
    ClusterTuning tuning;
    ClusterKit kit;
    SlotTable slots;
    // One per pass, in pass order (PassIndex). A new stage: its file under cluster/, its factory in
    // cluster/cluster_stage.h, a line here.
    StageList<ClusterKit, ClusterFrame> stages;
    std::vector<PassDesc> passes;
    uint32_t instanceCount = 0;
    ViewDesc view;
    bool haveView = false;
    ClusterToggles toggles;
    ClusterFrame frame;
    bool prepared = false;

    void makeStages() {
        stages.push_back(makePhaseStage(0));
        stages.push_back(makePhaseStage(1));
        stages.push_back(makeStatsStage());
    }
    Result<void> describe() {
        Sizes& sizes = kit.sizes();
        const VkExtent2D depth = config.viewport.width && config.viewport.height ? config.viewport : VkExtent2D{1, 1};
        sizes.pyramid = HiZBuilder::pyramidExtent(depth);
        sizes.pyramidMips = HiZBuilder::mipCount(sizes.pyramid);
        slots.clear();
        declareImported(slots, sizes);
        frame.fresh = true;
        if (auto r = describeStages(stages, kit, slots, passes); !r) return error(r.error().message);
        return {};
    }
    Result<gpu::CullParams> cullParams(const ViewDesc& v, uint32_t bits) const {
        CullSettings s;
        s.toggles = bits;
        return makeCullParams(v, kit.sizes().pyramid, kit.sizes().pyramidMips, instanceCount, s);
    }
    gpu::ClusterPush framePush() const;
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
    sizes->scanTile = tiles.value().tile();
    auto impl = std::make_unique<ClusterPlugin::Impl>(dev, config, tuning, sizes.value(), tiles.value());
    impl->instanceCount = config.maxInstances;
    impl->makeStages();
    if (auto r = createStages(impl->stages, impl->kit); !r) return r.error();
    if (auto r = impl->describe(); !r) return r.error();
    return std::unique_ptr<ClusterPlugin>(new ClusterPlugin(std::move(impl)));
}

Result<void> ClusterPlugin::resize(VkExtent2D viewport) {
    impl_->config.viewport = viewport;
    return impl_->describe();
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
    return impl_->kit.stats();
}
const ClusterConfig& ClusterPlugin::config() const {
    return impl_->config;
}
uint32_t ClusterPlugin::candidateCapacity() const {
    return impl_->kit.sizes().candidateCapacity;
}
uint32_t ClusterPlugin::outputCapacity() const {
    return impl_->kit.sizes().outputCapacity;
}
std::span<const SlotDesc> ClusterPlugin::slots() const {
    return impl_->slots.descs();
}
std::span<const PassDesc> ClusterPlugin::passes() const {
    return impl_->passes;
}
SlotId ClusterPlugin::slot(std::string_view name) const {
    return impl_->slots.find(name);
}

// The capacities and toggles every phase dispatch reads (the phase stages add their own fields).
gpu::ClusterPush ClusterPlugin::Impl::framePush() const {
    const Sizes& s = kit.sizes();
    gpu::ClusterPush push{};
    push.drawCapacity = s.drawCapacity;
    push.candidateCapacity = s.candidateCapacity;
    push.outputCapacity = s.outputCapacity;
    push.toggles = toggles.cone ? gpu::SIEVE_CLUSTER_CONE : 0u;
    push.coneBins = config.coneBins;
    push.visibilitySlots = s.visibilitySlots;
    push.maxGroupsX = std::max(config.meshGroupsX, 1u);
    push.scanTile = s.scanTile;
    return push;
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
    m.frame.params = params.value();
    m.frame.push = m.framePush();
    m.frame.info = frame;
    m.prepared = true;
    return {};
}

Result<void> ClusterPlugin::record(uint32_t pass, VkCommandBuffer cmd, const Bindings& b, const FrameInfo& frame) {
    Impl& m = *impl_;
    if (pass >= m.stages.size()) return fail(error("no pass " + std::to_string(pass)));
    if (!m.prepared || frame.frameIndex != m.frame.info.frameIndex)
        return fail(error("record() of frame " + std::to_string(frame.frameIndex) + " without its prepare()"));
    if (auto r = checkPassBindings(m.slots.descs(), m.passes[pass], b); !r) return fail(error(r.error().message));
    if (auto r = m.stages[pass]->record(cmd, b, m.frame); !r) return fail(r.error());
    // The persistent slots count as initialised once a stats pass ran (it restarts the readback ring).
    if (pass == kStats) m.frame.fresh = false;
    return {};
}

}  // namespace sieve
