// The triangles a frame drew, counted from its draw records (the CPU side of the draw readback), and the
// history that pairs them with the culling counts of the same frame.
#include <gtest/gtest.h>

#include <vector>

#include "engine/scene/draw_readback.h"

using engine::FrameTriangles;
using engine::streamTriangles;
using engine::TriangleHistory;
using sieve::gpu::DrawCommand;
using sieve::gpu::DrawCounts;

namespace {
DrawCommand draw(uint32_t indexCount) {
    DrawCommand d{};
    d.indexCount = indexCount;
    d.instanceCount = 1;
    return d;
}
}  // namespace

TEST(DrawTriangles, SumsTheDrawnRecordsOfEachStream) {
    const std::vector<DrawCommand> early = {draw(36), draw(6), draw(300)};
    const std::vector<DrawCommand> late = {draw(3), draw(99)};
    EXPECT_EQ(streamTriangles(early, DrawCounts{3, 0, 3, 0}) + streamTriangles(late, DrawCounts{2, 0, 2, 0}),
              12u + 2 + 100 + 1 + 33);
    // Only the records the count says were drawn: the rest of a list is stale.
    EXPECT_EQ(streamTriangles(early, DrawCounts{1, 0, 1, 0}) + streamTriangles(late, DrawCounts{0, 0, 0, 0}), 12u);
    EXPECT_EQ(streamTriangles(early, DrawCounts{0, 0, 0, 0}) + streamTriangles(late, DrawCounts{0, 0, 0, 0}), 0u);
    // A count beyond the list (an overflowing list clamps, garbage must not read past the end).
    EXPECT_EQ(
        streamTriangles(early, DrawCounts{1000, 5, 1005, 0}) + streamTriangles(late, DrawCounts{UINT32_MAX, 0, 0, 0}),
        12u + 2 + 100 + 1 + 33);
    // Empty lists (a zero-instance scene).
    EXPECT_EQ(streamTriangles({}, DrawCounts{7, 0, 7, 0}) + streamTriangles({}, DrawCounts{}), 0u);
}

TEST(DrawTriangles, HistoryPairsTrianglesWithTheirFrame) {
    TriangleHistory h(3);
    EXPECT_FALSE(h.latest());
    for (uint64_t f = 0; f < 5; ++f) h.add(FrameTriangles{f, f * 10, f * 10 + 1});
    EXPECT_FALSE(h.find(1)) << "older than the depth";
    ASSERT_TRUE(h.find(2));
    EXPECT_EQ(*h.find(2)->query, 20u);
    EXPECT_EQ(*h.find(4)->records, 41u);
    EXPECT_EQ(h.latest()->frameIndex, 4u);
    // A frame read again (the last frames are collected once more at the end) replaces its entry.
    h.add(FrameTriangles{4, 7, std::nullopt});
    EXPECT_EQ(*h.find(4)->query, 7u);
    EXPECT_FALSE(h.find(4)->records);
    EXPECT_TRUE(h.find(2));
}
