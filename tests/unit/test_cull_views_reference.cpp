// The multi-view CPU reference against the one-view reference it generalises: for every view, its
// flags, LODs and counters are those of the view alone, restricted to the instances its mask keeps; its
// bins' draw counts add up to the instance's primitives and count each primitive in its (clamped) bin;
// and the streams hold exactly the flagged instances' primitives, in order, up to each capacity.
#include <gtest/gtest.h>

#include <random>

#include "gpu/test_cull_flags_util.h"
#include "shared/cull_state.h"

namespace {

using sieve::gpu::CullParams;

std::vector<CullParams> viewsFor(uint32_t n) {
    const VkExtent2D e{64, 40};
    auto cams = testing_cull::allCameras(64.0f / 40.0f);
    std::vector<CullParams> views;
    const uint32_t masks[] = {0, sieve::gpu::SIEVE_INSTANCE_CASTS_SHADOW, 0, sieve::gpu::SIEVE_INSTANCE_DEFAULT_FLAGS};
    const size_t pick[] = {0, cams.size() - 3, 2, cams.size() - 1};
    for (int v = 0; v < 4; ++v) {
        sieve::CullSettings s;
        s.toggles = v == 0 ? sieve::gpu::SIEVE_CULL_ALL & ~sieve::gpu::SIEVE_CULL_OCCLUSION
                           : sieve::gpu::SIEVE_CULL_FRUSTUM | sieve::gpu::SIEVE_CULL_LOD |
                                 (v >= 2 ? sieve::gpu::SIEVE_CULL_EARLY : 0u);
        s.lodThreshold = 2.0f;
        auto p = testing_cull::makeParams(cams[pick[v]], e, n, s);
        EXPECT_TRUE(p) << p.error().message;
        views.push_back(p ? p.value() : CullParams{});
        views.back().instanceMask = masks[v];
    }
    return views;
}

}  // namespace

TEST(CullViewsReference, EachViewIsItsOneViewReferenceOnTheInstancesItKeeps) {
    const uint32_t n = 700, bins = 3;
    auto scene = testing_cull::makeRandomScene(n, 5);
    std::mt19937 rng(9);
    for (auto& p : scene.primitives) p.bin = rng() % (bins + 2);
    for (auto& i : scene.instances) i.flags = rng() % 4;
    const auto views = viewsFor(n);
    std::vector<uint32_t> visibleLast(views.size() * n);
    for (auto& x : visibleLast) x = rng() % 2;
    std::vector<sieve::gpu::CullCounters> counters(views.size());
    const auto early = sieve::cullEarlyReference(views, bins, scene.view(), visibleLast, counters);
    std::vector<uint32_t> vis = visibleLast;
    const auto late = sieve::cullLateReference(views, bins, scene.view(), early.lods, nullptr, vis, counters);
    for (uint32_t v = 0; v < views.size(); ++v) {
        SCOPED_TRACE("view " + std::to_string(v));
        // The view alone, on a scene whose instances it does not keep are moved out of every frustum.
        testing_cull::RandomScene alone = scene;
        for (size_t i = 0; i < alone.instances.size(); ++i)
            if ((alone.instances[i].flags & views[v].instanceMask) != views[v].instanceMask)
                alone.bounds[i].sphere = {1e30f, 0, 0, 1};
        CullParams p = views[v];
        p.toggles |= sieve::gpu::SIEVE_CULL_FRUSTUM;  // (so that the moved instances are culled)
        sieve::gpu::CullCounters c1{};
        const std::vector<uint32_t> last(visibleLast.begin() + v * n, visibleLast.begin() + (v + 1) * n);
        const bool earlyView = p.toggles & sieve::gpu::SIEVE_CULL_EARLY;
        auto e1 = sieve::cullEarlyReference(p, alone.view(), last, c1);
        std::vector<uint32_t> vis1 = last;
        auto l1 = sieve::cullLateReference(p, alone.view(), e1.lods, nullptr, vis1, c1);
        for (uint32_t i = 0; i < n; ++i) {
            ASSERT_EQ(early.flags[v * n + i], e1.flags[i]) << i;
            ASSERT_EQ(early.lods[v * n + i], e1.lods[i]) << i;
            ASSERT_EQ(late.flags[v * n + i], l1.flags[i]) << i;
            ASSERT_EQ(vis[v * n + i], vis1[i]) << i;
            uint32_t sum = 0;
            for (uint32_t b = 0; b < bins; ++b) sum += late.drawCounts[(v * bins + b) * n + i];
            ASSERT_EQ(sum, l1.drawCounts[i]) << i;
        }
        EXPECT_EQ(counters[v].frustumVisible, c1.frustumVisible);
        EXPECT_EQ(counters[v].earlyDrawn, c1.earlyDrawn);
        EXPECT_EQ(counters[v].lateVisible, c1.lateVisible);
        EXPECT_EQ(counters[v].lateDrawn, c1.lateDrawn);
        // An EARLY view is decided by the early pass alone: everything in its frustum is drawn there.
        if (earlyView) {
            for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(early.flags[v * n + i], vis1[i]) << i;
        }
    }
    // Bins: each primitive of a flagged instance in exactly its clamped bin.
    for (uint32_t i = 0; i < n; ++i) {
        if (!late.flags[i]) continue;
        const auto& mesh = scene.meshes[scene.instances[i].mesh];
        for (uint32_t b = 0; b < bins; ++b) {
            uint32_t want = 0;
            for (uint32_t k = 0; k < mesh.primitiveCount; ++k)
                want += std::min(scene.primitives[mesh.firstPrimitive + k].bin, bins - 1) == b;
            ASSERT_EQ(late.drawCounts[b * n + i], want) << "instance " << i << " bin " << b;
        }
    }
    // Streams: the flagged instances' primitives in order, cut at each capacity.
    std::vector<uint32_t> caps(views.size() * bins);
    for (auto& c : caps) c = rng() % 300;
    const auto streams = sieve::drawStreamsReference(scene.view(), late, uint32_t(views.size()), bins, caps);
    for (size_t s = 0; s < streams.size(); ++s) {
        const auto& st = streams[s];
        EXPECT_EQ(st.draws.size(), st.counts.count);
        EXPECT_EQ(st.counts.count + st.counts.overflow, st.counts.total);
        EXPECT_LE(st.counts.count, caps[s]);
        for (size_t r = 1; r < st.draws.size(); ++r)
            ASSERT_TRUE(st.draws[r - 1].firstInstance < st.draws[r].firstInstance ||
                        (st.draws[r - 1].firstInstance == st.draws[r].firstInstance &&
                         st.draws[r - 1].primitive < st.draws[r].primitive));
        for (const auto& d : st.draws)
            ASSERT_EQ(std::min(scene.primitives[d.primitive].bin, bins - 1), uint32_t(s % bins));
    }
}
