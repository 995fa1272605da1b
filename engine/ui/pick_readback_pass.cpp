#include "engine/ui/pick_readback_pass.h"

#include <algorithm>
#include <cstring>

#include "engine/vk/context.h"
#include "shared/ui_push.h"
#include "sieve/barriers.h"

namespace engine::ui {

sieve::Result<std::unique_ptr<PickReadbackPass>> PickReadbackPass::create(Context& ctx, uint32_t framesInFlight) {
    std::unique_ptr<PickReadbackPass> p(new PickReadbackPass(ctx, std::max(framesInFlight, 1u)));
    auto pipeline = p->createPipeline();
    if (!pipeline) return pipeline.error();
    p->pipeline_ = std::move(pipeline).value();
    return p;
}

sieve::Result<sieve::ComputePipeline> PickReadbackPass::createPipeline() const {
    sieve::ComputePipelineDesc d;
    d.shader = "ui/pick_pyramid.comp";
    d.pushConstantBytes = sizeof(sieve::gpu::PickPyramidPush);
    return sieve::ComputePipeline::create(ctx_.info(), d);
}

sieve::Result<void> PickReadbackPass::addTo(graph::GraphBuilder& g, graph::SlotId state, graph::SlotId pyramid,
                                            graph::SlotId depth, uint32_t instances) {
    const sieve::SlotDesc& pd = g.slots().at(pyramid).desc;
    state_ = state;
    pyramid_ = pyramid;
    depth_ = depth;
    depthExtent_ = g.slots().at(depth).desc.extent;
    instances_ = instances;
    mips_.clear();
    texels_ = 0;
    for (uint32_t m = 0; m < std::max(pd.mipLevels, 1u); ++m) {
        const VkExtent2D e{std::max(pd.extent.width >> m, 1u), std::max(pd.extent.height >> m, 1u)};
        mips_.push_back(e);
        texels_ += uint64_t(e.width) * e.height;
    }
    sieve::PassDesc pass;
    pass.name = "readback.pick";
    pass.sideEffect = true;  // read outside the graph (by the CPU)
    pass.uses = {sieve::use::transferRead(state), sieve::use::sampledImage(pyramid), sieve::use::depthSampled(depth)};
    g.addPass(std::move(pass),
              [this](VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo& f) { record(cmd, b, f); });
    return {};
}

// The slot's buffer, made (again) for the current pyramid when it is too small; a replaced one lives on
// until every frame that may use it has completed.
bool PickReadbackPass::fit(Slot& s, const sieve::FrameInfo& frame) {
    std::erase_if(retired_, [&](const auto& r) { return frame.frameIndex >= r.first + slots_.size(); });
    const uint64_t depthTexels = uint64_t(depthExtent_.width) * depthExtent_.height;
    const VkDeviceSize bytes = stateRegion() + (texels_ + depthTexels) * 2 * sizeof(float);
    if (s.buffer && s.buffer.size() >= bytes) return true;
    auto b = Buffer::create(ctx_, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                            MemoryUsage::Readback, "readback.pick");
    if (!b) return false;
    if (s.buffer) retired_.emplace_back(frame.frameIndex, std::move(s.buffer));
    s.buffer = std::move(b).value();
    return true;
}

void PickReadbackPass::record(VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo& frame) {
    if (frame.frameSlot >= slots_.size()) return;
    Slot& s = slots_[frame.frameSlot];
    s.frame.reset();
    slotDepth_[frame.frameSlot] = false;
    if (!armed_ || !fit(s, frame)) return;
    if (instances_) {
        const VkBufferCopy c{b[state_].offset, 0, stateBytes()};
        vkCmdCopyBuffer(cmd, b[state_].buffer, s.buffer.handle(), 1, &c);
    }
    // The dispatches bind the whole buffer: ordered after the copy and after each other (their ranges do
    // not overlap, but a binding says nothing of that).
    sieve::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    // A sampled image without a sampler: the shader's binding is a texture2D (reflected).
    const auto pyramid =
        sieve::Binding::sampled(b[pyramid_].view, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    const auto out = sieve::Binding::storage({s.buffer.handle(), 0, VK_WHOLE_SIZE});
    uint64_t offset = stateRegion() / (2 * sizeof(float));  // in vec2
    for (uint32_t m = 0; m < mips_.size(); ++m) {
        copyTexels(cmd, pyramid, out, mips_[m], m, offset, m > 0);
        offset += uint64_t(mips_[m].width) * mips_[m].height;
    }
    if (armDepth_ && depthExtent_.width && depthExtent_.height) {  // the depth's texels after the pyramid's
        const auto depth =
            sieve::Binding::sampled(b[depth_].view, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        copyTexels(cmd, depth, out, depthExtent_, 0, offset, !mips_.empty());
        slotDepth_[frame.frameSlot] = true;
    }
    s.written(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
              VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, frame.frameIndex);
}

// One mip of `image` into the buffer's vec2 at `offset` (`after`: ordered after the dispatch before it).
void PickReadbackPass::copyTexels(VkCommandBuffer cmd, const sieve::Binding& image, const sieve::Binding& out,
                                  VkExtent2D size, uint32_t mip, uint64_t offset, bool after) {
    sieve::gpu::PickPyramidPush push{};
    push.size = {size.width, size.height};
    push.mip = mip;
    push.offset = uint32_t(offset);
    if (after)
        sieve::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                             VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    pipeline_.dispatch(cmd, {image, out}, push, pipeline_.groupsFor(size.width, 0),
                       pipeline_.groupsFor(size.height, 1));
}

std::optional<PickReadbackPass::Frame> PickReadbackPass::read(uint32_t frameSlot) const {
    Frame f;
    const uint8_t* bytes = readbackBytes(slots_, frameSlot, f.frameIndex);
    if (!bytes) return std::nullopt;
    f.state.resize(instances_);
    std::memcpy(f.state.data(), bytes, stateBytes());
    const auto* texels = reinterpret_cast<const float*>(bytes + stateRegion());
    for (const VkExtent2D& e : mips_) {
        sieve::HiZLevel level;
        level.extent = e;
        const size_t n = size_t(e.width) * e.height;
        level.min.resize(n);
        level.max.resize(n);
        for (size_t i = 0; i < n; ++i) {
            level.min[i] = texels[2 * i];
            level.max[i] = texels[2 * i + 1];
        }
        texels += 2 * n;
        f.pyramid.levels.push_back(std::move(level));
    }
    if (slotDepth_[frameSlot]) {  // the depth in the min channel of its texels
        f.depthExtent = depthExtent_;
        f.depth.resize(size_t(depthExtent_.width) * depthExtent_.height);
        for (size_t i = 0; i < f.depth.size(); ++i) f.depth[i] = texels[2 * i];
    }
    return f;
}

}  // namespace engine::ui
