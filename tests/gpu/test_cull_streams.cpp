// Many views and bins in one flag pass per phase and one scan per phase: every (view, bin) stream equals
// the CPU reference exactly (records in instance order, counts, overflow), for random scenes seen by
// perspective and orthographic views with instance masks, at edge instance counts, and the same bytes
// when the frame is run again. Nothing is written outside a stream's capacity (guard words).
#include <random>

#include "gpu/test_limits_util.h"

using testing_cull::vec4;
using testing_limits::kGuardWord;

namespace {

constexpr uint32_t kBins = 3;

struct Views {
    std::vector<sieve::gpu::CullParams> params;  // the late pass culls the first lateViews of them
    uint32_t lateViews = 2;
    std::vector<uint32_t> capacities;  // per stream
    std::vector<float> depth;          // view 0's depth
    VkExtent2D extent{};               // of view 0's depth
};

struct StreamsOut {
    std::vector<uint32_t> flags[2], lods[2], drawCounts[2], visibleLast, state;
    std::vector<sieve::gpu::DrawCounts> counts[2];
    std::vector<uint32_t> draws[2];  // raw words of the whole draw buffer (guards included)
    std::vector<sieve::gpu::CullCounters> counters;
};

class CullStreamsTest : public testing_limits::CullPathTest {
protected:
    // A camera, a shadow-like orthographic view of casters, a perspective view looking elsewhere and an
    // off-centre reverse-Z orthographic view of receivers; capacities from tiny (overflow) to ample.
    Views makeViews(uint32_t n, uint32_t seed) {
        Views v;
        v.extent = {96, 61};
        std::mt19937 rng(seed);
        const float aspect = float(v.extent.width) / float(v.extent.height);
        auto cams = testing_cull::allCameras(aspect);
        testing_cull::Camera main = cams[0];
        testing_cull::Camera ortho = cams[cams.size() - 3];  // orthographic standard-Z
        ortho.view = glm::lookAt(glm::vec3(10, 30, 5), glm::vec3(0, 0, -10), glm::vec3(0, 0, -1));
        testing_cull::Camera side = testing_cull::makeCamera(1.0f, {2, 1, 0}, {30, 0, 5});
        testing_cull::Camera receivers = cams[cams.size() - 2];  // orthographic reverse-Z off-centre
        std::mt19937 wallRng(seed + 1);
        v.depth = testing_cull::makeWallDepth(
            v.extent.width, v.extent.height, main,
            testing_cull::randomWallsInView(main, v.extent.width, v.extent.height, 6, wallRng));
        struct Spec {
            const testing_cull::Camera* cam;
            VkExtent2D extent;
            uint32_t tests, mask;
        };
        using namespace sieve::gpu;
        const Spec specs[] = {
            {&main, v.extent, SIEVE_CULL_ALL, 0},
            {&ortho, {64, 64}, SIEVE_CULL_FRUSTUM, SIEVE_INSTANCE_CASTS_SHADOW},
            // Culled completely by the early pass.
            {&side, {33, 17}, SIEVE_CULL_FRUSTUM | SIEVE_CULL_LOD | SIEVE_CULL_EARLY, 0},
            {&receivers, {40, 50}, SIEVE_CULL_FRUSTUM | SIEVE_CULL_EARLY, SIEVE_INSTANCE_RECEIVES_SHADOW},
        };
        for (const Spec& s : specs) {
            sieve::CullSettings settings;
            settings.toggles = s.tests;
            settings.lodThreshold = 2.0f;
            auto p = testing_cull::makeParams(*s.cam, s.extent, n, settings);
            EXPECT_TRUE(p) << p.error().message;
            v.params.push_back(p ? p.value() : CullParams{});
            v.params.back().instanceMask = s.mask;
        }
        const uint32_t ample = std::max(n * 3, 1u);
        for (uint32_t s = 0; s < v.params.size() * kBins; ++s) {
            const uint32_t kind = rng() % 4;
            v.capacities.push_back(kind == 0 ? 0 : kind == 1 ? 1 + rng() % 40 : ample);
        }
        return v;
    }

    // rounds: the early shader's instances per invocation (CullLayout::earlyRounds).
    StreamsOut run(const testing_cull::RandomScene& scene, const Views& v, const std::vector<uint32_t>& visibleLast,
                   sieve::CullLayout::EarlyRounds rounds = sieve::CullLayout::EarlyRounds::Auto) {
        const uint32_t n = uint32_t(scene.instances.size()), views = uint32_t(v.params.size());
        const uint32_t streams = views * kBins;
        std::vector<sieve::gpu::DrawStream> table;
        uint32_t records = 0;
        for (uint32_t c : v.capacities) {
            table.push_back({records, c});
            records += c;
        }
        const VkDeviceSize keys = VkDeviceSize(n) * streams, perView = VkDeviceSize(n) * views;
        engine::Buffer params = makeBuffer(v.params, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT),
                       instances = makeBuffer(scene.instances), bounds = makeBuffer(scene.bounds),
                       meshes = makeBuffer(scene.meshes), primitives = makeBuffer(scene.primitives),
                       visible = makeBuffer(visibleLast), state = makeEmpty(n * 4),
                       counters = makeBuffer(
                           std::vector<sieve::gpu::CullCounterStripe>(views * sieve::gpu::SIEVE_CULL_COUNTER_STRIPES)),
                       streamTable = makeBuffer(table),
                       scratch = makeEmpty(drawList.scratchBytes({n, views, kBins, 1}) + 16);
        struct Phase {
            engine::Buffer flags, lods, drawCounts, offsets, draws, counts;
        };
        const std::vector<uint32_t> guard(size_t(records) * 8 + testing_limits::kGuardWords, kGuardWord);
        auto makePhase = [&] {
            return Phase{makeEmpty(perView * 4), makeEmpty(perView * 4), makeEmpty(keys * 4),
                         makeEmpty(keys * 4),    makeBuffer(guard),      makeEmpty(streams * 16)};
        };
        Phase ph[2] = {makePhase(), makePhase()};
        auto images = testing_gpu::makeDepthAndPyramid(ctx(), v.extent, v.depth);
        auto flagBuffers = [&](Phase& p) {
            return sieve::CullPhaseBuffers{params.range(),     instances.range(), bounds.range(),  meshes.range(),
                                           primitives.range(), visible.range(),   p.flags.range(), p.drawCounts.range(),
                                           p.lods.range(),     counters.range()};
        };
        auto listBuffers = [&](Phase& p) {
            return sieve::DrawListBuffers{
                instances.range(), meshes.range(),  primitives.range(), p.drawCounts.range(), p.lods.range(),
                p.offsets.range(), scratch.range(), p.draws.range(),    p.counts.range(),     streamTable.range()};
        };
        const sieve::CullLayout layout{n, views, kBins, true, true, rounds}, lateLayout{n, v.lateViews, kBins};
        const sieve::DrawListShape shape{n, views, kBins, 3}, lateShape{n, v.lateViews, kBins, 3};
        auto r = ctx().submitNow([&](VkCommandBuffer cmd) {
            flags.recordEarly(cmd, flagBuffers(ph[0]), layout);
            testing_limits::computeBarrier(cmd);
            auto e = drawList.record(cmd, listBuffers(ph[0]), shape, sieve::DrawOrder::Stable);
            EXPECT_TRUE(e) << e.error().message;
            auto built = hiz.recordPerMip(cmd, images.source(), images.target());
            EXPECT_TRUE(built) << built.error().message;
            testing_limits::computeBarrier(cmd);
            testing_gpu::imageBarrier(cmd, images.pyramid.handle(), VK_IMAGE_ASPECT_COLOR_BIT,
                                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                                      VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                      VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
            flags.recordLate(
                cmd, flagBuffers(ph[1]),
                {ph[0].lods.range(), state.range(), images.pyramid.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                lateLayout);
            testing_limits::computeBarrier(cmd);
            auto l = drawList.record(cmd, listBuffers(ph[1]), lateShape, sieve::DrawOrder::Stable);
            EXPECT_TRUE(l) << l.error().message;
        });
        EXPECT_TRUE(r) << r.error().message;
        StreamsOut o;
        for (int p = 0; p < 2; ++p) {
            o.flags[p] = read<uint32_t>(ph[p].flags, perView);
            o.lods[p] = read<uint32_t>(ph[p].lods, perView);
            o.drawCounts[p] = read<uint32_t>(ph[p].drawCounts, keys);
            o.counts[p] = read<sieve::gpu::DrawCounts>(ph[p].counts, streams);
            o.draws[p] = read<uint32_t>(ph[p].draws, guard.size());
        }
        o.visibleLast = read<uint32_t>(visible, perView);
        o.state = read<uint32_t>(state, n);
        o.counters = sieve::sumCounterStripes(
            read<sieve::gpu::CullCounterStripe>(counters, views * sieve::gpu::SIEVE_CULL_COUNTER_STRIPES));
        return o;
    }

    // Flags, LODs, keys, state and counters as the reference; then every stream's records and counts,
    // and guard words everywhere no record may be.
    void expectMatchesReference(const testing_cull::RandomScene& scene, const Views& v,
                                const std::vector<uint32_t>& visibleLast, const StreamsOut& g) {
        const uint32_t views = uint32_t(v.params.size());
        std::vector<sieve::gpu::CullCounters> counters(views);
        const sieve::HiZPyramidCpu pyramid = sieve::hizReference(v.extent, v.depth);
        auto early = sieve::cullEarlyReference(v.params, kBins, scene.view(), visibleLast, counters);
        std::vector<uint32_t> vis = visibleLast;
        const std::span<const sieve::gpu::CullParams> lateParams(v.params.data(), v.lateViews);
        auto late = sieve::cullLateReference(lateParams, kBins, scene.view(), early.lods, &pyramid, vis, counters);
        const sieve::CullPhaseOutput* phases[2] = {&early, &late};
        const size_t n = scene.instances.size();
        for (int p = 0; p < 2; ++p) {
            SCOPED_TRACE(p ? "late" : "early");
            // The late pass writes only its views' part of the arrays.
            const uint32_t culled = p ? v.lateViews : views;
            auto prefix = [&](const std::vector<uint32_t>& a, size_t count) {
                return std::vector<uint32_t>(a.begin(), a.begin() + std::min(a.size(), count));
            };
            // What the flag passes write (early flags of two-phase views, LODs where flagged).
            const std::span<const sieve::gpu::CullParams> culledViews(v.params.data(), culled);
            auto flags = prefix(g.flags[p], culled * n), wantFlags = phases[p]->flags;
            if (p == 0) {
                flags = testing_cull::writtenEarlyFlags(flags, culledViews, n);
                wantFlags = testing_cull::writtenEarlyFlags(wantFlags, culledViews, n);
            }
            ASSERT_EQ(flags, wantFlags);
            ASSERT_EQ(testing_cull::writtenLods(prefix(g.lods[p], culled * n), phases[p]->flags), phases[p]->lods);
            ASSERT_EQ(prefix(g.drawCounts[p], culled * kBins * n), phases[p]->drawCounts);
            auto want = sieve::drawStreamsReference(scene.view(), *phases[p], culled, kBins, v.capacities);
            want.resize(v.capacities.size());  // streams the phase does not build: nothing written
            uint32_t base = 0;
            for (size_t s = 0; s < want.size(); ++s) {
                SCOPED_TRACE("stream " + std::to_string(s));
                if (s >= culled * kBins) {
                    for (size_t w = 0; w < size_t(v.capacities[s]) * 8; ++w)
                        ASSERT_EQ(g.draws[p][size_t(base) * 8 + w], kGuardWord);
                    base += v.capacities[s];
                    continue;
                }
                const auto& c = g.counts[p][s];
                EXPECT_EQ(c.count, want[s].counts.count);
                EXPECT_EQ(c.total, want[s].counts.total);
                EXPECT_EQ(c.overflow, want[s].counts.overflow);
                ASSERT_EQ(want[s].draws.size(), want[s].counts.count);
                for (uint32_t r = 0; r < v.capacities[s]; ++r) {
                    const uint32_t* rec = &g.draws[p][size_t(base + r) * 8];
                    if (r < want[s].draws.size())
                        ASSERT_EQ(std::memcmp(rec, &want[s].draws[r], 32), 0) << "record " << r;
                    else
                        for (int w = 0; w < 8; ++w) ASSERT_EQ(rec[w], kGuardWord) << "past the count, record " << r;
                }
                base += v.capacities[s];
            }
            for (size_t w = size_t(base) * 8; w < g.draws[p].size(); ++w) ASSERT_EQ(g.draws[p][w], kGuardWord);
        }
        EXPECT_EQ(g.visibleLast, vis);
        EXPECT_EQ(g.state, late.state);
        for (uint32_t k = 0; k < views; ++k) {
            EXPECT_EQ(g.counters[k].frustumVisible, counters[k].frustumVisible) << "view " << k;
            EXPECT_EQ(g.counters[k].earlyDrawn, counters[k].earlyDrawn) << "view " << k;
            EXPECT_EQ(g.counters[k].lateVisible, counters[k].lateVisible) << "view " << k;
            EXPECT_EQ(g.counters[k].lateDrawn, counters[k].lateDrawn) << "view " << k;
        }
    }
};

// Bins 0..kBins (kBins counts as the last bin) and random instance kinds.
testing_cull::RandomScene binnedScene(uint32_t n, uint32_t seed) {
    auto scene = testing_cull::makeRandomScene(n, seed, 40.0f);
    std::mt19937 rng(seed * 7 + 1);
    for (auto& p : scene.primitives) p.bin = rng() % (kBins + 1);
    for (auto& inst : scene.instances) inst.flags = rng() % 4;
    // The last mesh claims 3 primitives past the end of the table: indices that are not primitives draw
    // nothing and are never read (issue 22: the expansion read them).
    if (!scene.meshes.empty() && !scene.primitives.empty()) {
        auto& m = scene.meshes.back();
        m.primitiveCount =
            uint32_t(scene.primitives.size()) - std::min(m.firstPrimitive, uint32_t(scene.primitives.size())) + 3;
    }
    return scene;
}

}  // namespace

TEST_F(CullStreamsTest, EveryViewAndBinStreamMatchesTheReferenceAtEdgeSizes) {
    for (uint32_t n : {0u, 1u, 63u, 64u, 65u, 1000u, (1u << 16) + 3}) {
        SCOPED_TRACE("instances " + std::to_string(n));
        const auto scene = binnedScene(n, 100 + n % 97);
        const Views v = makeViews(n, n);
        std::mt19937 rng(n);
        std::vector<uint32_t> visibleLast(size_t(n) * v.params.size());
        for (auto& x : visibleLast) x = rng() % 3 != 0;
        const StreamsOut a = run(scene, v, visibleLast);
        expectMatchesReference(scene, v, visibleLast, a);
        if (HasFatalFailure()) return;
        // The same frame again: byte-identical streams.
        const StreamsOut b = run(scene, v, visibleLast);
        EXPECT_EQ(a.draws[0], b.draws[0]);
        EXPECT_EQ(a.draws[1], b.draws[1]);
        {
            // Four instances per early invocation (the plugin's choice from kEarlyRoundsFrom on), every view.
            SCOPED_TRACE("four early rounds");
            expectMatchesReference(scene, v, visibleLast,
                                   run(scene, v, visibleLast, sieve::CullLayout::EarlyRounds::Four));
            if (HasFatalFailure()) return;
        }
        if (n == 1000) {
            // The scene exercises what it claims: masks, frustum, occlusion, several bins, overflow.
            uint32_t overflow = 0, nonEmpty = 0;
            for (int p = 0; p < 2; ++p)
                for (const auto& c : a.counts[p]) {
                    overflow += c.overflow;
                    nonEmpty += c.count > 0;
                }
            EXPECT_GT(overflow, 0u);
            EXPECT_GT(nonEmpty, 6u);
            EXPECT_LT(a.counters[0].lateVisible, a.counters[0].frustumVisible) << "nothing was occluded";
            for (size_t k = 1; k < a.counters.size(); ++k) {
                EXPECT_GT(a.counters[k].frustumVisible, 0u) << "view " << k;
                EXPECT_LT(a.counters[k].frustumVisible, n / 2) << "view " << k << " culls little";
            }
        }
    }
}
