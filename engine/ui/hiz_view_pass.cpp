#include "engine/ui/hiz_view_pass.h"

#include <algorithm>

#include "engine/vk/context.h"
#include "shared/ui_push.h"

namespace engine::ui {

namespace {
// Wider pyramids are shown at half size and less: the overlay is 400 pixels wide.
constexpr uint32_t kMaxDisplayWidth = 512;
constexpr VkFormat kDisplayFormat = VK_FORMAT_R8G8B8A8_UNORM;
}  // namespace

sieve::Result<std::unique_ptr<HiZViewPass>> HiZViewPass::create(Context& ctx) {
    std::unique_ptr<HiZViewPass> p(new HiZViewPass(ctx));
    if (auto ok = sieve::take(p->createPipeline(), p->pipeline_); !ok) return ok.error();
    return p;
}

sieve::Result<sieve::ComputePipeline> HiZViewPass::createPipeline() const {
    sieve::ComputePipelineDesc d;
    d.shader = "ui/hiz_view.comp";
    d.pushConstantBytes = sizeof(sieve::gpu::HiZViewPush);
    return sieve::ComputePipeline::create(ctx_.info(), d);
}

sieve::Result<void> HiZViewPass::addTo(graph::GraphBuilder& g, graph::SlotId pyramid) {
    const sieve::SlotDesc& pd = g.slots().at(pyramid).desc;
    pyramidSlot_ = pyramid;
    pyramidExtent_ = pd.extent;
    mipCount_ = std::max(pd.mipLevels, 1u);
    VkExtent2D e = {std::max(pd.extent.width, 1u), std::max(pd.extent.height, 1u)};
    while (e.width > kMaxDisplayWidth) e = {std::max(e.width / 2, 1u), std::max(e.height / 2, 1u)};
    written_ = false;
    ImageDesc id;
    id.format = kDisplayFormat;
    id.extent = e;
    id.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
    id.name = "overlay hi-z view";
    auto image = Image::create(ctx_, id);
    if (!image) return image.error();
    display_ = std::move(image).value();

    graph::ImportDesc import;
    // The previous frame's overlay sampled it: the write waits for those reads; old contents are discarded.
    import.initial = {VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_UNDEFINED};
    import.final = {VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    displaySlot_ = g.addSlot(
        sieve::imageSlot("overlay.hiz.image", sieve::Lifetime::Imported, kDisplayFormat, e, 1, id.usage), import);

    sieve::PassDesc pass;
    pass.name = "overlay.hiz";
    pass.sideEffect = true;  // its output is read outside the graph (by the overlay)
    pass.uses = {sieve::use::sampledImage(pyramid), sieve::use::storageImageWrite(displaySlot_)};
    g.addPass(std::move(pass),
              [this](VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo&) { record(cmd, b); });
    return {};
}

sieve::Result<void> HiZViewPass::bind(graph::GraphExecutor& executor) const {
    sieve::SlotBinding b;
    b.image = display_.handle();
    b.view = display_.view();
    b.extent = display_.extent();
    b.mipViews = {display_.view()};
    return executor.bindImported(displaySlot_, b);
}

void HiZViewPass::select(bool show, bool showMax, int mip, float nearPlane, float range) {
    show_ = show;
    showMax_ = showMax;
    nearPlane_ = nearPlane;
    range_ = range;
    mip_ = std::clamp(mip, 0, int(std::max(mipCount_, 1u)) - 1);
}

void HiZViewPass::record(VkCommandBuffer cmd, const sieve::Bindings& b) {
    written_ = show_;
    if (!show_) return;
    const VkExtent2D e = display_.extent();
    sieve::gpu::HiZViewPush push{};
    push.outSize.x = e.width;
    push.outSize.y = e.height;
    push.mip = mip_;
    push.channel = showMax_ ? 1u : 0u;
    push.nearPlane = nearPlane_;
    push.range = range_;
    // A sampled image without a sampler: the shader's binding is a texture2D (reflected).
    const auto pyramid =
        sieve::Binding::sampled(b[pyramidSlot_].view, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    pipeline_.dispatch(cmd, {pyramid, sieve::Binding::storageImage(b[displaySlot_].view)}, push,
                       pipeline_.groupsFor(e.width, 0), pipeline_.groupsFor(e.height, 1));
}

}  // namespace engine::ui
