#include "run_report.h"

#include <cstdio>
#include <filesystem>

namespace viewer {

void applyHeadlessOutputs(ViewerOptions& o) {
    if (o.headlessOutputs.empty()) return;
    const std::filesystem::path dir(o.headlessOutputs);
    if (o.screenshot.empty()) o.screenshot = (dir / "sieve-screenshot.png").string();
    if (o.stats.empty()) o.stats = (dir / "sieve-stats.json").string();
}

int defaultHeadlessFrames(uint32_t framesInFlight) {
    return int(kFirstOccludedFrame + framesInFlight + 1);
}

bool checkTrianglesFits(uint64_t drawCapacity, uint32_t framesInFlight) {
    const uint64_t bytes = uint64_t(drawCapacity) * sizeof(sieve::gpu::DrawCommand) * 2 * framesInFlight;
    return bytes <= (uint64_t(64) << 20);
}

sieve::Result<FrameGpuTimer> FrameGpuTimer::create(engine::Context& ctx, uint32_t framesInFlight) {
    auto t = engine::GpuTimestamps::create(ctx, 1, framesInFlight, "viewer frame");
    if (!t) return t.error();
    return FrameGpuTimer(std::move(t).value());
}

void FrameGpuTimer::begin(VkCommandBuffer cmd, uint32_t slot) {
    timestamps_.reset(cmd, slot);
    timestamps_.begin(cmd, "frame", slot);
}

void FrameGpuTimer::end(VkCommandBuffer cmd, uint32_t slot) {
    timestamps_.end(cmd, slot);
}

void FrameGpuTimer::collect(uint32_t slot, engine::ui::RollingSeries& series) const {
    if (auto scopes = timestamps_.read(slot))
        for (const engine::GpuTimestamps::Scope& s : scopes.value()) series.add(float(s.ms));
}

engine::ui::RunSummary runSummary(const std::string& device, const engine::ui::OverlayModel& m, uint64_t frames) {
    engine::ui::RunSummary run{device, m.width, m.height, frames, m.frameMs.average()};
    if (m.gpuFrameMs.size() > 0) run.gpuFrameMsMean = m.gpuFrameMs.average();
    run.trianglesSource = m.trianglesSource;
    run.trianglesQuery = m.trianglesQuery;
    run.drawDistance = m.switches.drawDistance;
    run.stable = m.switches.stable;
    return run;
}

std::string closingLines(const engine::ui::OverlayModel& m, uint64_t rendered, uint64_t skipped,
                         uint32_t framesInFlight) {
    char line[256];
    if (m.gpuFrameMs.size() > 0)
        std::snprintf(line, sizeof(line),
                      "frames: %llu rendered, %llu skipped; mean frame %.2f ms GPU (timestamps, %zu frames), "
                      "%.2f ms CPU (frame to frame)",
                      (unsigned long long)rendered, (unsigned long long)skipped, m.gpuFrameMs.average(),
                      m.gpuFrameMs.size(), m.frameMs.average());
    else
        std::snprintf(line, sizeof(line),
                      "frames: %llu rendered, %llu skipped; mean frame %.2f ms CPU (frame to frame)",
                      (unsigned long long)rendered, (unsigned long long)skipped, m.frameMs.average());
    std::string out = line;
    if (m.counts.valid) {
        std::snprintf(line, sizeof(line), "\ncounts: of frame %llu, %u draws, %llu triangles (%s)",
                      (unsigned long long)m.counts.frame, m.counts.draws(), (unsigned long long)m.triangles,
                      m.trianglesSource.c_str());
        out += line;
        if (m.trianglesQuery && m.trianglesSource == "draw_records" && *m.trianglesQuery != m.triangles) {
            std::snprintf(line, sizeof(line), "; the pipeline-statistics query says %llu",
                          (unsigned long long)*m.trianglesQuery);
            out += line;
        }
        if (m.counts.frame < kFirstOccludedFrame && m.switches.toggles.occlusion)
            out +=
                "\nnote: these counts are of a frame before occlusion culling had the depth of an earlier frame "
                "to test against; --frames " +
                std::to_string(defaultHeadlessFrames(framesInFlight)) + " or more shows it";
    } else {
        out += "\ncounts: none yet (run more frames)";
    }
    return out;
}

}  // namespace viewer
