#include "engine/graph/executor.h"

#include <algorithm>
#include <bit>

#include "engine/vk/context.h"
#include "sieve/barriers.h"
#include "sieve/depth_format.h"
#include "sieve/gpu.h"

namespace engine::graph {

namespace {

sieve::Error graphError(const std::string& message) {
    return sieve::makeError(VK_ERROR_VALIDATION_FAILED_EXT, "render graph: " + message);
}

bool owned(const CompiledSlot& s) {
    return s.used && s.desc.lifetime != sieve::Lifetime::Imported;
}

}  // namespace

GraphExecutor::GraphExecutor(Context& ctx, CompiledGraph graph, uint32_t framesInFlight)
    : ctx_(ctx), graph_(std::move(graph)), framesInFlight_(framesInFlight) {}

sieve::Result<std::unique_ptr<GraphExecutor>> GraphExecutor::create(Context& ctx, CompiledGraph graph,
                                                                    uint32_t framesInFlight) {
    if (framesInFlight == 0) return graphError("framesInFlight must be at least 1");
    std::unique_ptr<GraphExecutor> ex(new GraphExecutor(ctx, std::move(graph), framesInFlight));
    const size_t slots = ex->graph_.slots.size();
    ex->bindings_.resize(slots);
    ex->buffers_.resize(slots);
    ex->images_.resize(slots);
    ex->skipBarriers_.assign(ex->graph_.passes.size(), false);

    std::vector<SlotId> persistent;
    for (SlotId s = 0; s < slots; ++s) {
        if (!owned(ex->graph_.slots[s])) continue;
        if (auto r = ex->allocate(s); !r) return r.error();
        if (ex->graph_.slots[s].desc.lifetime == sieve::Lifetime::Persistent) persistent.push_back(s);
    }
    if (auto r = ex->initializePersistent(persistent); !r) return r.error();

    // Timestamps: a scope per pass, one pool per frame in flight (none on a queue without timestamps).
    if (!ex->graph_.passes.empty()) {
        auto t =
            GpuTimestamps::create(ctx, uint32_t(ex->graph_.passes.size()), framesInFlight, "render graph timestamps");
        if (t)
            ex->timestamps_.emplace(std::move(t).value());
        else if (t.error().code != VK_ERROR_FEATURE_NOT_PRESENT)
            return t.error();
    }
    return ex;
}

GraphExecutor::~GraphExecutor() = default;

sieve::Result<void> GraphExecutor::allocate(SlotId s) {
    const sieve::SlotDesc& d = graph_.slots[s].desc;
    const bool persistent = d.lifetime == sieve::Lifetime::Persistent;
    sieve::SlotBinding& b = bindings_[s];
    if (d.kind == sieve::SlotKind::Buffer) {
        if (d.size == 0) return graphError("slot '" + d.name + "': a buffer of size 0");
        // Persistent buffers are zeroed with vkCmdFillBuffer once.
        VkBufferUsageFlags usage = d.bufferUsage | (persistent ? VK_BUFFER_USAGE_TRANSFER_DST_BIT : 0);
        // The plugins' Upload slots are per-frame parameters that shaders read every frame.
        const MemoryUsage memory = d.memory == sieve::Memory::Upload     ? MemoryUsage::Stream
                                   : d.memory == sieve::Memory::Readback ? MemoryUsage::Readback
                                                                         : MemoryUsage::DeviceLocal;
        auto buf = Buffer::create(ctx_, d.size, usage, memory, d.name.c_str());
        if (!buf) return buf.error();
        buffers_[s] = std::move(buf).value();
        b = {};
        b.buffer = buffers_[s].handle();
        b.size = d.size;
        b.mapped = d.memory == sieve::Memory::Device ? nullptr : buffers_[s].mapped();
        return {};
    }
    const uint32_t maxMips = std::bit_width(std::max(d.extent.width, d.extent.height));
    if (d.extent.width == 0 || d.extent.height == 0 || d.mipLevels == 0 || d.mipLevels > maxMips)
        return graphError("slot '" + d.name + "': an image of " + std::to_string(d.extent.width) + "x" +
                          std::to_string(d.extent.height) + " cannot have " + std::to_string(d.mipLevels) + " mip(s)");
    ImageDesc desc;
    desc.format = d.format;
    desc.extent = d.extent;
    desc.mipLevels = d.mipLevels;
    desc.samples = d.samples;
    desc.usage = d.imageUsage | (persistent ? VK_IMAGE_USAGE_TRANSFER_DST_BIT : 0);
    desc.name = d.name.c_str();
    auto img = Image::create(ctx_, desc);
    if (!img) return img.error();
    images_[s] = std::move(img).value();
    const Image& image = images_[s];
    b = {};
    b.image = image.handle();
    b.view = image.view();
    for (uint32_t m = 0; m < image.mipLevels(); ++m) b.mipViews.push_back(image.mipView(m));
    b.extent = image.extent();
    return {};
}

// Frame 0 must find persistent slots as every later frame does: zeroed contents, images in their entry
// layouts.
sieve::Result<void> GraphExecutor::initializePersistent(const std::vector<SlotId>& slots) {
    if (slots.empty()) return {};
    return ctx_.submitNow([&](VkCommandBuffer cmd) {
        std::vector<VkImageMemoryBarrier2> toDst, toEntry;
        for (SlotId s : slots) {
            if (!images_[s]) continue;
            const sieve::Dependency discard{.dstStage = VK_PIPELINE_STAGE_2_CLEAR_BIT,
                                            .dstAccess = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                            .newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL};
            toDst.push_back(sieve::imageMemoryBarrier(images_[s].handle(), images_[s].transitionRange(), discard));
        }
        VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        dep.imageMemoryBarrierCount = static_cast<uint32_t>(toDst.size());
        dep.pImageMemoryBarriers = toDst.data();
        vkCmdPipelineBarrier2(cmd, &dep);

        for (SlotId s : slots) {
            if (buffers_[s]) vkCmdFillBuffer(cmd, buffers_[s].handle(), 0, VK_WHOLE_SIZE, 0);
            if (!images_[s]) continue;
            const Image& img = images_[s];
            const VkImageSubresourceRange range = img.fullRange();
            if (isDepthFormat(img.format())) {
                VkClearDepthStencilValue zero{0.0f, 0};
                vkCmdClearDepthStencilImage(cmd, img.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &range);
            } else {
                VkClearColorValue zero{};
                vkCmdClearColorImage(cmd, img.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &range);
            }
            const std::vector<VkImageLayout>& entry = graph_.slots[s].entryLayouts;
            for (uint32_t m = 0; m < entry.size(); ++m) {
                if (entry[m] == VK_IMAGE_LAYOUT_UNDEFINED) continue;  // no pass touches this mip
                const sieve::Dependency toLayout{
                    VK_PIPELINE_STAGE_2_CLEAR_BIT,        VK_ACCESS_2_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                    VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, entry[m]};
                toEntry.push_back(
                    sieve::imageMemoryBarrier(img.handle(), {img.transitionRange().aspectMask, m, 1, 0, 1}, toLayout));
            }
        }
        // Buffers: the clears before everything that follows (set-up only, so the broad barrier is fine).
        VkMemoryBarrier2 cleared{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
        cleared.srcStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT;
        cleared.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
        cleared.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        cleared.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
        dep = {VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        dep.memoryBarrierCount = 1;
        dep.pMemoryBarriers = &cleared;
        dep.imageMemoryBarrierCount = static_cast<uint32_t>(toEntry.size());
        dep.pImageMemoryBarriers = toEntry.data();
        vkCmdPipelineBarrier2(cmd, &dep);
    });
}

SlotId GraphExecutor::slot(std::string_view name) const {
    for (size_t s = 0; s < graph_.slots.size(); ++s)
        if (graph_.slots[s].desc.name == name) return static_cast<SlotId>(s);
    return sieve::kNoSlot;
}

sieve::Result<void> GraphExecutor::bindImported(SlotId s, const sieve::SlotBinding& binding) {
    if (s >= graph_.slots.size()) return graphError("bindImported: slot " + std::to_string(s) + " out of range");
    const sieve::SlotDesc& d = graph_.slots[s].desc;
    if (d.lifetime != sieve::Lifetime::Imported)
        return graphError("bindImported: slot '" + d.name + "' is not imported");
    const bool image = d.kind == sieve::SlotKind::Image;
    if (image ? binding.image == VK_NULL_HANDLE : binding.buffer == VK_NULL_HANDLE)
        return graphError("bindImported: slot '" + d.name + "' needs " + (image ? "an image" : "a buffer"));
    bindings_[s] = binding;
    return {};
}

sieve::Result<void> GraphExecutor::bindImported(std::string_view name, const sieve::SlotBinding& binding) {
    SlotId s = slot(name);
    if (s == sieve::kNoSlot) return graphError("bindImported: no slot named '" + std::string(name) + "'");
    return bindImported(s, binding);
}

void GraphExecutor::skipBarriersBeforePass(std::string_view name) {
    for (size_t p = 0; p < graph_.passes.size(); ++p)
        if (graph_.passes[p].desc.name == name) skipBarriers_[p] = true;
}

void GraphExecutor::issue(VkCommandBuffer cmd, const Barriers& barriers) const {
    if (barriers.empty()) return;
    std::vector<VkBufferMemoryBarrier2> buffers;
    for (const BufferBarrier& x : barriers.buffers) {
        const sieve::SlotBinding& b = bindings_[x.slot];
        buffers.push_back(
            sieve::bufferMemoryBarrier(b.buffer, b.offset, b.size, {x.srcStage, x.srcAccess, x.dstStage, x.dstAccess}));
    }
    std::vector<VkImageMemoryBarrier2> images;
    for (const ImageBarrier& x : barriers.images) {
        const VkImageAspectFlags aspect = sieve::transitionAspects(graph_.slots[x.slot].desc.format, x.aspect);
        images.push_back(
            sieve::imageMemoryBarrier(bindings_[x.slot].image, {aspect, x.baseMip, x.mipCount, 0, 1}, x.dep));
    }
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.bufferMemoryBarrierCount = static_cast<uint32_t>(buffers.size());
    dep.pBufferMemoryBarriers = buffers.data();
    dep.imageMemoryBarrierCount = static_cast<uint32_t>(images.size());
    dep.pImageMemoryBarriers = images.data();
    vkCmdPipelineBarrier2(cmd, &dep);
}

sieve::Result<void> GraphExecutor::execute(VkCommandBuffer cmd, const sieve::FrameInfo& frame) {
    if (frame.frameSlot >= framesInFlight_)
        return graphError("execute: frame slot " + std::to_string(frame.frameSlot) + " but " +
                          std::to_string(framesInFlight_) + " frame(s) in flight");
    for (size_t s = 0; s < graph_.slots.size(); ++s) {
        const CompiledSlot& slot = graph_.slots[s];
        if (slot.used && slot.desc.lifetime == sieve::Lifetime::Imported && !bindings_[s].buffer && !bindings_[s].image)
            return graphError("execute: imported slot '" + slot.desc.name + "' is not bound (bindImported)");
    }
    GpuTimestamps* timer = timestamps_ ? &*timestamps_ : nullptr;
    if (timer) timer->reset(cmd, frame.frameSlot);
    const sieve::Bindings bindings{bindings_};
    for (uint32_t p = 0; p < graph_.passes.size(); ++p) {
        const CompiledPass& pass = graph_.passes[p];
        sieve::ScopedLabel label(cmd, pass.desc.name.c_str());
        if (timer) timer->begin(cmd, pass.desc.name, frame.frameSlot);
        if (!skipBarriers_[p]) issue(cmd, pass.before);
        if (pass.record) pass.record(cmd, bindings, frame);
        if (timer) timer->end(cmd, frame.frameSlot);
    }
    issue(cmd, graph_.final);
    return {};
}

std::optional<std::vector<PassTiming>> GraphExecutor::timings(uint32_t frameSlot) const {
    if (!timestamps_ || frameSlot >= framesInFlight_) return std::nullopt;
    auto scopes = timestamps_->read(frameSlot);
    if (!scopes || scopes->empty()) return std::nullopt;  // not finished, or nothing recorded in the slot yet
    std::vector<PassTiming> out;
    for (const GpuTimestamps::Scope& s : *scopes) out.push_back({s.name, s.ms});
    return out;
}

sieve::Result<void> GraphExecutor::resize(SlotId s, VkExtent2D extent) {
    if (s >= graph_.slots.size() || !images_[s])
        return graphError("resize: slot " + std::to_string(s) + " is not an image the graph owns");
    CompiledSlot& slot = graph_.slots[s];
    const VkExtent2D old = slot.desc.extent;
    slot.desc.extent = extent;
    if (auto r = allocate(s); !r) {
        slot.desc.extent = old;
        return r;
    }
    if (slot.desc.lifetime == sieve::Lifetime::Persistent) return initializePersistent({s});
    return {};
}

}  // namespace engine::graph
