// GpuScene::upload refuses what the device must never see or cannot hold, with a message: non-finite
// transforms, bounds and scales (SceneData::validate), and scenes larger than the device memory left
// (saying how many instances fit).
#include <cmath>
#include <limits>

#include "assets/procedural_city.h"
#include "engine/scene/gpu_scene.h"
#include "engine/scene/scene_budget.h"
#include "gpu/gpu_fixture.h"

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

class SceneUploadTest : public testing_gpu::GpuTest {
protected:
    void TearDown() override {
        engine::overrideDeviceMemoryBytes(0);
        GpuTest::TearDown();
    }
    static sieve::assets::SceneData city(uint32_t instances) {
        auto c = sieve::assets::makeCity(instances, 7);
        EXPECT_TRUE(c) << c.error();
        return std::move(c).value();
    }
    std::string refusal(const sieve::assets::SceneData& scene) {
        auto g = engine::GpuScene::upload(ctx(), scene);
        if (g) return "";
        EXPECT_FALSE(g.error().message.empty());
        return g.error().message;
    }
};

}  // namespace

TEST_F(SceneUploadTest, AValidSceneUploads) {
    auto scene = city(64);
    auto g = engine::GpuScene::upload(ctx(), scene);
    ASSERT_TRUE(g) << g.error().message;
    EXPECT_EQ(g->instanceCount, 64u);
}

TEST_F(SceneUploadTest, NonFiniteInstanceDataIsRefusedWithAMessage) {
    struct Case {
        const char* what;
        void (*breakIt)(sieve::gpu::Instance&, sieve::gpu::InstanceBounds&);
        const char* message;
    };
    const Case cases[] = {
        {"NaN in a transform row", [](sieve::gpu::Instance& i, sieve::gpu::InstanceBounds&) { i.rows[1].y = kNaN; },
         "transform is not finite"},
        {"Inf translation", [](sieve::gpu::Instance& i, sieve::gpu::InstanceBounds&) { i.rows[0].w = kInf; },
         "transform is not finite"},
        {"NaN sphere centre", [](sieve::gpu::Instance&, sieve::gpu::InstanceBounds& b) { b.sphere.x = kNaN; },
         "bounding sphere is invalid"},
        {"Inf sphere radius", [](sieve::gpu::Instance&, sieve::gpu::InstanceBounds& b) { b.sphere.w = kInf; },
         "bounding sphere is invalid"},
        {"NaN scale", [](sieve::gpu::Instance& i, sieve::gpu::InstanceBounds&) { i.scale = kNaN; }, "scale is invalid"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        auto scene = city(40);
        c.breakIt(scene.instances[17], scene.bounds[17]);
        const std::string message = refusal(scene);
        ASSERT_FALSE(message.empty()) << "uploaded";
        EXPECT_NE(message.find("refused at upload"), std::string::npos) << message;
        EXPECT_NE(message.find("instance 17"), std::string::npos) << message;
        EXPECT_NE(message.find(c.message), std::string::npos) << message;
    }
}

TEST_F(SceneUploadTest, TheRealDeviceMemoryIsKnown) {
    const engine::DeviceMemory m = engine::deviceMemoryAvailable(ctx());
    EXPECT_GT(m.bytes, 64ull << 20) << m.source;
    EXPECT_STRNE(m.source, "test override");
}

TEST_F(SceneUploadTest, ASceneLargerThanTheMemoryLeftIsRefusedSayingHowManyFit) {
    auto scene = city(3000);
    const engine::SceneFootprint f = engine::sceneFootprint(scene);
    ASSERT_GT(f.perInstanceBytes, sizeof(sieve::gpu::Instance));
    // Room for exactly 1200 instances.
    engine::overrideDeviceMemoryBytes(f.fixedBytes + 1200 * f.perInstanceBytes + f.perInstanceBytes / 2);
    const std::string message = refusal(scene);
    ASSERT_FALSE(message.empty()) << "uploaded";
    EXPECT_NE(message.find("3000 instances need "), std::string::npos) << message;
    EXPECT_NE(message.find(" MiB, the device has "), std::string::npos) << message;
    EXPECT_NE(message.find(": at most 1200 fit"), std::string::npos) << message;
    // What the message promises holds: 1200 instances of the same scene upload.
    scene.instances.resize(1200);
    scene.bounds.resize(1200);
    scene.updateBounds();
    auto g = engine::GpuScene::upload(ctx(), scene);
    EXPECT_TRUE(g) << g.error().message;
    scene.instances.resize(1201);
    auto city1201 = city(3000);
    city1201.instances.resize(1201);
    city1201.bounds.resize(1201);
    EXPECT_FALSE(refusal(city1201).empty()) << "1201 instances uploaded";
}
