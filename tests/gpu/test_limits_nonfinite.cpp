// Non-finite instance bounds that reach the GPU (uploaded directly, bypassing SceneData::validate) are
// kept visible: the flag shaders treat them conservatively, in both phases, and the draw list draws them.
#include <algorithm>
#include <limits>

#include "gpu/test_limits_util.h"

using testing_cull::vec4;
using namespace testing_limits;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

class NonFiniteBoundsTest : public CullPathTest {};

}  // namespace

TEST_F(NonFiniteBoundsTest, NonFiniteSpheresAreFlaggedVisibleAndDrawn) {
    const VkExtent2D extent{96, 64};
    auto cam = testing_cull::makeCamera(float(extent.width) / extent.height);
    // A wall at distance 5 over the whole screen: every finite sphere behind it is occluded.
    auto depth =
        testing_cull::makeWallDepth(extent.width, extent.height, cam, {{0, 0, extent.width, extent.height, 5.0f}});
    struct Case {
        vec4 sphere;
        bool finite;
        const char* what;
    };
    const Case cases[] = {
        {{0, 0, -30, 1}, true, "finite, behind the wall"},
        {{0, 0, 30, 1}, true, "finite, behind the camera"},
        {{kNaN, 0, -30, 1}, false, "NaN x"},
        {{0, kNaN, -30, 1}, false, "NaN y"},
        {{0, 0, kNaN, 1}, false, "NaN z"},
        {{0, 0, -30, kNaN}, false, "NaN radius"},
        {{0, 0, -30, kInf}, false, "infinite radius"},
        {{0, 0, -kInf, 1}, false, "centre at -infinity (behind the wall)"},
        {{0, 0, kInf, 1}, false, "centre at +infinity (behind the camera)"},
        {{kNaN, kNaN, kNaN, kNaN}, false, "all NaN"},
        {{1e30f, 0, 0, 1}, true, "finite, far outside the frustum"},
    };
    testing_cull::RandomScene scene = testing_cull::makeRandomScene(0, 5);
    for (const Case& c : cases) {
        sieve::gpu::Instance inst{};
        inst.scale = 1.0f;
        inst.mesh = 2;  // three primitives
        scene.add(inst, c.sphere);
    }
    const uint32_t n = uint32_t(scene.instances.size());
    const uint32_t prims = scene.meshes[2].primitiveCount;
    ASSERT_EQ(prims, 3u);
    for (uint32_t toggles :
         {sieve::gpu::SIEVE_CULL_ALL, sieve::gpu::SIEVE_CULL_ALL & ~sieve::gpu::SIEVE_CULL_TWO_PHASE}) {
        SCOPED_TRACE("toggles " + std::to_string(toggles));
        CullFrame frame = makeFrame(cam, extent, depth, n, toggles, 3);
        frame.visibleLast.assign(n, 1);  // visible last frame: the early phase tests them too
        FrameOutput g = run(scene, frame);
        if (HasFatalFailure()) return;
        const bool twoPhase = toggles & sieve::gpu::SIEVE_CULL_TWO_PHASE;
        std::vector<uint32_t> wanted;  // instance of every draw record, from both phases' flags
        for (uint32_t i = 0; i < n; ++i) {
            // Finite: occluded by the wall or outside the frustum, so never visible after the late test
            // (the early phase may still draw last frame's visible set, as two-phase culling does).
            EXPECT_EQ(g.visibleLast[i], cases[i].finite ? 0u : 1u) << cases[i].what;
            EXPECT_EQ(g.late.flags[i], !cases[i].finite && !twoPhase ? 1u : 0u) << cases[i].what;
            if (!cases[i].finite) {
                // Visible last frame and "in the frustum": the early phase draws it; single phase: the late.
                if (twoPhase) {
                    EXPECT_EQ(g.early.flags[i], 1u) << cases[i].what;  // (not written otherwise)
                }
                EXPECT_EQ(g.early.drawCounts[i] + g.late.drawCounts[i], prims) << cases[i].what;
                EXPECT_EQ(g.early.drawCounts[i] ? g.early.lods[i] : g.late.lods[i], 0u)
                    << cases[i].what << ": LOD 0 for unknown bounds";
            }
            for (uint32_t p = 0; p < g.early.drawCounts[i] + g.late.drawCounts[i]; ++p) wanted.push_back(i);
        }
        EXPECT_EQ(g.early.counts.overflow + g.late.counts.overflow, 0u);
        // The draw lists hold exactly the flagged instances (early and late lists together).
        std::vector<uint32_t> drawnInstances;
        for (const auto* list : {&g.early.draws, &g.late.draws})
            for (const auto& d : *list) drawnInstances.push_back(d.firstInstance);
        std::sort(drawnInstances.begin(), drawnInstances.end());
        EXPECT_EQ(drawnInstances, wanted);
        for (uint32_t i = 0; i < n; ++i) {
            if (cases[i].finite) continue;
            EXPECT_EQ(uint32_t(std::count(drawnInstances.begin(), drawnInstances.end(), i)), prims) << cases[i].what;
        }
        for (uint32_t w : g.early.guard) ASSERT_EQ(w, kGuardWord);
        for (uint32_t w : g.late.guard) ASSERT_EQ(w, kGuardWord);
    }
}
