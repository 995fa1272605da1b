// The stable draw list in one dispatch (shaders/draw/list_scan.glsl: the scan of the draw counts with the
// expansion folded in, each (view, bin) stream a run of whole scan tiles) gives every stream the CPU
// reference's records and counts, and the same bytes as the scan-then-expand path, at the edges of its
// tiles: N = 0, 1, tile - 1, tile, tile + 1, 2 tiles + 5, over several views x bins with empty streams,
// streams of capacity 0 and streams that overflow, and with few keys of several records each at the tile
// edges, a capacity ending inside one. Nothing is written past a stream's capacity (guard words). Also with the
// two-word look-back status and with a one-poll wait (tiles reduce their silent predecessors, never past their stream's
// first tile). Shapes past one binding take the scan-then-expand path (chunked scan) with the same result. Draw
// marks: only the marked groups' counts are read.
#include <numeric>
#include <random>

#include "gpu/test_limits_util.h"
#include "shared/draw_push.h"
#include "sieve/cull_flags.h"

using testing_limits::kGuardWord;

namespace {

struct Lists {
    std::vector<sieve::gpu::DrawCounts> counts;
    std::vector<uint32_t> draws;  // raw words of the whole draw buffer (guards included)
};

// A scene whose primitives fall in bins 0..bins (bins counts as the last), the per-key draw counts a flag
// pass writes (each visible instance's primitives of the bin; view 1 sees nothing), random LODs, and
// stream capacities from 0 through a few records (overflow) to ample.
struct Input {
    testing_cull::RandomScene scene;
    sieve::CullPhaseOutput phase;
    std::vector<uint32_t> capacities;
};

uint32_t binDraws(const testing_cull::RandomScene& s, uint32_t i, uint32_t bin, uint32_t bins) {
    const sieve::gpu::Mesh& mesh = s.meshes[s.instances[i].mesh];
    uint32_t draws = 0;
    for (uint32_t p = 0; p < mesh.primitiveCount && mesh.firstPrimitive + p < s.primitives.size(); ++p)
        draws += bins == 1 || std::min(s.primitives[mesh.firstPrimitive + p].bin, bins - 1) == bin;
    return draws;
}

Input makeInput(uint32_t n, uint32_t views, uint32_t bins, uint32_t seed) {
    Input in{testing_cull::makeRandomScene(n, seed), {}, {}};
    std::mt19937 rng(seed);
    for (auto& p : in.scene.primitives) p.bin = rng() % (bins + 1);
    in.phase.flags.assign(size_t(n) * views, 0);
    in.phase.lods.resize(size_t(n) * views);
    for (auto& l : in.phase.lods) l = rng() % sieve::gpu::SIEVE_MAX_LODS;
    in.phase.drawCounts.assign(size_t(n) * views * bins, 0);
    for (uint32_t v = 0; v < views; ++v)
        for (uint32_t i = 0; i < n; ++i) {
            if (v == 1 || rng() % 3 == 0) continue;
            in.phase.flags[sieve::gpu::sieveKey(v, i, n)] = 1;
            for (uint32_t b = 0; b < bins; ++b)
                in.phase.drawCounts[sieve::gpu::sieveKey(sieve::gpu::sieveStream(v, b, bins), i, n)] =
                    binDraws(in.scene, i, b, bins);
        }
    for (uint32_t s = 0; s < views * bins; ++s) {
        const uint32_t kind = s % 4;
        in.capacities.push_back(kind == 0 ? 3 * n + 7 : kind == 1 ? 1 + rng() % 40 : kind == 2 ? 0 : 2 * n + 3);
    }
    return in;
}

class DrawListOnePassTest : public testing_gpu::GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        ASSERT_NO_FATAL_FAILURE(take(sieve::DrawListBuilder::create(ctx().info()), onePass));
        // The portable two-word status, and the bounded wait cut to one poll: tiles reduce their silent
        // predecessors themselves, which must stop at the stream's first tile.
        sieve::prim::PrimOptions words, impatient;
        words.packedLookbackStatus = false;
        impatient.lookbackSpins = 1;
        impatient.lookbackPerLane = 3;
        ASSERT_NO_FATAL_FAILURE(take(sieve::DrawListBuilder::create(ctx().info(), words), onePassWords));
        ASSERT_NO_FATAL_FAILURE(take(sieve::DrawListBuilder::create(ctx().info(), impatient), onePassImpatient));
        sieve::prim::PrimOptions split;
        split.tier = sieve::prim::ScanTier::Subgroup;  // the scan (tier b), then the expansion
        ASSERT_NO_FATAL_FAILURE(take(sieve::DrawListBuilder::create(ctx().info(), split), twoPass));
    }

    bool singlePassDevice() { return ctx().info().subgroupBallot && ctx().info().subgroupArithmetic; }

    // lookback: the persistent look-back status (null: the status in the scratch, cleared each time).
    // marks, markEpoch: the draw marks (DrawListBuffers::drawMarks; none where empty).
    Lists run(const sieve::DrawListBuilder& list, const Input& in, const sieve::DrawListShape& shape, bool wantOnePass,
              sieve::BufferRange lookback = {}, const std::vector<uint32_t>& marks = {}, uint32_t markEpoch = 0) {
        const uint32_t streams = shape.viewCount * shape.binCount;
        std::vector<sieve::gpu::DrawStream> table;
        uint32_t records = 0;
        for (uint32_t c : in.capacities) {
            table.push_back({records, c});
            records += c;
        }
        const VkDeviceSize scratchBytes = std::max<VkDeviceSize>(list.scratchBytes(shape), 16);
        const std::vector<uint32_t> guard(size_t(records) * 8 + testing_limits::kGuardWords, kGuardWord);
        engine::Buffer instances = makeBuffer(in.scene.instances), meshes = makeBuffer(in.scene.meshes),
                       primitives = makeBuffer(in.scene.primitives), counts = makeBuffer(in.phase.drawCounts),
                       lods = makeBuffer(in.phase.lods), offsets = makeEmpty(shape.keys() * 4),
                       scratch = makeEmpty(scratchBytes), draws = makeBuffer(guard),
                       out = makeBuffer(std::vector<uint32_t>(size_t(streams) * 4, kGuardWord)),
                       streamTable = makeBuffer(table),
                       markBuffer = makeBuffer(marks.empty() ? std::vector<uint32_t>{0} : marks);
        const sieve::DrawListBuffers b{instances.range(),
                                       meshes.range(),
                                       primitives.range(),
                                       counts.range(),
                                       lods.range(),
                                       offsets.range(),
                                       scratch.range(0, scratchBytes),
                                       draws.range(),
                                       out.range(),
                                       streamTable.range(),
                                       lookback,
                                       marks.empty() ? sieve::BufferRange{} : markBuffer.range(),
                                       markEpoch};
        EXPECT_EQ(list.onePass(shape, b), wantOnePass);
        auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
            auto rec = list.record(cmd, b, shape, sieve::DrawOrder::Stable);
            EXPECT_TRUE(rec) << rec.error().message;
        });
        EXPECT_TRUE(r) << r.error().message;
        return {read<sieve::gpu::DrawCounts>(out, streams), read<uint32_t>(draws, guard.size())};
    }

    // Every stream's counts and records as the reference, guard words everywhere else.
    void expectReference(const Input& in, const sieve::DrawListShape& shape, const Lists& g) {
        const auto want =
            sieve::drawStreamsReference(in.scene.view(), in.phase, shape.viewCount, shape.binCount, in.capacities);
        ASSERT_EQ(g.counts.size(), want.size());
        uint32_t base = 0;
        for (size_t s = 0; s < want.size(); ++s) {
            SCOPED_TRACE("stream " + std::to_string(s));
            const auto& c = g.counts[s];
            EXPECT_EQ(c.count, want[s].counts.count);
            EXPECT_EQ(c.overflow, want[s].counts.overflow);
            EXPECT_EQ(c.total, want[s].counts.total);
            EXPECT_EQ(c.pad, 0u);
            for (uint32_t r = 0; r < in.capacities[s]; ++r) {
                const uint32_t* rec = &g.draws[size_t(base + r) * 8];
                if (r < want[s].draws.size())
                    ASSERT_EQ(std::memcmp(rec, &want[s].draws[r], 32), 0) << "record " << r;
                else
                    for (int w = 0; w < 8; ++w) ASSERT_EQ(rec[w], kGuardWord) << "past the count, record " << r;
            }
            base += in.capacities[s];
        }
        for (size_t w = size_t(base) * 8; w < g.draws.size(); ++w) ASSERT_EQ(g.draws[w], kGuardWord) << w;
    }

    // The scan-then-expand path and every one-pass form give the reference's lists, the same bytes.
    void expectEveryPathAgrees(const Input& in, const sieve::DrawListShape& shape) {
        const Lists two = run(twoPass, in, shape, false);
        expectReference(in, shape, two);
        if (HasFatalFailure()) return;
        for (const sieve::DrawListBuilder* list : {&onePass, &onePassWords, &onePassImpatient}) {
            SCOPED_TRACE(list == &onePass ? "one pass" : list == &onePassWords ? "two-word status" : "one poll");
            const Lists one = run(*list, in, shape, singlePassDevice());
            expectReference(in, shape, one);
            if (HasFatalFailure()) return;
            EXPECT_EQ(one.draws, two.draws);
            for (size_t s = 0; s < one.counts.size(); ++s)
                EXPECT_EQ(std::memcmp(&one.counts[s], &two.counts[s], sizeof(one.counts[s])), 0) << "stream " << s;
        }
    }

    sieve::DrawListBuilder onePass, onePassWords, onePassImpatient, twoPass;
};

}  // namespace

TEST_F(DrawListOnePassTest, EveryStreamMatchesTheReferenceAndTheScanThenExpandAtTileEdges) {
    const uint32_t tile = onePass.scan().tileSize();
    struct Case {
        uint32_t n, views, bins;
    };
    const Case cases[] = {
        {0, 2, 3},  {1, 1, 1}, {1, 3, 2}, {tile - 1, 2, 3}, {tile, 1, 2}, {tile + 1, 3, 2}, {2 * tile + 5, 2, 1},
        {777, 4, 3}};
    for (const Case& c : cases) {
        SCOPED_TRACE("instances " + std::to_string(c.n) + ", views " + std::to_string(c.views) + ", bins " +
                     std::to_string(c.bins));
        const Input in = makeInput(c.n, c.views, c.bins, 40 + c.n % 89);
        expectEveryPathAgrees(in, {c.n, c.views, c.bins, 3});
        if (HasFatalFailure()) return;
    }
}

// Few keys with draws, three records each, on both sides of the tile edges (a tile's few records, written
// by its workgroup in one pass), in two streams: one ample, one whose capacity ends inside the records of
// the last key of the first tile.
TEST_F(DrawListOnePassTest, SparseKeysWithSeveralRecordsAtTileEdgesAndACapacityCut) {
    const uint32_t tile = onePass.scan().tileSize();
    const uint32_t n = 2 * tile + 3, views = 2;
    Input in = makeInput(n, views, 1, 11);
    const uint32_t keys[] = {0, 1, tile - 2, tile - 1, tile, 2 * tile - 1, 2 * tile, n - 1};
    const uint32_t threePrimitives = 2;  // makeRandomScene's mesh m has 1 + m % 3 primitives
    ASSERT_EQ(in.scene.meshes[threePrimitives].primitiveCount, 3u);
    std::fill(in.phase.flags.begin(), in.phase.flags.end(), 0u);
    std::fill(in.phase.drawCounts.begin(), in.phase.drawCounts.end(), 0u);
    for (uint32_t i : keys) {
        in.scene.instances[i].mesh = threePrimitives;
        for (uint32_t v = 0; v < views; ++v) {
            in.phase.flags[sieve::gpu::sieveKey(v, i, n)] = 1;
            in.phase.drawCounts[sieve::gpu::sieveKey(sieve::gpu::sieveStream(v, 0, 1), i, n)] = 3;
        }
    }
    in.capacities = {uint32_t(3 * std::size(keys)), 3 * 3 + 2};  // the fourth key (tile - 1) keeps 2 of 3
    expectEveryPathAgrees(in, {n, views, 1, 3});
}

// A shape whose draw counts exceed one binding (a pretended small limit) is built by the chunked scan and
// the expansion, with the same streams.
TEST_F(DrawListOnePassTest, ShapesPastOneBindingTakeTheChunkedScan) {
    const uint32_t tile = onePass.scan().tileSize();
    const Input in = makeInput(3 * tile + 11, 2, 2, 7);
    const sieve::DrawListShape shape{3 * tile + 11, 2, 2, 3};
    sieve::prim::overrideMaxBindingBytes(uint64_t(tile) * 4 * 4);  // 4 tiles of keys per binding
    const Lists g = run(onePass, in, shape, false);
    sieve::prim::overrideMaxBindingBytes(0);
    expectReference(in, shape, g);
}

// The look-back status kept between uses (zeroed once, as the culling plugin's persistent slot): shapes
// larger and smaller one after another, each use in its own epoch, never reading a stale status.
TEST_F(DrawListOnePassTest, APersistentLookbackStatusServesShapesOneAfterAnother) {
    if (!singlePassDevice()) GTEST_SKIP() << "no single-pass scan on this device: the list never folds";
    const uint32_t tile = onePass.scan().tileSize();
    const sieve::DrawListShape largest{2 * tile + 9, 3, 2, 3};
    engine::Buffer status = makeBuffer(std::vector<uint32_t>(onePass.lookbackBytes(largest) / 4, 0));
    const sieve::DrawListShape shapes[] = {largest, {5, 1, 1, 3}, {tile + 1, 2, 2, 3}, {0, 3, 2, 3}, largest};
    uint32_t seed = 0;
    for (const sieve::DrawListShape& shape : shapes) {
        SCOPED_TRACE("instances " + std::to_string(shape.instanceCount) + ", streams " +
                     std::to_string(shape.viewCount * shape.binCount));
        const Input in = makeInput(shape.instanceCount, shape.viewCount, shape.binCount, ++seed);
        expectReference(in, shape, run(onePass, in, shape, true, status.range()));
        if (HasFatalFailure()) return;
    }
}

// Draw marks (one per SIEVE_DRAW_MARK_KEYS keys, DrawListBuffers::drawMarks): where every group with a draw is
// marked, stale marks elsewhere (the epoch itself, another, all ones) change nothing; a group with draws left
// unmarked is read as zeros (the marks are what the scan reads), at key counts that are not multiples of a group
// and groups that straddle two streams. Marks smaller than the keys are refused.
TEST_F(DrawListOnePassTest, DrawMarksSkipUnmarkedGroupsAndStaleMarksChangeNothing) {
    if (!singlePassDevice()) GTEST_SKIP() << "no single-pass scan on this device: marks are not read";
    const uint32_t tile = onePass.scan().tileSize(), group = sieve::gpu::SIEVE_DRAW_MARK_KEYS, epoch = 77;
    struct Case {
        uint32_t n, views, bins;
    };
    for (const Case& c : {Case{tile - 1, 2, 3}, Case{tile + 1, 3, 2}, Case{777, 4, 3}, Case{37, 1, 1}}) {
        SCOPED_TRACE("instances " + std::to_string(c.n) + ", views " + std::to_string(c.views) + ", bins " +
                     std::to_string(c.bins));
        Input in = makeInput(c.n, c.views, c.bins, 5 + c.n % 13);
        const sieve::DrawListShape shape{c.n, c.views, c.bins, 3};
        const size_t keys = in.phase.drawCounts.size();
        std::vector<uint32_t> marks((keys + group - 1) / group);
        uint32_t withDraws = 0;
        for (size_t g = 0; g < marks.size(); ++g) {
            bool any = false;
            for (size_t k = g * group; k < std::min(keys, (g + 1) * group); ++k) any = any || in.phase.drawCounts[k];
            const uint32_t stale[] = {epoch, epoch - 2, 0xffffffffu};
            marks[g] = any ? epoch : stale[g % 3];
            withDraws += any;
        }
        ASSERT_GE(withDraws, 2u);
        expectReference(in, shape, run(onePass, in, shape, true, {}, marks, epoch));
        expectReference(in, shape, run(onePassWords, in, shape, true, {}, marks, epoch));
        if (HasFatalFailure()) return;
        // Unmark the second group with draws: its counts are not read.
        size_t dropped = 0;
        for (size_t g = 0, seen = 0; g < marks.size(); ++g)
            if (marks[g] == epoch &&
                std::any_of(in.phase.drawCounts.begin() + g * group,
                            in.phase.drawCounts.begin() + std::min(keys, (g + 1) * group),
                            [](uint32_t x) { return x != 0; }) &&
                ++seen == 2) {
                marks[g] = epoch + 1;
                dropped = g;
                break;
            }
        const Lists g = run(onePass, in, shape, true, {}, marks, epoch);
        for (size_t k = dropped * group; k < std::min(keys, (dropped + 1) * group); ++k) in.phase.drawCounts[k] = 0;
        expectReference(in, shape, g);
        if (HasFatalFailure()) return;
    }
    // Marks that do not cover the keys: refused.
    const Input in = makeInput(100, 1, 1, 3);
    engine::Buffer counts = makeBuffer(in.phase.drawCounts), small = makeEmpty(12);
    sieve::DrawListBuffers b{};
    b.drawCounts = counts.range();
    b.drawMarks = small.range(0, 12);
    b.markEpoch = epoch;
    auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
        EXPECT_FALSE(onePass.record(cmd, b, {100, 1, 1, 3}, sieve::DrawOrder::Stable)) << "4 marks for 100 keys";
    });
    EXPECT_TRUE(r);
}

// A total that could pass 2^32 - 1 is refused before anything is recorded, in one pass or not.
TEST_F(DrawListOnePassTest, TotalsThatCouldOverflowAreRefused) {
    const sieve::DrawListShape shape{1000, 2, 1, 3'000'000};
    engine::Buffer buffer = makeEmpty(1 << 20);
    const sieve::BufferRange r = buffer.range();
    const sieve::DrawListBuffers b{r, r, r, r, r, r, r, r, r, r, r};
    for (const sieve::DrawListBuilder* list : {&onePass, &twoPass}) {
        sieve::Result<void> rec;
        auto s =
            ctx().submitNow([&](VkCommandBuffer cmd) { rec = list->record(cmd, b, shape, sieve::DrawOrder::Stable); });
        ASSERT_TRUE(s) << s.error().message;
        ASSERT_FALSE(rec);
        EXPECT_NE(rec.error().message.find("2^32-1"), std::string::npos) << rec.error().message;
    }
}
