// Cluster culling must not change the picture: the procedural city and the glTF material scenes drawn
// through the cluster lists (every culling stage on, LOD off, the scenes' materials) equal the same scenes
// drawn with all culling off, pixel for pixel, at several cameras and odd resolutions; and cluster culling
// removes a measured share of the triangles that instance culling keeps (printed, and required to be
// positive).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <glm/gtc/matrix_transform.hpp>
#include <optional>
#include <string>

#include "assets/camera.h"
#include "assets/glm_interop.h"
#include "assets/meshlets.h"
#include "assets/procedural_city.h"
#include "engine/scene/scene_renderer.h"
#include "engine/target/headless_target.h"
#include "gpu/gpu_fixture.h"
#include "sieve/cull_flags.h"
#include "unit/gltf_test_data.h"

using testing_gpu::GpuTest;

namespace {

struct Picture {
    std::vector<uint8_t> pixels;
    uint64_t triangles = 0;
    std::optional<uint64_t> trianglesQuery;  // the pipeline-statistics query's input-assembly count
    sieve::ClusterStats clusters;
    std::optional<uint64_t> clippingInvocations;  // the query's primitives that reached the clipper
    std::optional<uint64_t> meshPrimitives;       // the mesh-primitives-generated query (mesh path)
};

size_t differingPixels(const Picture& a, const Picture& b) {
    EXPECT_EQ(a.pixels.size(), b.pixels.size());
    if (a.pixels.size() != b.pixels.size()) return SIZE_MAX;
    size_t differing = 0;
    for (size_t i = 0; i < a.pixels.size(); i += 4) differing += std::memcmp(&a.pixels[i], &b.pixels[i], 4) != 0;
    return differing;
}

class ClusterImageTest : public GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        sieve::assets::SceneData city;
        ASSERT_NO_FATAL_FAILURE(take(sieve::assets::makeCity(1500, 3), city));
        use(std::move(city));
    }

    // Draws `scene` from now on (its clusters built; they reorder its indices, for both sides of a comparison).
    void use(sieve::assets::SceneData scene) {
        scene_ = std::move(scene);
        ASSERT_NO_FATAL_FAILURE(take(sieve::assets::buildClusters(scene_), clusters_));
    }

    // Frames at a fixed camera; the last one's pixels and triangle count.
    Picture render(VkExtent2D extent, const sieve::assets::CameraPose& pose, bool clusters, bool cull,
                   engine::ClusterPath path = engine::ClusterPath::Indirect, bool twoPhase = true,
                   bool materials = true, bool triangleCull = false) {
        Picture out;
        auto target = engine::HeadlessTarget::create(ctx(), {extent, VK_FORMAT_R8G8B8A8_UNORM, 2});
        EXPECT_TRUE(target) << target.error().message;
        if (!target) return out;
        const engine::ClusterSetup setup{.data = &clusters_, .path = path, .triangleCull = triangleCull};
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
        out.trianglesQuery = counts.trianglesQuery;
        out.clusters = counts.clusters;
        out.clippingInvocations = counts.clippingInvocations;
        out.meshPrimitives = counts.meshPrimitivesGenerated;
        return out;
    }

    // The mesh-path tests' pictures of one case: culling off, clusters through the indirect path, clusters
    // through the mesh path (with or without its triangle culling).
    struct PathPictures {
        Picture reference, indirect, mesh;
    };
    PathPictures renderPaths(VkExtent2D extent, const sieve::assets::CameraPose& pose, bool materials,
                             bool triangleCull) {
        using engine::ClusterPath;
        return {render(extent, pose, false, false, ClusterPath::Indirect, true, materials),
                render(extent, pose, true, true, ClusterPath::Indirect, true, materials),
                render(extent, pose, true, true, ClusterPath::Mesh, true, materials, triangleCull)};
    }
    // The mesh-primitives-generated query: counted on the mesh path exactly where the device was created with
    // meshShaderQueries, never on the indirect path, and at most the triangles of the clusters drawn (the
    // mesh shaders emit each cluster's triangles, some of them flagged culled).
    void expectMeshPrimitives(const Picture& mesh, const Picture& indirect) {
        EXPECT_FALSE(indirect.meshPrimitives.has_value()) << "the indirect path has no mesh primitives";
        ASSERT_EQ(mesh.meshPrimitives.has_value(), ctx().meshShaderQueries());
        if (!mesh.meshPrimitives) return;
        EXPECT_GT(*mesh.meshPrimitives, 0u);
        EXPECT_LE(*mesh.meshPrimitives, mesh.triangles);
    }
    static std::string caseName(VkExtent2D extent, bool materials) {
        return std::to_string(extent.width) + "x" + std::to_string(extent.height) +
               (materials ? " materials" : " plain");
    }

    sieve::assets::SceneData scene_;
    sieve::assets::ClusterData clusters_;
};

// The textured scenes, outside the subgroup matrix's suites (tests/CMakeLists.txt: Cluster*): lavapipe's
// LLVM 15 crashes compiling their textured fragment shaders at LP_NATIVE_VECTOR_WIDTH >= 512, a driver
// fault the graphics-only tests stay clear of by running at the default width.
class TexturedClusterImageTest : public ClusterImageTest {
protected:
    // Clusters on (every culling stage on) == culling off, pixel for pixel, with the scene in view (at least
    // `covered` of the pixels are not sky) and clusters drawn.
    void expectSamePicture(VkExtent2D extent, const sieve::assets::CameraPose& pose, double covered) {
        const Picture reference = render(extent, pose, false, false);
        const Picture clusters = render(extent, pose, true, true);
        ASSERT_FALSE(reference.pixels.empty());
        EXPECT_EQ(differingPixels(reference, clusters), 0u) << "pixels differ between culling off and clusters on";
        size_t sky = 0;
        for (size_t i = 0; i < reference.pixels.size(); i += 4)
            sky += std::memcmp(&reference.pixels[i], &reference.pixels[0], 4) == 0;
        EXPECT_GE(double(reference.pixels.size() / 4 - sky), covered * double(reference.pixels.size() / 4))
            << "the scene is not in view";
        EXPECT_TRUE(clusters.clusters.valid);
        EXPECT_GT(clusters.clusters.drawn(), 0u);
        EXPECT_EQ(clusters.clusters.early.overflow + clusters.clusters.late.overflow, 0u);
    }
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
        EXPECT_EQ(differingPixels(reference, clusters), 0u) << "pixels differ between culling off and clusters on";
        EXPECT_TRUE(clusters.clusters.valid);
        EXPECT_EQ(clusters.clusters.early.overflow + clusters.clusters.late.overflow, 0u);
        EXPECT_EQ(clusters.clusters.counters.dropped, 0u);
        EXPECT_LE(clusters.triangles, instances.triangles);
        EXPECT_EQ(clusters.clusters.counters.triangles, clusters.triangles) << "triangles are the clusters' sum";
        ASSERT_TRUE(clusters.trianglesQuery.has_value());
        EXPECT_EQ(clusters.clusters.counters.triangles, *clusters.trianglesQuery) << "the plugin counts what is drawn";
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
    EXPECT_EQ(differingPixels(reference, clusters), 0u);
    EXPECT_LT(clusters.triangles, reference.triangles);
}

// The glTF material scenes (tests/data/gltf: textures, normal map, alpha mask and blend, double-sided and
// single-sided cards seen from behind, emissive, a mirrored wedge; mirrored.gltf's mirrored instances):
// clusters on (every culling stage on) draw the picture of culling off with the same materials, pixel for
// pixel, at cameras and odd sizes used nowhere else.
TEST_F(TexturedClusterImageTest, MaterialScenesKeepTheirPictureWithClusters) {
    const struct {
        const char* file;
        VkExtent2D extent;
        sieve::assets::CameraPose pose;
    } cases[] = {{"materials.gltf", {173, 109}, sieve::assets::lookAtPose({3.1f, 1.7f, 4.3f}, {-0.4f, 0.2f, -0.5f})},
                 {"materials.gltf", {131, 97}, sieve::assets::lookAtPose({-1.3f, -0.3f, -3.1f}, {0.6f, 0.1f, 0.0f})},
                 {"mirrored.gltf", {151, 83}, sieve::assets::lookAtPose({1.1f, 1.2f, 2.3f}, {0.0f, 0.1f, 0.0f})}};
    for (const auto& c : cases) {
        SCOPED_TRACE(c.file);
        use(sieve::test::loadGltfData(c.file));
        ASSERT_FALSE(scene_.instances.empty());
        expectSamePicture(c.extent, c.pose, 0.1);
    }
}

// Every glTF test scene (tests/data/gltf: instancing, Draco, meshopt and packed twins, LOD seams, alpha
// cards, ...), framed from a direction used nowhere else (their bounds are the instances' spheres, so a
// single card covers a few percent of the view): clusters on == culling off, pixel for pixel.
TEST_F(TexturedClusterImageTest, EveryGltfTestSceneKeepsItsPicture) {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(sieve::test::kGltfData))
        if (e.path().extension() == ".gltf" || e.path().extension() == ".glb") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    ASSERT_GE(files.size(), 10u);
    const VkExtent2D extent{143, 89};
    for (const auto& file : files) {
        SCOPED_TRACE(file.filename().string());
        use(sieve::test::loadGltfData(file.filename().string().c_str()));
        ASSERT_FALSE(scene_.instances.empty());
        const sieve::assets::Framing framing =
            sieve::assets::frameBounds(scene_.boundsMin, scene_.boundsMax, glm::radians(60.0f),
                                       float(extent.width) / float(extent.height), -0.35f, -0.25f);
        expectSamePicture(extent, framing.pose, 0.02);
    }
}

// The mesh-shader path draws the same clusters as the indirect path, with the same materials: the same
// picture (and so the picture of culling off), at the same cameras, plainly shaded and with materials, on
// the city and a glTF material scene. Needs VK_EXT_mesh_shader (not on lavapipe).
TEST_F(ClusterImageTest, MeshPathDrawsThePictureOfTheIndirectPath) {
    if (!ctx().info().meshShader) GTEST_SKIP() << "the device has no VK_EXT_mesh_shader (lavapipe): mesh path not run";
    const sieve::assets::CameraPose poses[] = {sieve::assets::defaultCityCamera(),
                                               sieve::assets::lookAtPose({60, 70, 60}, {0, 0, 0})};
    const VkExtent2D extents[] = {{161, 91}, {1919, 1079}};
    auto compare = [&](VkExtent2D extent, const sieve::assets::CameraPose& pose, bool materials) {
        SCOPED_TRACE(caseName(extent, materials));
        const auto [reference, indirect, mesh] = renderPaths(extent, pose, materials, false);
        EXPECT_EQ(differingPixels(mesh, indirect), 0u) << "mesh and indirect paths differ";
        EXPECT_EQ(differingPixels(mesh, reference), 0u) << "mesh path and culling off differ";
        EXPECT_EQ(mesh.clusters.drawn(), indirect.clusters.drawn());
        EXPECT_EQ(mesh.clusters.counters.triangles, indirect.clusters.counters.triangles);
        // Honest stats: the mesh path's triangles are the sum over its clusters, as the indirect path draws.
        EXPECT_EQ(mesh.triangles, indirect.triangles);
        expectMeshPrimitives(mesh, indirect);
        if (mesh.meshPrimitives)
            std::printf("[ clusters ] %s: %llu triangles in the cluster records, %llu mesh primitives generated\n",
                        caseName(extent, materials).c_str(), (unsigned long long)mesh.triangles,
                        (unsigned long long)*mesh.meshPrimitives);
        // The query counts what enters input assembly: with materials the indirect path draws a list that holds
        // several bins once per bin (the other bins' clusters enter and are discarded), so it equals the
        // clusters' sum only for plain shading (measured on the H200: 20 triangles drawn, 80 assembled, in
        // materials.gltf's four bins).
        if (indirect.trianglesQuery && !materials) {
            EXPECT_EQ(mesh.triangles, *indirect.trianglesQuery);
        }
    };
    for (const auto& pose : poses)
        for (const VkExtent2D extent : extents)
            for (bool materials : {false, true}) compare(extent, pose, materials);
    use(sieve::test::loadGltfData("materials.gltf"));
    compare({173, 109}, sieve::assets::lookAtPose({3.1f, 1.7f, 4.3f}, {-0.4f, 0.2f, -0.5f}), true);
    compare({131, 97}, sieve::assets::lookAtPose({-1.3f, -0.3f, -3.1f}, {0.6f, 0.1f, 0.0f}), true);
}

// The mesh path's per-triangle culling (ClusterMeshOptions::triangleCull: back faces where the pipeline culls
// them, degenerate triangles, triangles covering no sample) culls only what the rasterizer would not draw: the
// picture equals triangle culling off, the indirect path and culling off, pixel for pixel, at odd sizes and
// a 1919x1079 frame, plainly shaded and with materials (double-sided and blend bins, mirrored instances drawn
// with their reversed-winding twins). Where the device has pipeline statistics, fewer primitives reach the
// clipper with it on. Needs VK_EXT_mesh_shader (not on lavapipe).
TEST_F(ClusterImageTest, MeshPathTriangleCullingKeepsThePicture) {
    if (!ctx().info().meshShader) GTEST_SKIP() << "the device has no VK_EXT_mesh_shader (lavapipe): mesh path not run";
    uint64_t clippedOff = 0, clippedOn = 0;
    bool statistics = true;
    auto compare = [&](VkExtent2D extent, const sieve::assets::CameraPose& pose, bool materials) {
        SCOPED_TRACE(caseName(extent, materials));
        const auto [reference, indirect, on] = renderPaths(extent, pose, materials, true);
        const Picture off = render(extent, pose, true, true, engine::ClusterPath::Mesh, true, materials, false);
        ASSERT_FALSE(reference.pixels.empty());
        EXPECT_EQ(differingPixels(on, off), 0u) << "triangle culling changed the mesh path's picture";
        EXPECT_EQ(differingPixels(on, indirect), 0u) << "triangle culling on and the indirect path differ";
        EXPECT_EQ(differingPixels(on, reference), 0u) << "triangle culling on and culling off differ";
        // The clusters are the same: triangle culling acts after the cluster lists.
        EXPECT_EQ(on.clusters.drawn(), off.clusters.drawn());
        EXPECT_EQ(on.triangles, off.triangles);
        expectMeshPrimitives(on, indirect);
        expectMeshPrimitives(off, indirect);
        if (on.meshPrimitives && off.meshPrimitives) {
            EXPECT_LE(*on.meshPrimitives, *off.meshPrimitives);
            std::printf("[ clusters ] %s: mesh primitives generated %llu without triangle culling, %llu with\n",
                        caseName(extent, materials).c_str(), (unsigned long long)*off.meshPrimitives,
                        (unsigned long long)*on.meshPrimitives);
        }
        if (!on.clippingInvocations || !off.clippingInvocations) {
            statistics = false;
            return;
        }
        EXPECT_LE(*on.clippingInvocations, *off.clippingInvocations);
        std::printf(
            "[ clusters ] %ux%u %s: %llu triangles drawn; reaching the clipper: %llu without triangle "
            "culling, %llu with\n",
            extent.width, extent.height, materials ? "materials" : "plain", (unsigned long long)on.triangles,
            (unsigned long long)*off.clippingInvocations, (unsigned long long)*on.clippingInvocations);
        clippedOff += *off.clippingInvocations;
        clippedOn += *on.clippingInvocations;
    };
    // MeshPathDrawsThePictureOfTheIndirectPath's cameras and sizes, a low camera with many back faces, and
    // cameras of the glTF scenes used nowhere else.
    const sieve::assets::CameraPose poses[] = {sieve::assets::defaultCityCamera(),
                                               sieve::assets::lookAtPose({60, 70, 60}, {0, 0, 0}),
                                               sieve::assets::lookAtPose({-15, 2, 25}, {10, 6, -10})};
    const VkExtent2D extents[] = {{161, 91}, {1919, 1079}};
    for (const auto& pose : poses)
        for (const VkExtent2D extent : extents)
            for (bool materials : {false, true}) compare(extent, pose, materials);
    // Alpha cards seen from behind, double-sided and single-sided; mirrored instances.
    use(sieve::test::loadGltfData("materials.gltf"));
    compare({167, 103}, sieve::assets::lookAtPose({-2.9f, 1.1f, 3.7f}, {0.3f, -0.1f, -0.2f}), true);
    compare({173, 109}, sieve::assets::lookAtPose({3.1f, 1.7f, 4.3f}, {-0.4f, 0.2f, -0.5f}), true);
    compare({131, 97}, sieve::assets::lookAtPose({-1.3f, -0.3f, -3.1f}, {0.6f, 0.1f, 0.0f}), true);
    use(sieve::test::loadGltfData("mirrored.gltf"));
    compare({149, 87}, sieve::assets::lookAtPose({-1.7f, 0.9f, 2.1f}, {0.0f, 0.1f, 0.0f}), true);
    compare({149, 87}, sieve::assets::lookAtPose({1.9f, -0.7f, -2.2f}, {0.0f, 0.1f, 0.0f}), true);
    if (!statistics) {
        std::printf("[ clusters ] no pipeline statistics: the clipper counts are not compared\n");
        return;
    }
    EXPECT_LT(clippedOn, clippedOff) << "triangle culling culled nothing before the clipper";
}
