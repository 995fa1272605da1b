// The viewer's pick (why was this culled?) explains the GPU's decision with the CPU reference fed with the
// pyramid the GPU tested against (engine/ui/pick_verdict.h): for every instance of a frame of the
// procedural city, the CPU verdict must be the GPU's cull.state (kind and LOD), at three cameras that
// together take every decision: a street (occlusion), above the roofs with a draw distance, and far out
// looking in with the LOD bias moved. The frame is rebuilt and compared by engine/ui/pick_verify.h, the code
// the viewer's --test-pick-verify runs. A planted disagreement must be found.
// (Named outside the subgroup matrix's Cull* suites: it renders the city and runs at the default width.)
#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <vector>

#include "assets/procedural_city.h"
#include "engine/scene/scene_renderer.h"
#include "engine/target/headless_target.h"
#include "engine/ui/pick_verify.h"
#include "gpu/gpu_fixture.h"
#include "gpu/test_render_frames.h"

namespace {

namespace gpu = sieve::gpu;
using engine::ui::FrameVerdicts;

struct PickCamera {
    const char* name;
    glm::vec3 position;
    float yawDeg, pitchDeg;
    float drawDistance = 0.0f;
    int lodBias = 0;
};

// The cameras of tests/e2e/test_viewer_pick.sh.
const PickCamera kStreet{"street", {40.0f, 1.7f, 40.0f}, 90.0f, 0.0f};
const PickCamera kRoofs{"roofs", {0.0f, 90.0f, 160.0f}, 0.0f, -35.0f, 180.0f};
const PickCamera kFar{"far", {-300.0f, 60.0f, -300.0f}, 225.0f, -8.0f, 0.0f, 2};

struct ReadFrame {
    engine::ui::CullingFrame frame;
    engine::ui::PickReadbackPass::Frame readback;
};

class PickVerifyTest : public testing_gpu::GpuTest {
protected:
    static constexpr VkExtent2D kExtent{480, 270};

    void SetUp() override {
        GpuTest::SetUp();
        auto city = sieve::assets::makeCity(6000, 1);  // the viewer's --instances 6000 (seed 1)
        ASSERT_TRUE(city) << city.error();
        scene_ = std::move(city).value();
        auto target = engine::HeadlessTarget::create(ctx(), {kExtent, VK_FORMAT_R8G8B8A8_UNORM, 2});
        ASSERT_TRUE(target) << target.error().message;
        target_ = std::move(target).value();
        auto renderer = engine::SceneRenderer::create(ctx(), scene_, target_->colorFormat(), kExtent, {});
        ASSERT_TRUE(renderer) << renderer.error().message;
        renderer_ = std::move(renderer).value();
        auto pick = renderer_->enablePickReadback();
        ASSERT_TRUE(pick) << pick.error().message;
        renderer_->pickReadback()->arm(true);
    }

    // A few frames at `c`; the last one as drawn and culled, and what it read back.
    void render(const PickCamera& c, std::optional<ReadFrame>& out) {
        sieve::CullingToggles& t = renderer_->plugin().toggles();
        t.lodBias = c.lodBias;
        renderer_->setDrawDistance(c.drawDistance);
        sieve::assets::CameraPose pose;
        pose.position = c.position;
        pose.yaw = glm::radians(c.yawDeg);
        pose.pitch = glm::radians(c.pitchDeg);
        ASSERT_NO_FATAL_FAILURE(testing_gpu::renderFrames(*target_, *renderer_, pose, 3));
        ReadFrame r;
        r.frame.drawView = r.frame.cullView = sieve::assets::viewMatrix(pose);
        r.frame.drawProjection = r.frame.cullProjection = testing_gpu::framesProjection(kExtent);
        r.frame.extent = kExtent;
        r.frame.toggles = t;
        r.frame.drawDistance = c.drawDistance;
        std::optional<engine::ui::PickReadbackPass::Frame> last;
        for (uint32_t slot = 0; slot < target_->framesInFlight(); ++slot)
            if (auto f = renderer_->pickReadback()->read(slot); f && (!last || f->frameIndex > last->frameIndex))
                last = std::move(f);
        ASSERT_TRUE(last) << c.name << ": no frame was read back";
        r.readback = std::move(*last);
        out = std::move(r);
    }

    FrameVerdicts verify(const ReadFrame& r) {
        auto v = engine::ui::verifyFrame(scene_, r.frame, r.readback);
        EXPECT_TRUE(v) << v.error().message;
        return v ? *v : FrameVerdicts{};
    }

    sieve::assets::SceneData scene_;
    std::unique_ptr<engine::HeadlessTarget> target_;
    std::unique_ptr<engine::SceneRenderer> renderer_;
};

TEST_F(PickVerifyTest, CpuVerdictIsTheGpuDecisionForEveryInstanceAtThreeCameras) {
    std::array<uint32_t, gpu::SIEVE_STATE_KIND_MASK + 1> total{};
    for (const PickCamera& c : {kStreet, kRoofs, kFar}) {
        std::optional<ReadFrame> r;
        ASSERT_NO_FATAL_FAILURE(render(c, r));
        const FrameVerdicts v = verify(*r);
        EXPECT_EQ(v.instances, scene_.instances.size()) << c.name;
        EXPECT_TRUE(v.allAgree()) << c.name << ": " << engine::ui::verdictSummary(v);
        for (size_t k = 0; k < total.size(); ++k) total[k] += v.decisions[k];
        std::printf("%s: %s\n", c.name, engine::ui::verdictSummary(v).c_str());
    }
    // The cameras take every decision, so that each test's verdict was compared at least once.
    EXPECT_GT(total[gpu::SIEVE_STATE_DRAWN_LATE], 0u) << "nothing drawn";
    EXPECT_GT(total[gpu::SIEVE_STATE_FRUSTUM_CULLED], 0u) << "nothing culled by the frustum";
    EXPECT_GT(total[gpu::SIEVE_STATE_DISTANCE_CULLED], 0u) << "nothing culled by the draw distance";
    EXPECT_GT(total[gpu::SIEVE_STATE_OCCLUSION_CULLED], 0u) << "nothing culled by occlusion";
}

// The comparison finds a GPU decision changed in kind (drawn -> occluded, frustum-culled -> drawn) or in
// LOD alone, and names the instances.
TEST_F(PickVerifyTest, FindsAPlantedDisagreement) {
    std::optional<ReadFrame> r;
    ASSERT_NO_FATAL_FAILURE(render(kStreet, r));
    ASSERT_TRUE(verify(*r).allAgree());
    std::vector<uint32_t>& state = r->readback.state;
    std::optional<uint32_t> drawn, secondDrawn, frustum;
    for (uint32_t i = 0; i < state.size(); ++i) {
        const uint32_t kind = state[i] & gpu::SIEVE_STATE_KIND_MASK;
        if (engine::ui::drawnState(state[i]) && drawn && !secondDrawn) secondDrawn = i;
        if (engine::ui::drawnState(state[i]) && !drawn) drawn = i;
        if (kind == gpu::SIEVE_STATE_FRUSTUM_CULLED && !frustum) frustum = i;
    }
    ASSERT_TRUE(drawn && secondDrawn && frustum);
    state[*drawn] = gpu::SIEVE_STATE_OCCLUSION_CULLED;
    state[*secondDrawn] ^= 1u << gpu::SIEVE_STATE_LOD_SHIFT;  // another LOD, still drawn
    state[*frustum] = gpu::SIEVE_STATE_DRAWN_LATE;
    const FrameVerdicts v = verify(*r);
    EXPECT_FALSE(v.allAgree());
    EXPECT_EQ(v.mismatches, 3u) << engine::ui::verdictSummary(v);
    std::vector<uint32_t> named;
    for (const FrameVerdicts::Mismatch& m : v.first) named.push_back(m.cpu.instance);
    std::sort(named.begin(), named.end());
    std::vector<uint32_t> planted{*drawn, *secondDrawn, *frustum};
    std::sort(planted.begin(), planted.end());
    EXPECT_EQ(named, planted);
}

}  // namespace
