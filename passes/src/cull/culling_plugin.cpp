#include <cstring>
#include <string>

#include "prim/common.h"
#include "sieve/barriers.h"
#include "sieve/culling.h"

namespace sieve {

namespace {

// One frame's record in the readback ring: tag, then the counters and both draw-list counts.
struct StatsRecord {
    uint32_t frameLo, frameHi, instances, valid;
    gpu::CullCounters counters;
    gpu::DrawCounts early;
    gpu::DrawCounts late;
};
static_assert(sizeof(StatsRecord) == 64);

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
constexpr VkBufferUsageFlags kCopySrc = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;

VkDeviceSize alignUp(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }

void transferToCompute(VkCommandBuffer cmd) {
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

}  // namespace

Result<std::unique_ptr<CullingPlugin>> CullingPlugin::create(const DeviceInfo& dev, const CullingConfig& config) {
    if (config.maxInstances == 0) return makeError(VK_ERROR_INITIALIZATION_FAILED, "CullingPlugin: maxInstances is 0");
    if (config.framesInFlight == 0 || config.maxDrawsPerInstance == 0)
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "CullingPlugin: framesInFlight and maxDrawsPerInstance must be > 0");
    const uint64_t wanted = config.drawCapacity ? config.drawCapacity
                                                : uint64_t(config.maxInstances) * config.maxDrawsPerInstance;
    const uint64_t maxByRange = dev.limits.maxStorageBufferRange / sizeof(gpu::DrawCommand);
    const uint64_t maxByDraw = dev.limits.maxDrawIndirectCount;
    if (wanted > maxByRange || wanted > maxByDraw)
        return makeError(VK_ERROR_OUT_OF_DEVICE_MEMORY,
                         "CullingPlugin: a draw list of " + std::to_string(wanted) +
                             " records exceeds the device (maxStorageBufferRange allows " + std::to_string(maxByRange) +
                             ", maxDrawIndirectCount " + std::to_string(maxByDraw) + "); lower drawCapacity");
    if (uint64_t(config.maxInstances) * sizeof(gpu::Instance) > dev.limits.maxStorageBufferRange)
        return makeError(VK_ERROR_OUT_OF_DEVICE_MEMORY,
                         "CullingPlugin: at most " +
                             std::to_string(dev.limits.maxStorageBufferRange / sizeof(gpu::Instance)) +
                             " instances fit in one storage buffer binding on this device");
    std::unique_ptr<CullingPlugin> p(new CullingPlugin());
    p->dev_ = dev;
    p->config_ = config;
    p->capacity_ = uint32_t(wanted);
    p->instanceCount_ = config.maxInstances;
    auto flags = CullFlagPass::create(dev);
    if (!flags) return flags.error();
    p->flags_ = std::move(flags).value();
    auto list = DrawListBuilder::create(dev, config.scan);
    if (!list) return list.error();
    p->drawList_ = std::move(list).value();
    auto hiz = HiZBuilder::create(dev);
    if (!hiz) return hiz.error();
    p->hiz_ = std::move(hiz).value();
    p->paramsStride_ = alignUp(sizeof(gpu::CullParams), dev.limits.minUniformBufferOffsetAlignment);
    p->describe();
    return p;
}

void CullingPlugin::describe() {
    slots_.clear();
    passes_.clear();
    const uint64_t n = config_.maxInstances;
    auto buffer = [&](const char* name, Lifetime life, VkDeviceSize size, VkBufferUsageFlags usage,
                      Memory memory = Memory::Device) {
        SlotDesc d;
        d.name = name;
        d.kind = SlotKind::Buffer;
        d.lifetime = life;
        d.size = size;
        d.bufferUsage = usage;
        d.memory = memory;
        slots_.push_back(d);
        return SlotId(slots_.size() - 1);
    };
    auto image = [&](const char* name, Lifetime life, VkFormat format, VkExtent2D extent, uint32_t mips,
                     VkImageUsageFlags usage) {
        SlotDesc d;
        d.name = name;
        d.kind = SlotKind::Image;
        d.lifetime = life;
        d.format = format;
        d.extent = extent;
        d.mipLevels = mips;
        d.imageUsage = usage;
        slots_.push_back(d);
        return SlotId(slots_.size() - 1);
    };
    const VkDeviceSize perInstance = std::max<uint64_t>(n, 1) * 4;
    sInstances_ = buffer(kInstances, Lifetime::Imported, n * sizeof(gpu::Instance), kStorage);
    sMeshes_ = buffer(kMeshes, Lifetime::Imported, sizeof(gpu::Mesh), kStorage);
    sPrimitives_ = buffer(kPrimitives, Lifetime::Imported, sizeof(gpu::MeshPrimitive), kStorage);
    VkExtent2D depthExtent = config_.viewport.width ? config_.viewport : VkExtent2D{1, 1};
    sDepth_ = image(kDepth, Lifetime::Imported, VK_FORMAT_D32_SFLOAT, depthExtent, 1, VK_IMAGE_USAGE_SAMPLED_BIT);
    sParams_ = buffer("cull.params", Lifetime::Persistent, paramsStride_ * config_.framesInFlight,
                      VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, Memory::Upload);
    sVisibility_ = buffer("cull.visibility", Lifetime::Persistent, perInstance, kStorage);
    const VkExtent2D pyramid = HiZBuilder::pyramidExtent(depthExtent);
    sPyramid_ = image(kPyramid, Lifetime::Persistent, kHiZFormat, pyramid, HiZBuilder::mipCount(pyramid), kHiZUsage);
    sHiZCounter_ = buffer("hiz.counter", Lifetime::Persistent, HiZBuilder::counterBytes(), kStorage);
    sCounters_ = buffer("cull.counters", Lifetime::Transient, sizeof(gpu::CullCounters),
                        kStorage | kCopySrc | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    sStats_ = buffer("cull.stats", Lifetime::Persistent, sizeof(StatsRecord) * config_.framesInFlight,
                     VK_BUFFER_USAGE_TRANSFER_DST_BIT, Memory::Readback);
    sScratch_ = buffer("scan.scratch", Lifetime::Transient, std::max<VkDeviceSize>(drawList_.scratchBytes(n), 16), kStorage);
    const VkDeviceSize drawBytes = VkDeviceSize(capacity_) * sizeof(gpu::DrawCommand);
    const VkBufferUsageFlags drawUsage = kStorage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | kCopySrc;
    early_ = {buffer("flags.early", Lifetime::Transient, perInstance, kStorage),
              buffer("drawcounts.early", Lifetime::Transient, perInstance, kStorage),
              buffer("lods.early", Lifetime::Transient, perInstance, kStorage),
              buffer("offsets.early", Lifetime::Transient, perInstance, kStorage),
              buffer(kDrawsEarly, Lifetime::Transient, drawBytes, drawUsage),
              buffer(kCountsEarly, Lifetime::Transient, sizeof(gpu::DrawCounts),
                     drawUsage | VK_BUFFER_USAGE_TRANSFER_DST_BIT)};
    late_ = {buffer("flags.late", Lifetime::Transient, perInstance, kStorage),
             buffer("drawcounts.late", Lifetime::Transient, perInstance, kStorage),
             buffer("lods.late", Lifetime::Transient, perInstance, kStorage),
             buffer("offsets.late", Lifetime::Transient, perInstance, kStorage),
             buffer(kDrawsLate, Lifetime::Transient, drawBytes, drawUsage),
             buffer(kCountsLate, Lifetime::Transient, sizeof(gpu::DrawCounts),
                    drawUsage | VK_BUFFER_USAGE_TRANSFER_DST_BIT)};

    using namespace use;
    auto sceneReads = [&](std::vector<ResourceUse>& u) {
        u.push_back(storageRead(sInstances_));
        u.push_back(storageRead(sMeshes_));
        u.push_back(storageRead(sPrimitives_));
    };
    auto flagPass = [&](const char* name, const Phase& ph, bool late) {
        PassDesc d;
        d.name = name;
        d.uses.push_back(uniformRead(sParams_));
        sceneReads(d.uses);
        // Both slots may run either shader (single phase runs the full test early): declare the union.
        d.uses.push_back(storageReadWrite(sVisibility_));
        d.uses.push_back(sampledImage(sPyramid_));
        if (late) d.uses.push_back(storageRead(early_.flags));
        d.uses.push_back(storageWrite(ph.flags));
        d.uses.push_back(storageWrite(ph.drawCounts));
        d.uses.push_back(storageWrite(ph.lods));
        if (!late) d.uses.push_back(transferWrite(sCounters_));
        d.uses.push_back(storageReadWrite(sCounters_));
        return d;
    };
    auto compactPass = [&](const char* name, const Phase& ph) {
        PassDesc d;
        d.name = name;
        sceneReads(d.uses);
        d.uses.push_back(storageRead(ph.drawCounts));
        d.uses.push_back(storageRead(ph.lods));
        d.uses.push_back(storageReadWrite(ph.offsets));
        d.uses.push_back(storageReadWrite(sScratch_));
        d.uses.push_back(storageWrite(ph.draws));
        d.uses.push_back(transferWrite(ph.counts));
        d.uses.push_back(storageReadWrite(ph.counts));
        return d;
    };
    passes_.push_back(flagPass("cull.early.flag", early_, false));
    passes_.push_back(compactPass("cull.early.compact", early_));
    PassDesc hiz;
    hiz.name = "hiz.build";
    hiz.uses = {depthSampled(sDepth_), storageImageWrite(sPyramid_), storageReadWrite(sHiZCounter_)};
    passes_.push_back(hiz);
    passes_.push_back(flagPass("cull.late.flag", late_, true));
    passes_.push_back(compactPass("cull.late.compact", late_));
    PassDesc stats;
    stats.name = "cull.stats";
    stats.sideEffect = true;
    stats.uses = {transferRead(sCounters_), transferRead(early_.counts), transferRead(late_.counts),
                  transferWrite(sStats_)};
    passes_.push_back(stats);
}

void CullingPlugin::resize(VkExtent2D viewport) {
    config_.viewport = viewport;
    describe();
}

Result<void> CullingPlugin::setInstanceCount(uint32_t n) {
    if (n > config_.maxInstances)
        return makeError(VK_ERROR_INITIALIZATION_FAILED, "CullingPlugin: " + std::to_string(n) +
                                                             " instances exceed maxInstances " +
                                                             std::to_string(config_.maxInstances));
    instanceCount_ = n;
    return {};
}

void CullingPlugin::setCamera(const gpu::mat4& view, const gpu::mat4& proj) {
    view_ = view;
    proj_ = proj;
}

SlotId CullingPlugin::slot(std::string_view name) const {
    for (size_t i = 0; i < slots_.size(); ++i)
        if (slots_[i].name == name) return SlotId(i);
    return kNoSlot;
}

void CullingPlugin::prepare(const FrameInfo& frame) {
    // Toggles are sampled once per frame so that every pass of the frame agrees.
    singlePhase_ = !toggles_.twoPhase;
    frozen_ = toggles_.freeze;
    stable_ = toggles_.stable;
    singleDispatch_ = toggles_.singleDispatchHiZ && hiz_.singlePassSupported();
    if (!frozen_) {
        cullView_ = view_;
        cullProj_ = proj_;
    }
    CullSettings settings;
    settings.toggles = (toggles_.frustum ? gpu::SIEVE_CULL_FRUSTUM : 0u) |
                       (toggles_.occlusion ? gpu::SIEVE_CULL_OCCLUSION : 0u) | (toggles_.lod ? gpu::SIEVE_CULL_LOD : 0u) |
                       (toggles_.twoPhase ? gpu::SIEVE_CULL_TWO_PHASE : 0u);
    settings.lodThreshold = toggles_.lodThreshold;
    settings.lodBias = toggles_.lodBias;
    const SlotDesc& pyramid = slots_[sPyramid_];
    // Until setView: the host draws with a positive viewport over the configured depth extent.
    const VkExtent2D depth = config_.viewport.width ? config_.viewport : VkExtent2D{1, 1};
    const ViewDesc viewDesc{cullView_, cullProj_, {0.0f, 0.0f, float(depth.width), float(depth.height), 0.0f, 1.0f}};
    auto params = makeCullParams(viewDesc, pyramid.extent, pyramid.mipLevels, instanceCount_, settings);
    if (!params) {
        lastError_ = params.error().message;
        return;
    }
    params_ = params.value();
}

BufferRange CullingPlugin::range(const Bindings& b, SlotId s) const {
    // Imported tables are as large as the host made them; the declared size is only a minimum.
    return {b[s].buffer, b[s].offset, b[s].size ? b[s].size : slots_[s].size};
}

BufferRange CullingPlugin::paramsRange(const Bindings& b, const FrameInfo& frame) const {
    return {b[sParams_].buffer, b[sParams_].offset + paramsStride_ * frame.frameSlot, sizeof(gpu::CullParams)};
}

void CullingPlugin::record(uint32_t pass, VkCommandBuffer cmd, const Bindings& b, const FrameInfo& frame) {
    switch (pass) {
    case kEarlyFlag: recordFlags(false, cmd, b, frame); break;
    case kEarlyCompact: recordCompact(false, cmd, b, frame); break;
    case kHiZ: recordHiZ(cmd, b); break;
    case kLateFlag: recordFlags(true, cmd, b, frame); break;
    case kLateCompact: recordCompact(true, cmd, b, frame); break;
    case kStats: recordStats(cmd, b, frame); break;
    default: lastError_ = "CullingPlugin: no pass " + std::to_string(pass);
    }
}

void CullingPlugin::recordFlags(bool late, VkCommandBuffer cmd, const Bindings& b, const FrameInfo& frame) {
    const Phase& ph = late ? late_ : early_;
    if (!late) {
        // The readback slot of this frame slot was written framesInFlight frames ago and the host has
        // waited for that frame's fence before recording this one.
        if (const auto* rec = static_cast<const StatsRecord*>(b[sStats_].mapped)) {
            const StatsRecord& r = rec[frame.frameSlot];
            if (r.valid) {
                stats_.valid = true;
                stats_.frame = uint64_t(r.frameHi) << 32 | r.frameLo;
                stats_.instances = r.instances;
                stats_.frustumVisible = r.counters.frustumVisible;
                stats_.earlyDrawn = r.counters.earlyDrawn;
                stats_.lateVisible = r.counters.lateVisible;
                stats_.lateDrawn = r.counters.lateDrawn;
                stats_.early = r.early;
                stats_.late = r.late;
            }
        }
        if (auto* dst = static_cast<char*>(b[sParams_].mapped))
            std::memcpy(dst + paramsStride_ * frame.frameSlot, &params_, sizeof(params_));
        vkCmdFillBuffer(cmd, b[sCounters_].buffer, b[sCounters_].offset, sizeof(gpu::CullCounters), 0);
        transferToCompute(cmd);
    }
    CullPhaseBuffers buffers{paramsRange(b, frame), range(b, sInstances_), range(b, sMeshes_), range(b, sPrimitives_),
                             range(b, sVisibility_), range(b, ph.flags),   range(b, ph.drawCounts),
                             range(b, ph.lods),      range(b, sCounters_)};
    const VkImageView pyramid = b[sPyramid_].view;
    const VkImageLayout layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    if (!late) {
        // Single phase: the full test against the previous frame's pyramid, in the early slot.
        if (singlePhase_)
            flags_.recordLate(cmd, buffers, range(b, late_.flags), pyramid, layout, instanceCount_);
        else
            flags_.recordEarly(cmd, buffers, instanceCount_);
        return;
    }
    if (!singlePhase_) flags_.recordLate(cmd, buffers, range(b, early_.flags), pyramid, layout, instanceCount_);
}

void CullingPlugin::recordCompact(bool late, VkCommandBuffer cmd, const Bindings& b, const FrameInfo&) {
    const Phase& ph = late ? late_ : early_;
    // In single phase the late slot has no flags this frame: an empty list.
    const uint32_t n = (late && singlePhase_) ? 0 : instanceCount_;
    DrawListBuffers buffers{range(b, sInstances_), range(b, sMeshes_), range(b, sPrimitives_),
                            range(b, ph.drawCounts), range(b, ph.lods),  range(b, ph.offsets),
                            range(b, sScratch_),     range(b, ph.draws), range(b, ph.counts)};
    auto r = drawList_.record(cmd, buffers, n, capacity_, config_.maxDrawsPerInstance,
                              stable_ ? DrawOrder::Stable : DrawOrder::AtomicAppend);
    if (!r) lastError_ = r.error().message;
}

void CullingPlugin::recordHiZ(VkCommandBuffer cmd, const Bindings& b) {
    // Frozen: the pyramid of the frozen view stays (occlusion keeps testing against it).
    if (frozen_) return;
    // The graph leaves the pyramid in GENERAL for this pass (storage image write).
    HiZSource src{b[sDepth_].view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, slots_[sDepth_].extent};
    HiZTarget dst{b[sPyramid_].image, b[sPyramid_].mipViews};
    auto r = singleDispatch_ ? hiz_.recordSingle(cmd, src, dst, range(b, sHiZCounter_)) : hiz_.recordPerMip(cmd, src, dst);
    if (!r) lastError_ = r.error().message;
}

void CullingPlugin::recordStats(VkCommandBuffer cmd, const Bindings& b, const FrameInfo& frame) {
    const VkDeviceSize base = b[sStats_].offset + sizeof(StatsRecord) * frame.frameSlot;
    const uint32_t header[4] = {uint32_t(frame.frameIndex), uint32_t(frame.frameIndex >> 32), instanceCount_, 1u};
    vkCmdUpdateBuffer(cmd, b[sStats_].buffer, base, sizeof(header), header);
    VkBufferCopy counters{b[sCounters_].offset, base + offsetof(StatsRecord, counters), sizeof(gpu::CullCounters)};
    VkBufferCopy early{b[early_.counts].offset, base + offsetof(StatsRecord, early), sizeof(gpu::DrawCounts)};
    VkBufferCopy late{b[late_.counts].offset, base + offsetof(StatsRecord, late), sizeof(gpu::DrawCounts)};
    vkCmdCopyBuffer(cmd, b[sCounters_].buffer, b[sStats_].buffer, 1, &counters);
    vkCmdCopyBuffer(cmd, b[early_.counts].buffer, b[sStats_].buffer, 1, &early);
    vkCmdCopyBuffer(cmd, b[late_.counts].buffer, b[sStats_].buffer, 1, &late);
    // Make the copies visible to the host once the frame's fence is signalled.
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
}

}  // namespace sieve
