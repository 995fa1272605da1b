// The fused culling pipeline (one pass per phase, shaders/cull/fused.glsl) against the separate one
// (flag pass + scan + expansion, which the stream tests compare with the CPU reference): on the reference
// host, the same city, cameras and views, every (view, bin) stream's records and counts, cull.state, the
// persistent visibility and the per-view stats are equal byte for byte (stable order) or as the same
// records per stream (atomic order), at edge instance counts (one tile, a tile and one, ...) and with
// more streams than one round of the fused pass scans (12 views x 3 bins), in every culling mode.
#include <algorithm>
#include <cstring>
#include <string>

#include "assets/glm_interop.h"
#include "assets/procedural_city.h"
#include "engine/scene/scene_renderer.h"
#include "engine/target/headless_target.h"
#include "gpu/gpu_fixture.h"
#include "gpu/test_cull_views.h"
#include "gpu/test_render_frames.h"
#include "shared/cull_fused.h"
#include "shared/draw.h"

using testing_gpu::GpuTest;

namespace {

using sieve::gpu::DrawCommand;
using sieve::gpu::DrawCounts;

constexpr uint32_t kViews = 12;
constexpr uint32_t kBins = 3;
static_assert(kViews * kBins > sieve::gpu::SIEVE_FUSED_CHUNK, "more streams than one round");

struct Capture {
    std::vector<DrawCounts> counts[2];               // per stream, early / late
    std::vector<std::vector<DrawCommand>> draws[2];  // per stream, its first count records
    std::vector<uint32_t> state, visibility;
};

// Extra views: orthographic ones from above (every other one of shadow casters only) and perspective
// ones from the street looking elsewhere, some without LOD.
std::vector<sieve::CullView> extraViews(const sieve::assets::SceneData& scene) {
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const auto& i : scene.instances) {
        lo = glm::min(lo, glm::vec3(i.sphere.x, i.sphere.y, i.sphere.z));
        hi = glm::max(hi, glm::vec3(i.sphere.x, i.sphere.y, i.sphere.z));
    }
    const glm::vec3 centre = (lo + hi) * 0.5f;
    std::vector<sieve::CullView> views;
    for (uint32_t k = 0; k + 1 < kViews; ++k) {
        sieve::CullView v;
        const float a = float(k) * 0.57f;
        if (k % 2 == 0) {
            const glm::mat4 down =
                glm::lookAt(centre + glm::vec3(30 * std::cos(a), 150, 30 * std::sin(a)), centre, glm::vec3(0, 0, -1));
            const float half = 20.0f + 15.0f * float(k);
            v.desc = {down,
                      testing_cull::orthographic(-half, half, -half, half, 0.0f, 400.0f, k % 4 == 0),
                      {0.0f, 0.0f, 129.0f, 65.0f, 0.0f, 1.0f}};
            v.tests = sieve::gpu::SIEVE_CULL_FRUSTUM;
            v.instanceMask = k % 4 == 0 ? sieve::gpu::SIEVE_INSTANCE_CASTS_SHADOW : 0u;
            v.kind = sieve::ViewKind::Shadow;
        } else {
            const glm::vec3 eye = centre + glm::vec3(10.0f * float(k), 4.0f, -5.0f * float(k));
            v.desc = {glm::lookAt(eye, eye + glm::vec3(std::cos(a), -0.1f, std::sin(a)), glm::vec3(0, 1, 0)),
                      sieve::perspectiveReverseZ(1.2f, 1.5f, 0.1f),
                      {0.0f, 0.0f, 90.0f, 60.0f, 0.0f, 1.0f}};
            v.tests = sieve::gpu::SIEVE_CULL_FRUSTUM | (k % 3 == 0 ? 0u : sieve::gpu::SIEVE_CULL_LOD);
            v.kind = sieve::ViewKind::Light;
        }
        v.name = "extra " + std::to_string(k);
        views.push_back(v);
    }
    return views;
}

class FusedCullingTest : public GpuTest {
protected:
    struct Host {
        std::unique_ptr<engine::HeadlessTarget> target;
        std::unique_ptr<engine::SceneRenderer> renderer;
    };

    Host makeHost(const sieve::assets::SceneData& scene, VkExtent2D extent, bool fused) {
        Host h;
        auto target = engine::HeadlessTarget::create(ctx(), {extent, VK_FORMAT_R8G8B8A8_UNORM, 2});
        EXPECT_TRUE(target) << target.error().message;
        if (!target) return h;
        h.target = std::move(target).value();
        auto r = engine::SceneRenderer::create(ctx(), scene, h.target->colorFormat(), extent,
                                               {.maxViews = kViews, .fusedCulling = fused});
        EXPECT_TRUE(r) << r.error().message;
        if (r) h.renderer = std::move(r).value();
        return h;
    }

    template <typename T>
    std::vector<T> read(engine::SceneRenderer& r, const char* slot, VkDeviceSize offset, size_t count) {
        const sieve::SlotBinding* b = r.binding(slot);
        EXPECT_TRUE(b) << slot;
        std::vector<T> out(count + offset / sizeof(T));
        if (b && !out.empty()) copyOut(b->buffer, out.data(), out.size() * sizeof(T));
        out.erase(out.begin(), out.begin() + offset / sizeof(T));
        return out;
    }

    Capture capture(engine::SceneRenderer& r, uint32_t instances) {
        Capture c;
        sieve::CullingPlugin& p = r.plugin();
        const uint32_t bins = p.config().binCount, streams = p.config().maxViews * bins;
        const char* draws[2] = {sieve::CullingPlugin::kDrawsEarly, sieve::CullingPlugin::kDrawsLate};
        const char* counts[2] = {sieve::CullingPlugin::kCountsEarly, sieve::CullingPlugin::kCountsLate};
        for (int phase = 0; phase < 2; ++phase) {
            c.counts[phase] = read<DrawCounts>(r, counts[phase], 0, streams);
            for (uint32_t s = 0; s < streams; ++s) {
                const sieve::StreamRange range = p.stream(s / bins, s % bins);
                const uint32_t n = std::min(c.counts[phase][s].count, range.maxDraws);
                c.draws[phase].push_back(read<DrawCommand>(r, draws[phase], range.drawOffset, n));
            }
        }
        c.state = read<uint32_t>(r, sieve::CullingPlugin::kInstanceState, 0, instances);
        c.visibility = read<uint32_t>(r, "cull.visibility", 0, size_t(instances) * p.config().maxViews);
        return c;
    }

    static bool sameRecord(const DrawCommand& a, const DrawCommand& b) { return std::memcmp(&a, &b, sizeof(a)) == 0; }

    // stable: the records of every stream in the same order; else the same records in any order.
    void expectEqual(const Capture& fused, const Capture& separate, bool stable) {
        for (int phase = 0; phase < 2; ++phase) {
            SCOPED_TRACE(phase == 0 ? "early" : "late");
            ASSERT_EQ(fused.counts[phase].size(), separate.counts[phase].size());
            for (size_t s = 0; s < fused.counts[phase].size(); ++s) {
                SCOPED_TRACE("stream " + std::to_string(s));
                const DrawCounts& f = fused.counts[phase][s];
                const DrawCounts& e = separate.counts[phase][s];
                EXPECT_EQ(f.count, e.count);
                EXPECT_EQ(f.overflow, e.overflow);
                EXPECT_EQ(f.total, e.total);
                auto a = fused.draws[phase][s], b = separate.draws[phase][s];
                ASSERT_EQ(a.size(), b.size());
                if (!stable) {
                    // Atomic order: which records fill a full stream is not defined; the others are a set.
                    if (f.overflow) continue;
                    auto less = [](const DrawCommand& x, const DrawCommand& y) {
                        return std::memcmp(&x, &y, sizeof(x)) < 0;
                    };
                    std::sort(a.begin(), a.end(), less);
                    std::sort(b.begin(), b.end(), less);
                }
                for (size_t k = 0; k < a.size(); ++k)
                    ASSERT_TRUE(sameRecord(a[k], b[k]))
                        << "record " << k << ": instance " << a[k].firstInstance << " vs " << b[k].firstInstance;
            }
        }
        EXPECT_EQ(fused.state, separate.state);
        EXPECT_EQ(fused.visibility, separate.visibility);
    }

    static void expectSameStats(const sieve::CullingStats& f, const sieve::CullingStats& e) {
        ASSERT_TRUE(f.valid && e.valid);
        ASSERT_EQ(f.views.size(), e.views.size());
        for (size_t v = 0; v < f.views.size(); ++v) {
            SCOPED_TRACE("view " + std::to_string(v));
            EXPECT_EQ(f.views[v].frustumVisible, e.views[v].frustumVisible);
            EXPECT_EQ(f.views[v].earlyDrawn, e.views[v].earlyDrawn);
            EXPECT_EQ(f.views[v].lateVisible, e.views[v].lateVisible);
            EXPECT_EQ(f.views[v].lateDrawn, e.views[v].lateDrawn);
        }
    }
};

struct Mode {
    const char* name;
    void (*apply)(sieve::CullingToggles&);
};

const Mode kModes[] = {
    {"every test, stable", [](sieve::CullingToggles&) {}},
    {"single phase", [](sieve::CullingToggles& t) { t.twoPhase = false; }},
    {"LOD off", [](sieve::CullingToggles& t) { t.lod = false; }},
    {"occlusion off", [](sieve::CullingToggles& t) { t.occlusion = false; }},
    {"frustum off", [](sieve::CullingToggles& t) { t.frustum = false; }},
    {"atomic order", [](sieve::CullingToggles& t) { t.stable = false; }},
};

}  // namespace

TEST_F(FusedCullingTest, StreamsEqualTheSeparatePipelineAtEdgeSizesInEveryMode) {
    if (!ctx().info().bufferInt64Atomics) GTEST_SKIP() << "no 64-bit buffer atomics: no fused pipeline";
    const uint32_t tile = sieve::gpu::SIEVE_FUSED_TILE;
    for (const uint32_t n : {1u, tile - 1, tile, tile + 1, 3 * tile + 37}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        auto city = sieve::assets::makeCity(n, 11);
        ASSERT_TRUE(city) << city.error();
        sieve::assets::SceneData scene = std::move(city).value();
        // Three bins, mixed within meshes; every third instance casts no shadow.
        for (size_t p = 0; p < scene.primitives.size(); ++p)
            scene.primitives[p].bin = uint32_t((p * 7 + p / 3) % kBins);
        for (size_t i = 0; i < scene.instances.size(); i += 3)
            scene.instances[i].flags = sieve::gpu::SIEVE_INSTANCE_RECEIVES_SHADOW;
        const VkExtent2D extent{97, 61};
        Host fused = makeHost(scene, extent, true), separate = makeHost(scene, extent, false);
        ASSERT_TRUE(fused.renderer && separate.renderer);
        ASSERT_TRUE(fused.renderer->plugin().fused());
        ASSERT_FALSE(separate.renderer->plugin().fused());
        ASSERT_EQ(fused.renderer->plugin().config().binCount, kBins);
        const auto extra = extraViews(scene);
        fused.renderer->setExtraViews(extra);
        separate.renderer->setExtraViews(extra);
        uint32_t drawn = 0;
        for (const Mode& mode : kModes) {
            SCOPED_TRACE(mode.name);
            sieve::CullingToggles t;
            mode.apply(t);
            fused.renderer->plugin().toggles() = t;
            separate.renderer->plugin().toggles() = t;
            // Two frames: the second one's early phase reads the visibility the first one left.
            for (Host* h : {&fused, &separate})
                ASSERT_NO_FATAL_FAILURE(
                    testing_gpu::renderFrames(*h->target, *h->renderer, sieve::assets::defaultCityCamera(), 2));
            const Capture f = capture(*fused.renderer, n), e = capture(*separate.renderer, n);
            expectEqual(f, e, t.stable);
            for (const auto& c : f.counts) drawn += c.empty() ? 0 : c[0].count;
        }
        // The stats of the last frames (read back frames later) agree too.
        for (Host* h : {&fused, &separate})
            ASSERT_NO_FATAL_FAILURE(
                testing_gpu::renderFrames(*h->target, *h->renderer, sieve::assets::defaultCityCamera(), 3));
        expectSameStats(fused.renderer->plugin().stats(), separate.renderer->plugin().stats());
        if (n > tile) EXPECT_GT(drawn, 0u) << "the camera drew nothing: the comparison would mean little";
        (void)fused.target->finish();
        (void)separate.target->finish();
    }
}
