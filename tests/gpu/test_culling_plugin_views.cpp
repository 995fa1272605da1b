// The culling plugin with several views on the reference host: setViews refuses what it cannot serve,
// stream() tiles the draw buffers, extra views' streams equal the CPU frustum reference exactly with
// their instance masks, per-view stats agree with the count buffers, and the false-culling check reads 0
// at several cameras (and not 0 when an error is planted).
#include <cstring>

#include "assets/glm_interop.h"
#include "assets/procedural_city.h"
#include "engine/scene/scene_renderer.h"
#include "engine/target/headless_target.h"
#include "gpu/gpu_fixture.h"
#include "gpu/test_cull_views.h"
#include "gpu/test_render_frames.h"
#include "shared/cull_state.h"
#include "shared/draw.h"
#include "sieve/barriers.h"
#include "sieve/cull_flags.h"
#include "sieve/culling_tuning.h"
#include "sieve/hiz.h"

using testing_gpu::GpuTest;

namespace {

class CullingViewsTest : public GpuTest {
protected:
    void start(VkExtent2D extent, uint32_t maxViews, bool instanceState = true) {
        ASSERT_NO_FATAL_FAILURE(take(sieve::assets::makeCity(3000, 7), scene_));
        // Every third instance casts no shadow: shadow views must leave it out.
        for (size_t i = 0; i < scene_.instances.size(); i += 3)
            scene_.instances[i].flags = sieve::gpu::SIEVE_INSTANCE_RECEIVES_SHADOW;
        extent_ = extent;
        auto target = engine::HeadlessTarget::create(ctx(), {extent, VK_FORMAT_R8G8B8A8_UNORM, 2});
        ASSERT_TRUE(target) << target.error().message;
        target_ = std::move(target).value();
        auto r = engine::SceneRenderer::create(ctx(), scene_, target_->colorFormat(), extent,
                                               {.maxViews = maxViews, .instanceState = instanceState});
        ASSERT_TRUE(r) << r.error().message;
        renderer_ = std::move(r).value();
    }
    void TearDown() override {
        if (target_) (void)target_->finish();
        renderer_.reset();
        target_.reset();
        GpuTest::TearDown();
    }
    void renderFrames(const sieve::assets::CameraPose& pose, int n) {
        testing_gpu::renderFrames(*target_, *renderer_, pose, n);
    }
    template <typename T>
    std::vector<T> readSlot(const char* slot, VkDeviceSize offset, size_t count) {
        const sieve::SlotBinding* b = renderer_->binding(slot);
        EXPECT_TRUE(b);
        std::vector<T> out(count + offset / sizeof(T));
        if (b && !out.empty()) copyOut(b->buffer, out.data(), out.size() * sizeof(T));
        out.erase(out.begin(), out.begin() + offset / sizeof(T));
        return out;
    }

    sieve::assets::SceneData scene_;
    VkExtent2D extent_{};
    std::unique_ptr<engine::HeadlessTarget> target_;
    std::unique_ptr<engine::SceneRenderer> renderer_;
};

sieve::CullView orthoView(const glm::mat4& view, VkExtent2D e, uint32_t mask, const char* name) {
    sieve::CullView v;
    v.desc = {view,
              testing_cull::orthographic(-60, 60, -60, 60, 0.0f, 400.0f, true),
              {0.0f, 0.0f, float(e.width), float(e.height), 0.0f, 1.0f}};
    v.tests = sieve::gpu::SIEVE_CULL_FRUSTUM;
    v.instanceMask = mask;
    v.name = name;
    v.kind = sieve::ViewKind::Shadow;
    return v;
}

}  // namespace

TEST_F(CullingViewsTest, SetViewsRefusesWhatItCannotServeAndStreamsTileTheBuffers) {
    start({64, 48}, 3);
    sieve::CullingConfig config = renderer_->plugin().config();
    config.binCount = 2;
    config.streamCapacities = {5, 0, 7, 9, 1, 3};
    auto made = sieve::CullingPlugin::create(ctx().info(), config);
    ASSERT_TRUE(made) << made.error().message;
    sieve::CullingPlugin& p = *made.value();
    // Streams follow each other, each starting at a storage offset the device accepts.
    const VkDeviceSize align = std::max<VkDeviceSize>(ctx().info().limits.minStorageBufferOffsetAlignment, 32);
    VkDeviceSize next = 0;
    for (uint32_t s = 0; s < 6; ++s) {
        const sieve::StreamRange r = p.stream(s / 2, s % 2);
        next = (next + align - 1) / align * align;
        EXPECT_EQ(r.drawOffset, next) << s;
        next += VkDeviceSize(config.streamCapacities[s]) * 32;
        EXPECT_EQ(r.countOffset, s * 16u) << s;
        EXPECT_EQ(r.maxDraws, config.streamCapacities[s]) << s;
    }
    EXPECT_EQ(p.stream(3, 0).maxDraws, 0u);
    EXPECT_EQ(p.stream(0, 2).maxDraws, 0u);
    EXPECT_EQ(p.drawCapacity(), 5u);

    const glm::mat4 down = glm::lookAt(glm::vec3(0, 100, 0), glm::vec3(0, 0, 0), glm::vec3(0, 0, -1));
    std::vector<sieve::CullView> views(1);
    views[0].desc = {glm::mat4(1.0f), sieve::perspectiveReverseZ(1.0f, 64.0f / 48.0f, 0.1f), {0, 0, 64, 48, 0, 1}};
    views.push_back(orthoView(down, {256, 256}, 0, "sun"));
    ASSERT_TRUE(p.setViews(views));
    EXPECT_EQ(p.viewCount(), 2u);
    auto occl = views;
    occl[1].tests |= sieve::gpu::SIEVE_CULL_OCCLUSION;
    auto r = p.setViews(occl);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("view 1 (sun)"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("only available for view 0"), std::string::npos) << r.error().message;
    auto many = views;
    many.push_back(views[1]);
    many.push_back(views[1]);
    EXPECT_FALSE(p.setViews(many));
    EXPECT_FALSE(p.setViews({}));
    auto bits = views;
    bits[1].tests |= sieve::gpu::SIEVE_CULL_TWO_PHASE;
    EXPECT_FALSE(p.setViews(bits));
    auto wrongViewport = views;
    wrongViewport[0].desc.viewport.width = 128;  // view 0 must cover the host's depth
    EXPECT_FALSE(p.setViews(wrongViewport));
    EXPECT_EQ(p.viewCount(), 2u) << "the previous views stay";
    sieve::CullingConfig bad = config;
    bad.streamCapacities.pop_back();
    EXPECT_FALSE(sieve::CullingPlugin::create(ctx().info(), bad));
}

TEST_F(CullingViewsTest, ExtraViewsStreamsEqualTheFrustumReferenceWithTheirMasks) {
    start({160, 90}, 3);
    // Looking down at a part of the city from above.
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const auto& b : scene_.bounds) {
        lo = glm::min(lo, glm::vec3(b.sphere.x, b.sphere.y, b.sphere.z));
        hi = glm::max(hi, glm::vec3(b.sphere.x, b.sphere.y, b.sphere.z));
    }
    const glm::vec3 centre = (lo + hi) * 0.5f;
    const glm::mat4 down = glm::lookAt(centre + glm::vec3(20, 150, 10), centre, glm::vec3(0, 0, -1));
    const VkExtent2D shadowExtent{257, 129};
    std::vector<sieve::CullView> extra = {orthoView(down, shadowExtent, sieve::gpu::SIEVE_INSTANCE_CASTS_SHADOW, "sun"),
                                          orthoView(down, shadowExtent, 0, "overhead")};
    extra[1].kind = sieve::ViewKind::Other;
    renderer_->setExtraViews(extra);
    renderFrames(sieve::assets::defaultCityCamera(), 4);
    if (HasFatalFailure()) return;
    const sieve::CullingStats& s = renderer_->plugin().stats();
    ASSERT_TRUE(s.valid);
    ASSERT_EQ(s.views.size(), 3u);
    EXPECT_EQ(s.views[0].name, "camera");
    EXPECT_EQ(s.views[1].name, "sun");
    EXPECT_EQ(s.views[1].kind, sieve::ViewKind::Shadow);
    const auto& inst = scene_.instances;
    for (uint32_t v = 1; v < 3; ++v) {
        SCOPED_TRACE(extra[v - 1].name);
        sieve::CullSettings settings;
        settings.toggles = sieve::gpu::SIEVE_CULL_FRUSTUM;
        const VkExtent2D pyr = sieve::HiZBuilder::pyramidExtent(shadowExtent);
        auto params = sieve::makeCullParams(extra[v - 1].desc, pyr, sieve::HiZBuilder::mipCount(pyr),
                                            uint32_t(inst.size()), settings);
        ASSERT_TRUE(params) << params.error().message;
        std::vector<sieve::gpu::DrawCommand> want;
        uint32_t visible = 0;
        for (uint32_t i = 0; i < inst.size(); ++i) {
            const uint32_t mask = extra[v - 1].instanceMask;
            if ((inst[i].flags & mask) != mask || !sieve::gpu::sieveInFrustum(scene_.bounds[i].sphere, *params))
                continue;
            ++visible;
            const auto& mesh = scene_.meshes[inst[i].mesh];
            for (uint32_t k = 0; k < mesh.primitiveCount; ++k) {
                const auto& prim = scene_.primitives[mesh.firstPrimitive + k];
                want.push_back({prim.lods[0].indexCount, 1, prim.lods[0].firstIndex, prim.vertexOffset, i,
                                mesh.firstPrimitive + k, prim.material, 0});
            }
        }
        EXPECT_EQ(s.views[v].frustumVisible, visible);
        EXPECT_EQ(s.views[v].lateVisible, visible) << "no occlusion for extra views";
        EXPECT_EQ(s.views[v].earlyDrawn, visible);
        EXPECT_EQ(s.views[v].lateDrawn, 0u) << "extra views are culled completely by the early pass";
        EXPECT_LT(visible, inst.size());
        EXPECT_GT(visible, 0u);
        const sieve::StreamRange range = renderer_->plugin().stream(v, 0);
        const auto counts = readSlot<sieve::gpu::DrawCounts>("counts.early", range.countOffset, 1);
        ASSERT_EQ(counts.size(), 1u);
        EXPECT_EQ(counts[0].count, want.size());
        EXPECT_EQ(counts[0].overflow, 0u);
        EXPECT_EQ(s.views[v].early[0].count, counts[0].count) << "stats equal the count buffer (same camera)";
        const auto late = readSlot<sieve::gpu::DrawCounts>("counts.late", range.countOffset, 1);
        EXPECT_EQ(late[0].count, 0u);
        const auto draws = readSlot<sieve::gpu::DrawCommand>("draws.early", range.drawOffset, want.size());
        ASSERT_EQ(draws.size(), want.size());
        for (size_t d = 0; d < want.size(); ++d)
            ASSERT_EQ(std::memcmp(&draws[d], &want[d], sizeof(want[d])), 0) << "record " << d;
    }
    EXPECT_LT(s.views[1].frustumVisible, s.views[2].frustumVisible) << "the mask removed nothing";
}

TEST_F(CullingViewsTest, FalseCullingCheckReadsZeroAndFindsAPlantedError) {
    start({317, 181}, 1);
    auto& t = renderer_->plugin().toggles();
    t.checkCulling = true;
    t.lod = false;
    const auto presets = sieve::assets::cameraPresets(scene_);
    uint32_t occludedSomewhere = 0;
    for (const auto& preset : presets) {
        SCOPED_TRACE(preset.name);
        renderFrames(preset.pose, 4);
        if (HasFatalFailure()) return;
        const sieve::CullingStats& s = renderer_->plugin().stats();
        ASSERT_TRUE(s.valid && s.falselyCulledValid);
        EXPECT_EQ(s.falselyCulled, 0u);
        occludedSomewhere += s.frustumVisible - s.lateVisible;
    }
    EXPECT_GT(occludedSomewhere, 0u) << "the cameras must exercise occlusion";
    // Spheres shrunk for the occlusion test: objects peeking out behind their occluders are culled.
    sieve::tuning(renderer_->plugin()).debugRadiusShrink = 0.5f;
    renderFrames(sieve::assets::defaultCityCamera(), 4);
    if (HasFatalFailure()) return;
    const sieve::CullingStats& s = renderer_->plugin().stats();
    ASSERT_TRUE(s.falselyCulledValid);
    EXPECT_GT(s.falselyCulled, 0u);
    // Off: the stats say it did not run.
    t.checkCulling = false;
    renderFrames(sieve::assets::defaultCityCamera(), 3);
    EXPECT_FALSE(renderer_->plugin().stats().falselyCulledValid);
}

// Without cull.state for debug views (SceneRendererOptions::instanceState off) the plugin still writes it on
// the frames the false-culling check reads it: the planted error counts as with it on. The debug colours and
// the pick readback, which read it every frame, are refused, naming the option.
TEST_F(CullingViewsTest, WithoutInstanceStateTheCheckStillFindsAPlantedError) {
    uint32_t found[2] = {};
    for (const bool instanceState : {true, false}) {
        SCOPED_TRACE(instanceState ? "instanceState on" : "instanceState off");
        start({317, 181}, 1, instanceState);
        auto& t = renderer_->plugin().toggles();
        t.checkCulling = true;
        t.lod = false;
        sieve::tuning(renderer_->plugin()).debugRadiusShrink = 0.5f;
        renderFrames(sieve::assets::defaultCityCamera(), 8);
        if (HasFatalFailure()) return;
        const sieve::CullingStats& s = renderer_->plugin().stats();
        ASSERT_TRUE(s.valid && s.falselyCulledValid);
        found[instanceState ? 0 : 1] = s.falselyCulled;
        if (!instanceState) {
            for (auto r : {renderer_->enableCullDebug(), renderer_->enablePickReadback()}) {
                ASSERT_FALSE(r);
                EXPECT_NE(r.error().message.find("instanceState"), std::string::npos) << r.error().message;
            }
        }
        (void)target_->finish();
        renderer_.reset();
        target_.reset();
    }
    EXPECT_GT(found[0], 0u);
    EXPECT_EQ(found[1], found[0]);
}

// The GPU check counts exactly what the CPU reference counts on the same frame: the final depth and
// cull.state read back, every occlusion-culled instance re-tested on the host (planted error: not 0).
TEST_F(CullingViewsTest, FalseCullingCheckEqualsTheReferenceOnTheFinalDepth) {
    start({317, 181}, 1);
    auto& t = renderer_->plugin().toggles();
    t.checkCulling = true;
    t.lod = false;
    sieve::tuning(renderer_->plugin()).debugRadiusShrink = 0.5f;
    const sieve::assets::CameraPose pose = sieve::assets::defaultCityCamera();
    const glm::mat4 view = sieve::assets::viewMatrix(pose);
    const glm::mat4 proj = sieve::toGlm(
        sieve::perspectiveReverseZ(glm::radians(60.0f), float(extent_.width) / float(extent_.height), 0.1f));
    // A static camera: after a few frames every frame culls the same, so the counts read back (of an
    // earlier frame) belong to the last frame's depth and state too.
    VkImage depthImage = VK_NULL_HANDLE;
    for (int i = 0; i < 8; ++i) {
        auto frame = target_->beginFrame();
        ASSERT_TRUE(frame) << frame.error().message;
        depthImage = frame->depthImage;
        ASSERT_TRUE(renderer_->record(*target_, *frame, view, proj));
        ASSERT_TRUE(target_->endFrame());
    }
    ASSERT_TRUE(target_->finish());
    const sieve::CullingStats& s = renderer_->plugin().stats();
    ASSERT_TRUE(s.valid && s.falselyCulledValid);
    const uint32_t n = uint32_t(scene_.instances.size());
    const auto state = readSlot<uint32_t>("cull.state", 0, n);
    engine::Buffer depthOut = makeEmpty(VkDeviceSize(extent_.width) * extent_.height * 4);
    auto copied = ctx().submitNow([&](VkCommandBuffer cmd) {
        sieve::imageBarrier(cmd, depthImage, VK_IMAGE_ASPECT_DEPTH_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                            VK_ACCESS_2_MEMORY_READ_BIT, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                            VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
                            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
        region.imageExtent = {extent_.width, extent_.height, 1};
        vkCmdCopyImageToBuffer(cmd, depthImage, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, depthOut.handle(), 1, &region);
        sieve::imageBarrier(cmd, depthImage, VK_IMAGE_ASPECT_DEPTH_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                            VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                            VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_NONE,
                            VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    });
    ASSERT_TRUE(copied) << copied.error().message;
    const auto depth = read<float>(depthOut, size_t(extent_.width) * extent_.height);
    sieve::CullView main;
    main.desc = {view, proj, {0.0f, 0.0f, float(extent_.width), float(extent_.height), 0.0f, 1.0f}};
    const VkExtent2D pyr = sieve::HiZBuilder::pyramidExtent(extent_);
    auto params = sieve::makeCullParams(main.desc, pyr, sieve::HiZBuilder::mipCount(pyr), n, {});
    ASSERT_TRUE(params) << params.error().message;
    uint32_t occluded = 0, falsely = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if ((state[i] & sieve::gpu::SIEVE_STATE_KIND_MASK) != sieve::gpu::SIEVE_STATE_OCCLUSION_CULLED) continue;
        ++occluded;
        falsely += sieve::falselyCulledReference(scene_.bounds[i].sphere, *params, extent_, depth);
    }
    EXPECT_GT(occluded, 0u);
    EXPECT_GT(falsely, 0u) << "the planted error must show";
    EXPECT_EQ(s.falselyCulled, falsely);
}

// SceneRenderer::setCameraView: the camera's settings other than its matrices reach view 0 (its name, its
// tests: frustum only, so nothing is occluded; its instance mask: every third instance casts no shadow).
TEST_F(CullingViewsTest, CameraViewSettingsReachViewZero) {
    start({160, 90}, 1);
    sieve::CullView camera;
    camera.name = "eye";
    camera.tests = sieve::gpu::SIEVE_CULL_FRUSTUM;
    camera.instanceMask = sieve::gpu::SIEVE_INSTANCE_CASTS_SHADOW;
    renderer_->setCameraView(camera);
    const sieve::assets::CameraPose pose = sieve::assets::defaultCityCamera();
    renderFrames(pose, 4);
    if (HasFatalFailure()) return;
    const sieve::CullingStats& s = renderer_->plugin().stats();
    ASSERT_TRUE(s.valid);
    ASSERT_EQ(s.views.size(), 1u);
    EXPECT_EQ(s.views[0].name, "eye");
    sieve::CullView want = camera;
    want.desc = {sieve::assets::viewMatrix(pose),
                 sieve::toGlm(sieve::perspectiveReverseZ(glm::radians(60.0f), 160.0f / 90.0f, 0.1f)),
                 {0.0f, 0.0f, 160.0f, 90.0f, 0.0f, 1.0f}};
    const VkExtent2D pyr = sieve::HiZBuilder::pyramidExtent(extent_);
    auto params =
        sieve::makeCullParams(want.desc, pyr, sieve::HiZBuilder::mipCount(pyr), uint32_t(scene_.instances.size()), {});
    ASSERT_TRUE(params) << params.error().message;
    uint32_t visible = 0, unmasked = 0;
    for (size_t i = 0; i < scene_.instances.size(); ++i) {
        if (!sieve::gpu::sieveInFrustum(scene_.bounds[i].sphere, *params)) continue;
        ++unmasked;
        visible += (scene_.instances[i].flags & camera.instanceMask) == camera.instanceMask;
    }
    EXPECT_EQ(s.frustumVisible, visible);
    EXPECT_LT(visible, unmasked) << "the mask must remove some instances in view";
    EXPECT_EQ(s.lateVisible, visible) << "occlusion is not among the camera's tests";
}
