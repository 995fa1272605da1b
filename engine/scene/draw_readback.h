#pragma once
// The triangles a frame really drew, from its draw records: a graph pass after draw.late copies the
// camera's streams of both phases (one per bin, sieve::StreamRange) and their counts into a host buffer
// of the frame slot, and the CPU sums indexCount / 3 over the records each count says were drawn
// (clamped to the stream's capacity). What the pipeline-statistics
// query reports is checked against this (SceneRenderer::collect), since a query counts whatever the
// driver decides an input-assembly primitive is.
//
// Off by default (a copy of both lists each frame); the viewer arms it for headless runs, whose stats
// are the record of the run.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/vk/readback_slot.h"
#include "engine/vk/resources.h"
#include "shared/draw.h"
#include "sieve/culling.h"
#include "sieve/plugin.h"

namespace engine {

class Context;

// Triangles of one stream's records: sum of indexCount / 3 over the first min(count, capacity) records
// (the CPU reference of what vkCmdDrawIndexedIndirectCount draws with triangle lists).
uint64_t streamTriangles(std::span<const sieve::gpu::DrawCommand> records, const sieve::gpu::DrawCounts& counts);

class DrawReadback {
public:
    // The streams drawn from each phase's draw list (the same ranges in draws.early and draws.late); one
    // host buffer per frame slot, made when first armed.
    DrawReadback(Context& ctx, std::vector<sieve::StreamRange> streams, uint32_t framesInFlight);

    // Arms (or disarms) the copy for the frames recorded from now on. Fails when the buffers cannot be
    // made (the caller may go on without the check).
    sieve::Result<void> arm(bool on);
    bool armed() const { return armed_; }

    // The pass, to add right after draw.late: reads both lists and counts by transfer.
    sieve::PassDesc describe(sieve::SlotId drawsEarly, sieve::SlotId countsEarly, sieve::SlotId drawsLate,
                             sieve::SlotId countsLate);
    void record(VkCommandBuffer cmd, const sieve::Bindings& b, const sieve::FrameInfo& frame);

    struct Frame {
        uint64_t frameIndex = 0;
        uint64_t triangles = 0;
        uint32_t draws = 0;
    };
    // After the slot's fence: the triangles of the frame last recorded into it (none when not armed then).
    std::optional<Frame> read(uint32_t frameSlot) const;
    uint64_t capacity() const { return capacity_; }  // records of every stream of both phases

private:
    using Slot = ReadbackSlot;
    Context* ctx_;
    std::vector<sieve::StreamRange> streams_;
    uint64_t capacity_ = 0;
    bool armed_ = false;
    std::vector<Slot> slots_;
    sieve::SlotId drawsEarly_{}, countsEarly_{}, drawsLate_{}, countsLate_{};
};

// Triangles per frame from both sources, kept for a few frames: the culling counts arrive some frames
// late, and the triangles reported with them must be of the same frame.
struct FrameTriangles {
    uint64_t frameIndex = 0;
    std::optional<uint64_t> query;    // pipeline statistics (input-assembly primitives of both draw passes)
    std::optional<uint64_t> records;  // DrawReadback
    // Pipeline statistics of both draw passes, every path: primitives that reached the clipper (clipping
    // invocations) and those it passed on (clipping primitives).
    std::optional<uint64_t> clippingInvocations, clippingPrimitives;
    std::optional<uint64_t> meshPrimitives;  // the mesh path's mesh-primitives-generated query
};

class TriangleHistory {
public:
    explicit TriangleHistory(size_t depth) : depth_(std::max<size_t>(depth, 1)) {}
    void add(const FrameTriangles& f);
    // The entry of `frameIndex`, or none when it was not kept.
    std::optional<FrameTriangles> find(uint64_t frameIndex) const;
    std::optional<FrameTriangles> latest() const;

private:
    size_t depth_;
    std::vector<FrameTriangles> entries_;  // oldest first
};

}  // namespace engine
