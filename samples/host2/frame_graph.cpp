#include "frame_graph.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <queue>

#include "engine/vk/context.h"
#include "sieve/gpu.h"

namespace host2 {

namespace {

constexpr VkAccessFlags2 kWriteAccess =
    VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT |
    VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_HOST_WRITE_BIT |
    VK_ACCESS_2_MEMORY_WRITE_BIT;

constexpr uint32_t kNone = UINT32_MAX;

sieve::Error graphError(const std::string& message) {
    return sieve::makeError(VK_ERROR_VALIDATION_FAILED_EXT, "host2 frame graph: " + message);
}

}  // namespace

Access lower(Usage u) {
    using L = VkImageLayout;
    constexpr L none = VK_IMAGE_LAYOUT_UNDEFINED;
    switch (u) {
        case Usage::IndirectArgs:
            return {VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT, none, false, false};
        case Usage::VertexInput:
            return {VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT,
                    VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_INDEX_READ_BIT, none, false, false};
        case Usage::UniformCompute:
            return {VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_UNIFORM_READ_BIT, none, false, false};
        case Usage::StorageReadCompute:
            return {VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT, none, false, false};
        case Usage::StorageWriteCompute:
            return {VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, none, true, false};
        case Usage::StorageReadVertex:
            return {VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT, none, false, false};
        case Usage::SampledCompute:
            return {VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, false, true};
        case Usage::StorageImageCompute:
            return {VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                    VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL,
                    true, true};
        case Usage::ColorAttachment:
            return {VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                    VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                    VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, true, true};
        case Usage::DepthAttachment:
            return {VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                    VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                    VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, true, true};
        case Usage::TransferSrc:
            return {VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, none, false, false};
        case Usage::TransferDst:
            return {VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, none,
                    true, false};
        case Usage::Count: break;
    }
    return {};
}

const char* usageName(Usage u) {
    static constexpr const char* names[] = {"IndirectArgs",       "VertexInput",         "UniformCompute",
                                            "StorageReadCompute", "StorageWriteCompute", "StorageReadVertex",
                                            "SampledCompute",     "StorageImageCompute", "ColorAttachment",
                                            "DepthAttachment",    "TransferSrc",         "TransferDst"};
    return u < Usage::Count ? names[size_t(u)] : "?";
}

bool transition(TrackedState& s, const Access& a, Transition& out) {
    const bool layoutChange = a.image && s.layout != a.layout;
    if (a.write || layoutChange) {
        // Wait for the last write and every read since (write-after-write, write-after-read); a layout
        // transition is a write too.
        out = {s.writeStage | s.readStages, s.writeAccess, a.stage, a.access, s.layout, a.image ? a.layout : s.layout};
        const bool needed = layoutChange || out.srcStage != VK_PIPELINE_STAGE_2_NONE;
        s.writeStage = a.stage;
        s.writeAccess = a.write ? (a.access & kWriteAccess) : VK_ACCESS_2_NONE;
        s.readStages = VK_PIPELINE_STAGE_2_NONE;
        s.visible.clear();
        if (!a.write) s.visible.emplace_back(a.stage, a.access);
        if (a.image) s.layout = a.layout;
        return needed;
    }
    // Read after write: one barrier per (stage, access) the write was not yet made visible to.
    s.readStages |= a.stage;
    if (s.writeStage == VK_PIPELINE_STAGE_2_NONE) return false;  // nothing on the GPU wrote it
    for (const auto& [stage, access] : s.visible)
        if ((a.stage & ~stage) == 0 && (a.access & ~access) == 0) return false;
    out = {s.writeStage, s.writeAccess, a.stage, a.access, s.layout, s.layout};
    s.visible.emplace_back(a.stage, a.access);
    return true;
}

// ---- ResourceCache ----

const PhysicalResource* ResourceCache::find(std::string_view name) const {
    const Entry* best = nullptr;
    for (const auto& e : entries_)
        if (e->name == name && (!best || e->epoch > best->epoch)) best = e.get();
    return best ? &best->phys : nullptr;
}

sieve::Result<ResourceCache::Entry*> ResourceCache::acquire(const std::string& name, bool persistent, bool image,
                                                            const BufferDesc& bd, const ImageDesc& id) {
    auto sameDesc = [&](const Entry& e) {
        return e.image == image && (image ? e.imageDesc == id : e.bufferDesc == bd);
    };
    for (auto& e : entries_) {
        if (e->persistent != persistent) continue;
        if (persistent) {
            if (e->name != name) continue;
            if (e->epoch == epoch_) return graphError("persistent resource '" + name + "' declared twice");
            e->epoch = epoch_;
            if (sameDesc(*e)) return e.get();
            e->image = image;
            e->bufferDesc = bd;
            e->imageDesc = id;
            if (auto r = create(*e); !r) return r.error();
            return e.get();
        }
        if (e->epoch != epoch_ && sameDesc(*e)) {
            e->epoch = epoch_;
            e->name = name;
            return e.get();
        }
    }
    auto e = std::make_unique<Entry>();
    e->name = name;
    e->persistent = persistent;
    e->image = image;
    e->bufferDesc = bd;
    e->imageDesc = id;
    e->epoch = epoch_;
    if (auto r = create(*e); !r) return r.error();
    entries_.push_back(std::move(e));
    return entries_.back().get();
}

sieve::Result<void> ResourceCache::create(Entry& e) {
    e.phys = {};
    e.buffer = {};
    e.imageRes = {};
    if (!e.image) {
        const BufferDesc& d = e.bufferDesc;
        if (d.size == 0) return graphError("buffer '" + e.name + "' of size 0");
        const bool device = d.memory == engine::MemoryUsage::DeviceLocal;
        VkBufferUsageFlags usage = d.usage | (e.persistent && device ? VK_BUFFER_USAGE_TRANSFER_DST_BIT : 0);
        auto b = engine::Buffer::create(ctx_, d.size, usage, d.memory, e.name.c_str());
        if (!b) return b.error();
        e.buffer = std::move(b).value();
        e.phys.binding.buffer = e.buffer.handle();
        e.phys.binding.size = d.size;
        e.phys.binding.mapped = e.buffer.mapped();
        if (e.persistent && !device) std::memset(e.buffer.mapped(), 0, d.size);
        e.needsClear = e.persistent && device;
        return {};
    }
    const ImageDesc& d = e.imageDesc;
    engine::ImageDesc desc;
    desc.format = d.format;
    desc.extent = d.extent;
    desc.mipLevels = d.mipLevels;
    desc.usage = d.usage | (e.persistent ? VK_IMAGE_USAGE_TRANSFER_DST_BIT : 0);
    desc.name = e.name.c_str();
    auto img = engine::Image::create(ctx_, desc);
    if (!img) return img.error();
    e.imageRes = std::move(img).value();
    e.phys.binding.image = e.imageRes.handle();
    e.phys.binding.view = e.imageRes.view();
    for (uint32_t m = 0; m < d.mipLevels; ++m) e.phys.binding.mipViews.push_back(e.imageRes.mipView(m));
    e.phys.binding.extent = d.extent;
    e.phys.aspect = e.imageRes.aspect();
    e.phys.mipLevels = d.mipLevels;
    e.needsClear = e.persistent;
    return {};
}

// ---- Builder ----

void Builder::sideEffect() {
    fg_.passes_[pass_].sideEffect = true;
}

uint32_t Builder::read(uint32_t node, Usage u, bool image) {
    FrameGraph::Pass& p = fg_.passes_[pass_];
    if (node >= fg_.nodes_.size()) return fg_.fail("pass '" + p.name + "' reads an invalid handle"), node;
    const uint32_t res = fg_.nodes_[node].resource;
    const Access a = lower(u);
    if (a.write || a.image != image)
        return fg_.fail("pass '" + p.name + "' reads '" + fg_.resources_[res].name + "' as " + usageName(u)), node;
    p.uses.push_back({res, u});
    FrameGraph::Node& n = fg_.nodes_[node];
    if (n.writer == pass_) return node;  // its own write
    n.readers.push_back(pass_);
    p.reads.push_back(node);
    if (n.writer != kNone) p.after.push_back(n.writer);
    // An older version: the pass must run before the write that superseded it.
    if (n.next != kNone && fg_.nodes_[n.next].writer != pass_)
        fg_.passes_[fg_.nodes_[n.next].writer].after.push_back(pass_);
    return node;
}

uint32_t Builder::write(uint32_t node, Usage u, bool image) {
    FrameGraph::Pass& p = fg_.passes_[pass_];
    if (node >= fg_.nodes_.size()) return fg_.fail("pass '" + p.name + "' writes an invalid handle"), node;
    const uint32_t res = fg_.nodes_[node].resource;
    FrameGraph::Resource& r = fg_.resources_[res];
    const Access a = lower(u);
    if (!a.write || a.image != image)
        return fg_.fail("pass '" + p.name + "' writes '" + r.name + "' as " + usageName(u)), node;
    p.uses.push_back({res, u});
    if (fg_.nodes_[node].writer == pass_) return node;  // a second write in the same pass
    if (r.latest != node)
        return fg_.fail("pass '" + p.name + "' writes an old version of '" + r.name + "' (superseded by pass '" +
                        fg_.passes_[fg_.nodes_[fg_.nodes_[node].next].writer].name + "')"),
               node;
    if (r.lifetime != FrameGraph::Lifetime::Transient) p.writesExternal = true;
    const FrameGraph::Node& old = fg_.nodes_[node];
    if (old.writer != kNone) p.after.push_back(old.writer);
    for (uint32_t reader : old.readers)
        if (reader != pass_) p.after.push_back(reader);
    const uint32_t fresh = uint32_t(fg_.nodes_.size());
    fg_.nodes_.push_back({res, pass_, {}, kNone});
    fg_.nodes_[node].next = fresh;
    r.latest = fresh;
    return fresh;
}

// ---- FrameGraph ----

const sieve::SlotBinding& Context::bindingOf(uint32_t node) const {
    static const sieve::SlotBinding none{};
    const PhysicalResource* p = fg_.physicalOf(node);
    return p ? p->binding : none;
}

uint32_t FrameGraph::newResource(Resource r) {
    const uint32_t node = uint32_t(nodes_.size());
    r.latest = node;
    nodes_.push_back({uint32_t(resources_.size()), kNone, {}, kNone});
    resources_.push_back(std::move(r));
    return node;
}

BufferHandle FrameGraph::createBuffer(std::string name, const BufferDesc& desc) {
    return {newResource({std::move(name), Lifetime::Transient, false, desc, {}, nullptr, 0})};
}
ImageHandle FrameGraph::createImage(std::string name, const ImageDesc& desc) {
    return {newResource({std::move(name), Lifetime::Transient, true, {}, desc, nullptr, 0})};
}
BufferHandle FrameGraph::persistentBuffer(std::string name, const BufferDesc& desc) {
    return {newResource({std::move(name), Lifetime::Persistent, false, desc, {}, nullptr, 0})};
}
ImageHandle FrameGraph::persistentImage(std::string name, const ImageDesc& desc) {
    return {newResource({std::move(name), Lifetime::Persistent, true, {}, desc, nullptr, 0})};
}
BufferHandle FrameGraph::importBuffer(std::string name, PhysicalResource& r) {
    return {newResource({std::move(name), Lifetime::Imported, false, {}, {}, &r, 0})};
}
ImageHandle FrameGraph::importImage(std::string name, PhysicalResource& r) {
    return {newResource({std::move(name), Lifetime::Imported, true, {}, {}, &r, 0})};
}

uint32_t FrameGraph::newPass(std::string name) {
    passes_.push_back({});
    passes_.back().name = std::move(name);
    compiled_ = false;
    return uint32_t(passes_.size() - 1);
}

void FrameGraph::fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
}

const PhysicalResource* FrameGraph::physicalOf(uint32_t node) const {
    return node < nodes_.size() ? resources_[nodes_[node].resource].phys : nullptr;
}

sieve::Result<void> FrameGraph::compile() {
    if (!error_.empty()) return graphError(error_);
    const uint32_t n = uint32_t(passes_.size());
    // Culling: from the roots back through what they read.
    std::vector<bool> kept(n, false);
    std::vector<uint32_t> work;
    for (uint32_t p = 0; p < n; ++p)
        if (passes_[p].sideEffect || passes_[p].writesExternal) kept[p] = true, work.push_back(p);
    while (!work.empty()) {
        const uint32_t p = work.back();
        work.pop_back();
        for (uint32_t node : passes_[p].reads) {
            const uint32_t writer = nodes_[node].writer;
            if (writer != kNone && !kept[writer]) kept[writer] = true, work.push_back(writer);
        }
    }
    // Ordering: Kahn's algorithm over the kept passes, the earliest added first among the ready ones.
    std::vector<uint32_t> indegree(n, 0);
    std::vector<std::vector<uint32_t>> next(n);
    for (uint32_t p = 0; p < n; ++p)
        for (uint32_t before : passes_[p].after)
            if (kept[p] && kept[before]) ++indegree[p], next[before].push_back(p);
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
    for (uint32_t p = 0; p < n; ++p)
        if (kept[p] && indegree[p] == 0) ready.push(p);
    order_.clear();
    while (!ready.empty()) {
        const uint32_t p = ready.top();
        ready.pop();
        order_.push_back(p);
        for (uint32_t q : next[p])
            if (--indegree[q] == 0) ready.push(q);
    }
    for (uint32_t p = 0; p < n; ++p)
        if (kept[p] && indegree[p] != 0) return graphError("dependency cycle through pass '" + passes_[p].name + "'");
    // One access per resource and pass; physical resources for what the kept passes use.
    ++cache_.epoch_;
    toClear_.clear();
    std::vector<bool> used(resources_.size(), false);
    for (uint32_t p : order_) {
        Pass& pass = passes_[p];
        pass.merged.clear();
        for (const Use& u : pass.uses) {
            const Access a = lower(u.usage);
            auto it =
                std::find_if(pass.merged.begin(), pass.merged.end(), [&](auto& m) { return m.first == u.resource; });
            if (it == pass.merged.end()) {
                pass.merged.emplace_back(u.resource, a);
                continue;
            }
            if (a.image && it->second.layout != a.layout)
                return graphError("pass '" + pass.name + "' uses image '" + resources_[u.resource].name +
                                  "' in two layouts at once");
            it->second.stage |= a.stage;
            it->second.access |= a.access;
            it->second.write = it->second.write || a.write;
        }
        for (const auto& m : pass.merged) used[m.first] = true;
    }
    for (size_t r = 0; r < resources_.size(); ++r) {
        Resource& res = resources_[r];
        if (!used[r] || res.lifetime == Lifetime::Imported) continue;
        auto e =
            cache_.acquire(res.name, res.lifetime == Lifetime::Persistent, res.image, res.bufferDesc, res.imageDesc);
        if (!e) return e.error();
        res.phys = &e.value()->phys;
        if (e.value()->needsClear) toClear_.push_back(e.value());
    }
    compiled_ = true;
    return {};
}

void FrameGraph::recordClears(VkCommandBuffer cmd) {
    // New persistent resources start zeroed, as a frame would find them after a frame that wrote zeros.
    for (ResourceCache::Entry* e : toClear_) {
        PhysicalResource& p = e->phys;
        if (!e->image) {
            vkCmdFillBuffer(cmd, p.binding.buffer, 0, VK_WHOLE_SIZE, 0);
        } else {
            const Access clear{VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, true, true};
            Transition t;
            transition(p.state, clear, t);
            // Discards the contents (from UNDEFINED, waiting for nothing).
            const VkImageSubresourceRange range{p.aspect, 0, p.mipLevels, 0, 1};
            sieve::imageBarrier(cmd, p.binding.image, p.aspect, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                                VK_IMAGE_LAYOUT_UNDEFINED, t.dstStage, t.dstAccess, t.newLayout, 0, p.mipLevels);
            if (p.aspect & VK_IMAGE_ASPECT_DEPTH_BIT) {
                const VkClearDepthStencilValue zero{0.0f, 0};
                vkCmdClearDepthStencilImage(cmd, p.binding.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1,
                                            &range);
            } else {
                const VkClearColorValue zero{};
                vkCmdClearColorImage(cmd, p.binding.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &range);
            }
        }
        // vkCmdFillBuffer runs in the copy stage (synchronization validation tracks it there), the image
        // clears in the clear stage.
        p.state.writeStage = e->image ? VK_PIPELINE_STAGE_2_CLEAR_BIT : VK_PIPELINE_STAGE_2_COPY_BIT;
        p.state.writeAccess = VK_ACCESS_2_TRANSFER_WRITE_BIT;
        p.state.readStages = VK_PIPELINE_STAGE_2_NONE;
        p.state.visible.clear();
        e->needsClear = false;
    }
    toClear_.clear();
}

sieve::Result<void> FrameGraph::execute(VkCommandBuffer cmd, const sieve::FrameInfo& frame,
                                        engine::GpuTimestamps* timer) {
    if (!compiled_) return graphError("execute() before a successful compile()");
    for (uint32_t p : order_)
        for (const auto& [r, a] : passes_[p].merged) {
            const sieve::SlotBinding& b = resources_[r].phys->binding;
            if (a.image ? b.image == VK_NULL_HANDLE : b.buffer == VK_NULL_HANDLE)
                return graphError("imported '" + resources_[r].name + "' has no " + (a.image ? "image" : "buffer"));
        }
    if (timer) timer->reset(cmd, frame.frameSlot);
    recordClears(cmd);
    Context ctx(cmd, frame, *this);
    std::vector<VkBufferMemoryBarrier2> buffers;
    std::vector<VkImageMemoryBarrier2> images;
    for (uint32_t p : order_) {
        buffers.clear();
        images.clear();
        for (const auto& [r, a] : passes_[p].merged) {
            PhysicalResource& phys = *resources_[r].phys;
            Transition t;
            if (!transition(phys.state, a, t)) continue;
            const sieve::SlotBinding& b = phys.binding;
            if (a.image)
                images.push_back(sieve::imageMemoryBarrier(b.image, {phys.aspect, 0, phys.mipLevels, 0, 1}, t));
            else
                buffers.push_back(sieve::bufferMemoryBarrier(b.buffer, b.offset, b.size, t));
        }
        sieve::ScopedLabel label(cmd, passes_[p].name.c_str());
        if (timer) timer->begin(cmd, passes_[p].name, frame.frameSlot);
        if (!buffers.empty() || !images.empty()) {
            VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
            dep.bufferMemoryBarrierCount = uint32_t(buffers.size());
            dep.pBufferMemoryBarriers = buffers.data();
            dep.imageMemoryBarrierCount = uint32_t(images.size());
            dep.pImageMemoryBarriers = images.data();
            vkCmdPipelineBarrier2(cmd, &dep);
        }
        if (passes_[p].execute) passes_[p].execute(ctx);
        if (timer) timer->end(cmd, frame.frameSlot);
    }
    return {};
}

std::vector<std::string> FrameGraph::order() const {
    std::vector<std::string> names;
    for (uint32_t p : order_) names.push_back(passes_[p].name);
    return names;
}

}  // namespace host2
