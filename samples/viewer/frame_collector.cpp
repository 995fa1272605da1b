#include "frame_collector.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace viewer {

// The Hi-Z view's probed texel, from the pyramid the slot's frame read back (while a probe asked for it).
void FrameCollector::readHiZProbe(uint32_t slot) {
    engine::ui::HiZView& h = model_.hiz;
    engine::ui::PickReadbackPass* pass = renderer_.pickReadback();
    if (!pass || !h.probe) return;
    const auto frame = pass->read(slot);
    if (!frame || h.probe->mip < 0 || uint32_t(h.probe->mip) >= frame->pyramid.mipCount()) return;
    const sieve::HiZLevel& level = frame->pyramid.levels[size_t(h.probe->mip)];
    if (h.probe->x >= level.extent.width || h.probe->y >= level.extent.height) return;
    const size_t t = size_t(h.probe->y) * level.extent.width + h.probe->x;
    h.readout =
        engine::ui::HiZView::Readout{*h.probe, level.extent.width, level.extent.height, level.min[t], level.max[t]};
}

void FrameCollector::collect(uint32_t slot) {
    std::vector<engine::graph::PassTiming> passTimes;
    engine::FrameCounts counts;
    renderer_.collect(slot, passTimes, counts);
    // The graph's passes, then the overlay, which is drawn last.
    for (const auto& t : passTimes) model_.gpuTimes.add(t.name, float(t.ms));
    if (auto overlay = overlayTimer_.read(slot))
        for (const engine::GpuTimestamps::Scope& t : overlay.value()) model_.gpuTimes.add(t.name, float(t.ms));
    model_.gpuTimes.endFrame();
    readHiZProbe(slot);
    frameTimer_.collect(slot, model_.gpuFrameMs);
    const sieve::CullingStats& c = counts.cull;
    model_.counts = c;
    model_.triangles = counts.triangles;
    model_.clusters = counts.clusters;
    model_.trianglesSource = counts.trianglesSource;
    model_.trianglesQuery = counts.trianglesQuery;
    model_.meshPrimitives = counts.meshPrimitivesGenerated;
    if (std::getenv("SIEVE_DEBUG_COUNTS") && c.valid)
        std::printf("frame %llu: fr %u eD %u lV %u lD %u early %u/%u/%u late %u/%u/%u\n", (unsigned long long)c.frame,
                    c.frustumVisible, c.earlyDrawn, c.lateVisible, c.lateDrawn, c.early.count, c.early.total,
                    c.early.overflow, c.late.count, c.late.total, c.late.overflow);
}

}  // namespace viewer
