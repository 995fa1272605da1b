// Cluster culling must not change the picture: the procedural city drawn through the cluster lists (every
// culling stage on, LOD off) equals the same scene drawn with all culling off, pixel for pixel, at several
// cameras and odd resolutions; and cluster culling removes a measured share of the triangles that
// instance culling keeps (printed, and required to be positive).
#include <cstdio>
#include <glm/gtc/matrix_transform.hpp>
#include <string>

#include "assets/glm_interop.h"
#include "assets/meshlets.h"
#include "assets/procedural_city.h"
#include "engine/scene/scene_renderer.h"
#include "engine/target/headless_target.h"
#include "gpu/gpu_fixture.h"
#include "sieve/cull_flags.h"

using testing_gpu::GpuTest;

namespace {

struct Picture {
    std::vector<uint8_t> pixels;
    uint64_t triangles = 0;
    sieve::ClusterStats clusters;
};

class ClusterImageTest : public GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        auto city = sieve::assets::makeCity(1500, 3);
        ASSERT_TRUE(city) << city.error();
        scene_ = std::move(city).value();
        auto clusters = sieve::assets::buildClusters(scene_);
        ASSERT_TRUE(clusters) << clusters.error();
        clusters_ = std::move(clusters).value();
    }

    // Frames at a fixed camera; the last one's pixels and triangle count.
    Picture render(VkExtent2D extent, const sieve::assets::CameraPose& pose, bool clusters, bool cull,
                   engine::ClusterPath path = engine::ClusterPath::Indirect, bool twoPhase = true,
                   bool materials = true) {
        Picture out;
        auto target = engine::HeadlessTarget::create(ctx(), {extent, VK_FORMAT_R8G8B8A8_UNORM, 2});
        EXPECT_TRUE(target) << target.error().message;
        if (!target) return out;
        const engine::ClusterSetup setup{&clusters_, path};
        auto renderer =
            engine::SceneRenderer::create(ctx(), scene_, target.value()->colorFormat(), extent,
                                          {.clusters = clusters ? &setup : nullptr, .materials = materials});
        EXPECT_TRUE(renderer) << renderer.error().message;
        if (!renderer) return out;
        sieve::CullingToggles& t = renderer.value()->plugin().toggles();
        t.lod = false;
        t.frustum = t.occlusion = cull;
        t.twoPhase = twoPhase;
        const glm::mat4 view = sieve::assets::viewMatrix(pose);
        const glm::mat4 proj = sieve::toGlm(
            sieve::perspectiveReverseZ(glm::radians(60.0f), float(extent.width) / float(extent.height), 0.1f));
        engine::FrameCounts counts;
        // Visibility settles over the first frames (and counts arrive framesInFlight frames late).
        for (int i = 0; i < 9; ++i) {
            auto frame = target.value()->beginFrame();
            EXPECT_TRUE(frame) << frame.error().message;
            if (!frame) return out;
            std::vector<engine::graph::PassTiming> timings;
            renderer.value()->collect(frame->info.frameSlot, timings, counts);
            auto r = renderer.value()->record(*target.value(), *frame, view, proj);
            EXPECT_TRUE(r) << r.error().message;
            EXPECT_TRUE(target.value()->endFrame());
        }
        EXPECT_TRUE(target.value()->finish());
        auto pixels = target.value()->readbackPixels();
        EXPECT_TRUE(pixels) << pixels.error().message;
        if (pixels) out.pixels = std::move(pixels).value();
        // Counts of a frame framesInFlight back: the camera has not moved, so they are the last frame's.
        EXPECT_TRUE(counts.trianglesValid);
        out.triangles = counts.triangles;
        out.clusters = counts.clusters;
        return out;
    }

    sieve::assets::SceneData scene_;
    sieve::assets::ClusterData clusters_;
};

}  // namespace

TEST_F(ClusterImageTest, ClusterCullingKeepsThePictureAndRemovesTriangles) {
    const sieve::assets::CameraPose street = sieve::assets::defaultCityCamera();
    const sieve::assets::CameraPose high = sieve::assets::lookAtPose({60, 70, 60}, {0, 0, 0});
    const sieve::assets::CameraPose low = sieve::assets::lookAtPose({-15, 2, 25}, {10, 6, -10});
    const struct {
        VkExtent2D extent;
        sieve::assets::CameraPose pose;
        const char* name;
    } cases[] = {{{161, 91}, street, "street"}, {{97, 61}, high, "high"}, {{211, 113}, low, "low"}};
    uint64_t instanceTriangles = 0, clusterTriangles = 0;
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        const Picture reference = render(c.extent, c.pose, false, false);
        const Picture instances = render(c.extent, c.pose, false, true);
        const Picture clusters = render(c.extent, c.pose, true, true);
        ASSERT_FALSE(reference.pixels.empty());
        ASSERT_EQ(reference.pixels.size(), clusters.pixels.size());
        size_t differing = 0;
        for (size_t i = 0; i < reference.pixels.size(); i += 4)
            differing += std::memcmp(&reference.pixels[i], &clusters.pixels[i], 4) != 0;
        EXPECT_EQ(differing, 0u) << "pixels differ between culling off and clusters on";
        EXPECT_TRUE(clusters.clusters.valid);
        EXPECT_EQ(clusters.clusters.early.overflow + clusters.clusters.late.overflow, 0u);
        EXPECT_EQ(clusters.clusters.counters.dropped, 0u);
        EXPECT_LE(clusters.triangles, instances.triangles);
        EXPECT_EQ(clusters.clusters.counters.triangles, clusters.triangles) << "the plugin counts what is drawn";
        std::printf(
            "[ clusters ] %s %ux%u: triangles culling off %llu, instance culling %llu, clusters %llu "
            "(clusters tested %u, frustum %u, cone %u, occlusion-visible %u, drawn %u)\n",
            c.name, c.extent.width, c.extent.height, (unsigned long long)reference.triangles,
            (unsigned long long)instances.triangles, (unsigned long long)clusters.triangles,
            clusters.clusters.counters.lateTested, clusters.clusters.counters.frustumVisible,
            clusters.clusters.counters.coneVisible, clusters.clusters.counters.lateVisible, clusters.clusters.drawn());
        instanceTriangles += instances.triangles;
        clusterTriangles += clusters.triangles;
    }
    ASSERT_GT(instanceTriangles, 0u);
    const double removed = 1.0 - double(clusterTriangles) / double(instanceTriangles);
    std::printf("[ clusters ] cluster culling removes %.1f%% of the triangles instance culling keeps\n",
                100.0 * removed);
    EXPECT_GT(removed, 0.05);
}

// Single-phase instance culling (the early list holds every instance that passes against last frame's
// pyramid, the late list none): the clusters' own two phases still keep the picture.
TEST_F(ClusterImageTest, SinglePhaseInstanceCullingKeepsThePicture) {
    const sieve::assets::CameraPose low = sieve::assets::lookAtPose({-15, 2, 25}, {10, 6, -10});
    const VkExtent2D extent{123, 77};
    const Picture reference = render(extent, low, false, false);
    const Picture clusters = render(extent, low, true, true, engine::ClusterPath::Indirect, false);
    ASSERT_EQ(reference.pixels.size(), clusters.pixels.size());
    size_t differing = 0;
    for (size_t i = 0; i < reference.pixels.size(); i += 4)
        differing += std::memcmp(&reference.pixels[i], &clusters.pixels[i], 4) != 0;
    EXPECT_EQ(differing, 0u);
    EXPECT_LT(clusters.triangles, reference.triangles);
}

// The mesh-shader path draws the same clusters as the indirect path: the same picture (and so the
// picture of culling off), at the same cameras. Needs VK_EXT_mesh_shader (not on lavapipe).
TEST_F(ClusterImageTest, MeshPathDrawsThePictureOfTheIndirectPath) {
    if (!ctx().info().meshShader) GTEST_SKIP() << "the device has no VK_EXT_mesh_shader (lavapipe): mesh path not run";
    const sieve::assets::CameraPose poses[] = {sieve::assets::defaultCityCamera(),
                                               sieve::assets::lookAtPose({60, 70, 60}, {0, 0, 0})};
    const VkExtent2D extents[] = {{161, 91}, {1919, 1079}};
    for (const auto& pose : poses)
        for (const VkExtent2D extent : extents) {
            SCOPED_TRACE(std::to_string(extent.width) + "x" + std::to_string(extent.height));
            // The mesh path shades plainly (mesh.frag): all three are drawn so.
            const Picture reference = render(extent, pose, false, false, engine::ClusterPath::Indirect, true, false);
            const Picture indirect = render(extent, pose, true, true, engine::ClusterPath::Indirect, true, false);
            const Picture mesh = render(extent, pose, true, true, engine::ClusterPath::Mesh, true, false);
            ASSERT_EQ(mesh.pixels.size(), indirect.pixels.size());
            size_t differing = 0, differingRef = 0;
            for (size_t i = 0; i < mesh.pixels.size(); i += 4) {
                differing += std::memcmp(&mesh.pixels[i], &indirect.pixels[i], 4) != 0;
                differingRef += std::memcmp(&mesh.pixels[i], &reference.pixels[i], 4) != 0;
            }
            EXPECT_EQ(differing, 0u) << "mesh and indirect paths differ";
            EXPECT_EQ(differingRef, 0u) << "mesh path and culling off differ";
            EXPECT_EQ(mesh.clusters.drawn(), indirect.clusters.drawn());
            EXPECT_EQ(mesh.clusters.counters.triangles, indirect.clusters.counters.triangles);
        }
}
