// The culling plugin: the ordered list of its stages (cull/stage.h), the frame's decisions in prepare(),
// and the checks that make a host's mistake an error instead of a wrong picture.
#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <string>

#include "core/bindings.h"
#include "core/vk.h"
#include "cull/stage.h"
#include "shared/draw_push.h"
#include "sieve/cull_flags.h"
#include "sieve/cull_tests.h"
#include "sieve/culling_tuning.h"
#include "sieve/depth_format.h"
#include "sieve/hiz.h"
#include "sieve/prim/scan.h"

namespace sieve {

using namespace cull;

struct CullingPlugin::Impl {
    Impl(const DeviceInfo& dev, const CullingConfig& config, const CullingTuning& tuning,
         std::vector<gpu::DrawStream> streams)
        : tuning(tuning), kit(dev, config, this->tuning, std::move(streams)), config(config) {}
    CullingTuning tuning;
    StageKit kit;
    CullingConfig config;
    SlotTable slots;
    StageList<StageKit, FrameState> stages;  // one per pass, in pass order
    std::vector<PassDesc> passes;
    SlotId pyramid = kNoSlot;
    uint32_t instanceCount = 0;
    CullingToggles toggles;
    std::vector<CullView> views, cullViews;  // the host's views; what the culling uses (frozen or not)
    FrameState frame;
    bool prepared = false;
    bool persistentFresh = true;  // persistent slots not yet initialised by this plugin
    // The camera (view 0's parameters) of the frame that last built the pyramid; none: not built yet.
    std::optional<gpu::CullParams> pyramidCamera;

    uint32_t roles[5] = {};  // pass index per PassRole

    bool frameFailed = false;  // a record() of the prepared frame failed
    bool viewsSet = false;     // the host called setView(s): no culling for a camera it never gave
    bool frozenStale = false;  // the depth extent changed: frozen views are re-taken from the host's
    void chooseOcclusionCamera(FrameState& f, bool mainFallback);
    FrameInfo frameSlot(const FrameInfo& frame, Result<void>& result);
    uint32_t viewBits(const CullView& view, size_t v, uint32_t on) const;
    Result<bool> frameViews(FrameState& f, uint32_t on, Result<void>& result);
    // The counts slot a streams pass writes (kCountsEarly / kCountsLate); null for the other passes.
    const char* countsOf(uint32_t pass) const;
    void writeEmptyCounts(uint32_t pass, VkCommandBuffer cmd, const Bindings& b) const;

    // The stages, in pass order. A new stage: its file under cull/, its factory in cull/stage.h, a line here.
    void makeStages() {
        auto add = [&](std::unique_ptr<cull::Stage> s, int role = -1) {
            if (role >= 0) roles[role] = uint32_t(stages.size());
            stages.push_back(std::move(s));
        };
        using R = PassRole;
        add(makeFlagStage(Phase::Early));
        add(makeCompactStage(Phase::Early), int(R::EarlyStreams));
        add(makeHiZStage(), int(R::HiZ));
        add(makeFlagStage(Phase::Late));
        add(makeCompactStage(Phase::Late), int(R::LateStreams));
        add(makeCheckStage(), int(R::Check));
        add(makeStatsStage(), int(R::Stats));
    }

    Result<void> describe();
    // View `index`'s parameters: view 0 against the plugin's pyramid, the others against their own extent.
    Result<gpu::CullParams> params(const CullView& v, uint32_t index, uint32_t toggleBits) const;
    Result<void> check(std::span<const CullView> v) const;
    Result<void> checkBindings(uint32_t pass, const Bindings& b) const;
};

namespace {

Error error(std::string message) {
    return makeError(VK_ERROR_INITIALIZATION_FAILED, "CullingPlugin: " + std::move(message));
}

ViewDesc defaultView(VkExtent2D extent) {
    ViewDesc v;
    v.projection =
        perspectiveReverseZ(1.0f, float(std::max(extent.width, 1u)) / float(std::max(extent.height, 1u)), 0.1f);
    v.viewport = {0.0f, 0.0f, float(extent.width), float(extent.height), 0.0f, 1.0f};
    return v;
}

// The host's depth as declared: a depth format the device samples in optimal tiling, at a sample count
// it samples depth at.
Result<void> checkDepth(const DeviceInfo& dev, const CullingConfig& c) {
    if (!isDepthFormat(c.depthFormat))
        return error("depthFormat " + std::to_string(c.depthFormat) + " is not a depth format (sieve/depth_format.h)");
    VkFormatProperties props{};
    vkGetPhysicalDeviceFormatProperties(dev.physical, c.depthFormat, &props);
    if (!(props.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT))
        return error("the device cannot sample depthFormat " + std::to_string(c.depthFormat) +
                     " (no SAMPLED_IMAGE in optimal tiling)");
    const uint32_t n = c.depthSamples;
    if (!std::has_single_bit(n) || n > VK_SAMPLE_COUNT_64_BIT || !(dev.limits.sampledImageDepthSampleCounts & n))
        return error("depthSamples " + std::to_string(n) +
                     " is not a sample count the device samples depth at (sampledImageDepthSampleCounts)");
    return {};
}

std::string viewName(const CullView& v, size_t index) {
    return v.name.empty() ? "view " + std::to_string(index) : v.name;
}

// Every stream's records: capacities from the configuration, bases in stream order.
Result<std::vector<gpu::DrawStream>> layoutStreams(const DeviceInfo& dev, const CullingConfig& c) {
    const uint32_t count = c.maxViews * c.binCount;
    if (!c.streamCapacities.empty() && c.streamCapacities.size() != count)
        return error(std::to_string(c.streamCapacities.size()) + " stream capacities for " + std::to_string(count) +
                     " streams (maxViews x binCount)");
    const uint64_t fallback = c.drawCapacity ? c.drawCapacity : uint64_t(c.maxInstances) * c.maxDrawsPerInstance;
    const uint64_t maxByRange = dev.limits.maxStorageBufferRange / sizeof(gpu::DrawCommand);
    const uint64_t maxByDraw = dev.limits.maxDrawIndirectCount;
    // Every stream starts at a storage-buffer offset the device accepts, so that a host may bind each
    // stream's records on their own (as the default geometry pass does).
    const uint64_t align = std::max<uint64_t>(dev.limits.minStorageBufferOffsetAlignment, sizeof(gpu::DrawCommand));
    const uint64_t alignRecords = (align + sizeof(gpu::DrawCommand) - 1) / sizeof(gpu::DrawCommand);
    std::vector<gpu::DrawStream> streams(count);
    uint64_t base = 0;
    for (uint32_t s = 0; s < count; ++s) {
        base = (base + alignRecords - 1) / alignRecords * alignRecords;
        const uint64_t capacity = c.streamCapacities.empty() ? fallback : c.streamCapacities[s];
        if (capacity > maxByDraw || base + capacity > maxByRange)
            return makeError(VK_ERROR_OUT_OF_DEVICE_MEMORY,
                             "CullingPlugin: the draw lists need " + std::to_string(base + capacity) +
                                 "+ records by stream " + std::to_string(s) + " (maxStorageBufferRange allows " +
                                 std::to_string(maxByRange) + ", maxDrawIndirectCount " + std::to_string(maxByDraw) +
                                 " per stream); lower drawCapacity or streamCapacities");
        streams[s] = {uint32_t(base), uint32_t(capacity)};
        base += capacity;
    }
    return streams;
}

}  // namespace

Result<void> CullingPlugin::Impl::describe() {
    slots.clear();
    const uint64_t n = config.maxInstances;
    constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    // The host's tables and depth: imported, sizes are minimums.
    slots.buffer(kInstances, Lifetime::Imported, n * sizeof(gpu::Instance), kStorage);
    slots.buffer(kBounds, Lifetime::Imported, n * sizeof(gpu::InstanceBounds), kStorage);
    slots.buffer(kMeshes, Lifetime::Imported, sizeof(gpu::Mesh), kStorage);
    slots.buffer(kPrimitives, Lifetime::Imported, sizeof(gpu::MeshPrimitive), kStorage);
    const VkExtent2D depth = config.viewport.width && config.viewport.height ? config.viewport : VkExtent2D{1, 1};
    slots.image(kDepth, Lifetime::Imported, config.depthFormat, depth, 1, VK_IMAGE_USAGE_SAMPLED_BIT,
                config.depthSamples);
    if (auto r = describeStages(stages, kit, slots, passes); !r) return error(r.error().message);
    pyramid = slots.find(kPyramid);
    persistentFresh = true;
    pyramidCamera.reset();
    // Frozen views were set for the old depth extent and cannot be served at the new one: the next
    // prepare() freezes the host's views of that frame instead (without occlusion until a pyramid of the
    // new extent is built: pyramidCamera above), rather than failing every frame.
    frozenStale = true;
    return {};
}

Result<gpu::CullParams> CullingPlugin::Impl::params(const CullView& v, uint32_t index, uint32_t toggleBits) const {
    CullSettings settings;
    settings.toggles = toggleBits;
    settings.lodThreshold = toggles.lodThreshold;
    settings.lodBias = toggles.lodBias;
    settings.drawDistance = v.drawDistance;
    settings.distanceAlongAxis = v.distanceAlongAxis;
    VkExtent2D extent = slots[pyramid].extent;
    uint32_t mips = slots[pyramid].mipLevels;
    if (index > 0) {
        // The view's own extent: no pyramid is read for it, but the viewport must still be whole.
        const VkViewport& vp = v.desc.viewport;
        const VkExtent2D own{uint32_t(std::max(vp.width, 1.0f)), uint32_t(std::max(std::abs(vp.height), 1.0f))};
        extent = HiZBuilder::pyramidExtent(own);
        mips = HiZBuilder::mipCount(extent);
    }
    auto p = makeCullParams(v.desc, extent, mips, instanceCount, settings);
    if (!p) return p.error();
    p->instanceMask = v.instanceMask;
    p->debugRadiusShrink = index == 0 ? tuning.debugRadiusShrink : 0.0f;
    return p;
}

Result<void> CullingPlugin::Impl::check(std::span<const CullView> v) const {
    if (v.empty() || v.size() > config.maxViews)
        return error(std::to_string(v.size()) + " views: 1.." + std::to_string(config.maxViews) +
                     " (CullingConfig::maxViews)");
    uint32_t kTests = gpu::SIEVE_CULL_LOD;
    for (const CullTest& t : kCullTests) kTests |= t.bit;
    for (size_t i = 0; i < v.size(); ++i) {
        const std::string who = "view " + std::to_string(i) + " (" + viewName(v[i], i) + "): ";
        if (v[i].tests & ~kTests)
            return error(who + "unknown test bits (SIEVE_CULL_FRUSTUM, DISTANCE, OCCLUSION, LOD only)");
        if (!(v[i].drawDistance >= 0.0f))
            return error(who + "drawDistance " + std::to_string(v[i].drawDistance) + " (0 for none, or a distance)");
        if (i > 0 && (v[i].tests & gpu::SIEVE_CULL_OCCLUSION))
            return error(who +
                         "occlusion culling is only available for view 0, the main view (its pyramid is built "
                         "from the host's depth); use SIEVE_CULL_FRUSTUM | SIEVE_CULL_LOD");
        if (auto p = params(v[i], uint32_t(i), kTests); !p) return error(who + p.error().message);
    }
    return {};
}

Result<void> CullingPlugin::Impl::checkBindings(uint32_t pass, const Bindings& b) const {
    if (auto r = checkPassBindings(slots.descs(), passes[pass], b); !r) return error(r.error().message);
    return {};
}

CullingPlugin::CullingPlugin(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CullingPlugin::~CullingPlugin() = default;

Result<std::unique_ptr<CullingPlugin>> CullingPlugin::create(const DeviceInfo& dev, const CullingConfig& config) {
    return createCullingPlugin(dev, config, CullingTuning{});
}

CullingTuning& tuning(CullingPlugin& plugin) {
    return plugin.impl_->tuning;
}

const CullingTuning& tuning(const CullingPlugin& plugin) {
    return plugin.impl_->tuning;
}

Result<std::unique_ptr<CullingPlugin>> createCullingPlugin(const DeviceInfo& dev, const CullingConfig& config,
                                                           const CullingTuning& tuning) {
    using Impl = CullingPlugin::Impl;
    if (auto r = detail::checkDescribed(dev.device, dev.physical, "CullingPlugin"); !r) return r.error();
    if (const std::string m = dev.missing(kCullingNeeds); !m.empty())
        return error("the device was created without " + m + " (sieve::requirements() lists what to enable)");
    if (config.maxInstances == 0) return error("maxInstances is 0");
    if (config.framesInFlight == 0 || config.maxDrawsPerInstance == 0)
        return error("framesInFlight and maxDrawsPerInstance must be > 0");
    if (config.maxViews == 0 || config.maxViews > kMaxCullViews || config.binCount == 0 ||
        config.binCount > kMaxCullBins)
        return error("maxViews " + std::to_string(config.maxViews) + " and binCount " +
                     std::to_string(config.binCount) + " must be in 1.." + std::to_string(kMaxCullViews) + " and 1.." +
                     std::to_string(kMaxCullBins));
    if (auto r = checkDepth(dev, config); !r) return r.error();
    auto streams = layoutStreams(dev, config);
    if (!streams) return streams.error();
    if (uint64_t(config.maxInstances) * sizeof(gpu::Instance) > dev.limits.maxStorageBufferRange)
        return makeError(VK_ERROR_OUT_OF_DEVICE_MEMORY,
                         "CullingPlugin: at most " +
                             std::to_string(dev.limits.maxStorageBufferRange / sizeof(gpu::Instance)) +
                             " instances fit in one storage buffer binding on this device");
    // Per-(view, bin, instance) keys: the draw counts and offsets of one phase.
    const uint64_t keyBytes = uint64_t(config.maxInstances) * streams->size() * 4;
    if (keyBytes > dev.limits.maxStorageBufferRange || keyBytes / 4 > prim::kMaxScanElements)
        return makeError(VK_ERROR_OUT_OF_DEVICE_MEMORY,
                         "CullingPlugin: " + std::to_string(config.maxInstances) + " instances x " +
                             std::to_string(streams->size()) +
                             " streams of draw counts exceed one storage buffer binding; lower maxViews or binCount");
    auto impl = std::make_unique<Impl>(dev, config, tuning, std::move(streams).value());
    impl->instanceCount = config.maxInstances;
    impl->makeStages();
    if (auto r = createStages(impl->stages, impl->kit); !r) return r.error();
    if (auto r = impl->describe(); !r) return r.error();
    // Until the host sets its views, a stand-in that culls nothing (prepare() reports the omission).
    CullView main;
    main.desc = defaultView(impl->slots[impl->slots.find(CullingPlugin::kDepth)].extent);
    main.name = "camera";
    main.tests = 0;
    impl->views = impl->cullViews = {main};
    return std::unique_ptr<CullingPlugin>(new CullingPlugin(std::move(impl)));
}

Result<void> CullingPlugin::resize(VkExtent2D viewport) {
    impl_->config.viewport = viewport;
    return impl_->describe();
}

Result<void> CullingPlugin::setInstanceCount(uint32_t n) {
    if (auto r = checkInstanceCount("CullingPlugin", n, impl_->config.maxInstances); !r) return r;
    impl_->instanceCount = n;
    return {};
}

Result<void> CullingPlugin::setView(const ViewDesc& view) {
    CullView main;
    main.desc = view;
    main.name = "camera";
    return setViews({&main, 1});
}

Result<void> CullingPlugin::setViews(std::span<const CullView> views) {
    if (auto r = impl_->check(views); !r) return r;
    impl_->views.assign(views.begin(), views.end());
    impl_->viewsSet = true;
    return {};
}

uint32_t CullingPlugin::viewCount() const {
    return uint32_t(impl_->views.size());
}

StreamRange CullingPlugin::stream(uint32_t view, uint32_t bin) const {
    const CullingConfig& c = impl_->config;
    if (view >= c.maxViews || bin >= c.binCount) return {};
    const uint32_t s = gpu::sieveStream(view, bin, c.binCount);
    const gpu::DrawStream& d = impl_->kit.streams()[s];
    return {VkDeviceSize(d.base) * sizeof(gpu::DrawCommand), VkDeviceSize(s) * sizeof(gpu::DrawCounts), d.capacity};
}

const char* viewKindName(ViewKind kind) {
    switch (kind) {
        case ViewKind::Camera: return "camera";
        case ViewKind::Shadow: return "shadow";
        case ViewKind::Light: return "light";
        case ViewKind::Other: break;
    }
    return "other";
}

uint32_t CullingPlugin::pass(PassRole role) const {
    return impl_->roles[uint32_t(role)];
}

CullingPlugin::Paths CullingPlugin::paths() const {
    Paths p;
    p.singleDispatchHiZ =
        HiZBuilder::singlePassFits(impl_->kit.dev()) && impl_->config.depthSamples == VK_SAMPLE_COUNT_1_BIT;
    p.packedLookback = impl_->tuning.scan.packedLookbackStatus && impl_->kit.dev().bufferInt64Atomics;
    return p;
}

CullingToggles& CullingPlugin::toggles() {
    return impl_->toggles;
}
const CullingStats& CullingPlugin::stats() const {
    return impl_->kit.stats();
}
uint32_t CullingPlugin::drawCapacity() const {
    return impl_->kit.streams()[0].capacity;
}
const CullingConfig& CullingPlugin::config() const {
    return impl_->config;
}
std::span<const SlotDesc> CullingPlugin::slots() const {
    return impl_->slots.descs();
}
std::span<const PassDesc> CullingPlugin::passes() const {
    return impl_->passes;
}
SlotId CullingPlugin::slot(std::string_view name) const {
    return impl_->slots.find(name);
}

// The frame's slot: the one the host gave, or where it does not match the configuration (an error), the one
// the configuration gives, so that the frame still records and nothing the GPU may still read is overwritten.
FrameInfo CullingPlugin::Impl::frameSlot(const FrameInfo& frame, Result<void>& result) {
    FrameInfo info = frame;
    if (frame.framesInFlight == config.framesInFlight && frame.frameSlot == frame.frameIndex % config.framesInFlight)
        return info;
    result =
        error("FrameInfo: frame " + std::to_string(frame.frameIndex) + " in slot " + std::to_string(frame.frameSlot) +
              " of " + std::to_string(frame.framesInFlight) + " does not match the configured " +
              std::to_string(config.framesInFlight) + " frames in flight (slot = frameIndex % framesInFlight)");
    info.framesInFlight = config.framesInFlight;
    info.frameSlot = uint32_t(frame.frameIndex % config.framesInFlight);
    return info;
}

// The test bits view v runs: those it asks for among those switched on (`on`), the distance test where there
// is a distance, two-phase for the main view, SIEVE_CULL_EARLY for the others.
uint32_t CullingPlugin::Impl::viewBits(const CullView& view, size_t v, uint32_t on) const {
    uint32_t bits = view.tests & on;
    // The distance test runs where there is a distance to test: the view's, or the instances' own.
    if (config.instanceCullDistances)
        bits |= gpu::SIEVE_CULL_INSTANCE_DISTANCE;
    else if (!(view.drawDistance > 0.0f))
        bits &= ~gpu::SIEVE_CULL_DISTANCE;
    // Only the main view splits its set between the phases (two-phase occlusion).
    if (v == 0 && toggles.twoPhase && (view.tests & gpu::SIEVE_CULL_OCCLUSION)) bits |= gpu::SIEVE_CULL_TWO_PHASE;
    // The others are done in the early pass: their streams are ready before the host's first draw.
    if (v > 0) bits |= gpu::SIEVE_CULL_EARLY;
    return bits;
}

// Every culled view's parameters into f.views. A view whose parameters fail still draws every instance of
// its kinds (nothing culled, through a stand-in camera), so that the picture stays whole; the first such
// error goes to `result`. Returns whether the main view fell back; fails only if the stand-in does.
Result<bool> CullingPlugin::Impl::frameViews(FrameState& f, uint32_t on, Result<void>& result) {
    f.views.clear();
    f.viewInfo.clear();
    bool mainFallback = false;
    for (size_t v = 0; v < cullViews.size(); ++v) {
        const CullView& view = cullViews[v];
        auto p = params(view, uint32_t(v), viewBits(view, v, on));
        if (!p) {
            if (result) result = p.error();
            mainFallback = mainFallback || v == 0;
            CullView fallback = view;
            fallback.desc = defaultView(slots[slots.find(kDepth)].extent);
            // (Views past the main one keep their phase: they are drawn from the early streams.)
            p = params(fallback, 0, v > 0 ? gpu::SIEVE_CULL_EARLY : 0u);
            if (!p) return p.error();
            p->debugRadiusShrink = 0.0f;
        }
        f.views.push_back(p.value());
        CullingViewStats info;
        info.name = viewName(view, v);
        info.kind = view.kind;
        f.viewInfo.push_back(std::move(info));
    }
    return mainFallback;
}

Result<void> CullingPlugin::prepare(const FrameInfo& frame) {
    clearError();
    Impl& m = *impl_;
    m.prepared = false;
    m.frameFailed = false;
    Result<void> result;
    if (!m.viewsSet)  // the frame records, drawing everything (the stand-in view tests nothing)
        result = error(
            "prepare(): no views: call setView() or setViews() first (the plugin does not guess a camera); this "
            "frame culls nothing");
    // Toggles are sampled once per frame so that every pass of the frame agrees.
    const CullingToggles& t = m.toggles;
    FrameState& f = m.frame;
    f.info = m.frameSlot(frame, result);
    f.instanceCount = m.instanceCount;
    f.singlePhase = !t.twoPhase;
    f.frozen = t.freeze;
    f.stable = m.tuning.stable;
    f.singleDispatchHiZ = m.tuning.singleDispatchHiZ;
    // The split needs the candidate list, declared only where the plugin was created with a split.
    f.lateSplit =
        m.kit.tuning().lateSplit == CullLayout::LateSplit::Off ? CullLayout::LateSplit::Off : m.tuning.lateSplit;
    f.initPersistent = m.persistentFresh;
    if (!f.frozen || m.frozenStale) m.cullViews = m.views;
    m.frozenStale = false;
    f.check = t.checkCulling && !f.frozen;
    uint32_t on = t.lod ? gpu::SIEVE_CULL_LOD : 0u;
    for (const CullTest& test : kCullTests) on |= t.*test.toggle ? test.bit : 0u;
    auto mainFallback = m.frameViews(f, on, result);
    if (!mainFallback) return fail(mainFallback.error());
    f.lateViews = f.singlePhase ? 0u : 1u;
    m.chooseOcclusionCamera(f, *mainFallback);
    m.persistentFresh = false;
    m.prepared = true;
    if (!result) return fail(result.error());
    return result;
}

// The single-phase test and a frozen view read an earlier frame's pyramid: the occlusion test projects
// through the camera of the frame that built it, so that each sphere is looked up where that camera saw it
// (the current camera against the old depth would compare unrelated places). Only a pyramid this plugin
// built from its own frames means anything (host memory starts as anything, and a zero max channel would
// read as "nearest" under standard Z): until then, no occlusion.
void CullingPlugin::Impl::chooseOcclusionCamera(FrameState& f, bool mainFallback) {
    const bool pyramidThisFrame = !f.frozen;
    const bool readsOldPyramid = f.singlePhase || !pyramidThisFrame;
    gpu::CullParams& main = f.views[0];
    if (readsOldPyramid && !pyramidCamera) main.toggles &= ~gpu::SIEVE_CULL_OCCLUSION;
    f.occlusion = readsOldPyramid && pyramidCamera ? *pyramidCamera : main;
    f.occlusion.debugRadiusShrink = main.debugRadiusShrink;
    // A pyramid built from the depth of a camera the plugin could not read has no camera to look it up with.
    if (pyramidThisFrame) pyramidCamera = mainFallback ? std::nullopt : std::optional(main);
}

// A streams pass that fails still writes its phase's counts: zero, so the phase draws nothing and a host
// that draws the counts after an error never reads what the memory held. Only where the counts binding
// itself is usable (a missing or short one cannot be written: the host's own error). The fill is inside
// the pass's declared uses (transfer write of the counts).
const char* CullingPlugin::Impl::countsOf(uint32_t pass) const {
    return pass == roles[uint32_t(PassRole::EarlyStreams)]  ? kCountsEarly
           : pass == roles[uint32_t(PassRole::LateStreams)] ? kCountsLate
                                                            : nullptr;
}

void CullingPlugin::Impl::writeEmptyCounts(uint32_t pass, VkCommandBuffer cmd, const Bindings& b) const {
    const char* name = countsOf(pass);
    if (!name || !cmd) return;
    const SlotId s = slots.find(name);
    if (s == kNoSlot || s >= b.slots.size() || !b[s].buffer) return;
    const VkDeviceSize bytes = slots[s].size;
    if ((b[s].size && b[s].size < bytes) || b[s].offset % 4) return;
    vkCmdFillBuffer(cmd, b[s].buffer, b[s].offset, bytes, 0);
}

Result<void> CullingPlugin::record(uint32_t pass, VkCommandBuffer cmd, const Bindings& b, const FrameInfo& frame) {
    Impl& m = *impl_;
    if (pass >= m.stages.size()) return fail(error("no pass " + std::to_string(pass)));
    auto refuse = [&](Error e) {
        m.frameFailed = true;
        // The persistent slots' initialisation may not have reached the command buffer: again next frame.
        if (m.frame.initPersistent) m.persistentFresh = true;
        m.writeEmptyCounts(pass, cmd, b);
        return fail(std::move(e));
    };
    if (!m.prepared || frame.frameIndex != m.frame.info.frameIndex)
        return refuse(error("record() of frame " + std::to_string(frame.frameIndex) + " without its prepare()"));
    // After a failed pass the later streams would be built from what it did not write: empty instead.
    if (m.frameFailed && m.countsOf(pass))
        return refuse(error("pass " + m.passes[pass].name + ": an earlier pass of frame " +
                            std::to_string(frame.frameIndex) + " failed; its streams are empty"));
    if (auto r = m.checkBindings(pass, b); !r) return refuse(r.error());
    if (auto r = m.stages[pass]->record(cmd, b, m.frame); !r) return refuse(r.error());
    return {};
}

}  // namespace sieve
