// buildClusters: every LOD's triangles survive the reorder (same multiset, same winding), each cluster is
// a contiguous range whose triangles equal its meshlet vertices and packed triangles, its sphere holds
// its vertices and its cone is conservative for its triangles, and the visibility slots add up.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <glm/glm.hpp>

#include "assets/mesh_builder.h"
#include "assets/meshlets.h"
#include "assets/procedural_city.h"
#include "assets/shapes.h"

using namespace sieve::assets;

namespace {

// Rotated so that the smallest index comes first: the same triangle with the same winding compares equal.
std::array<uint32_t, 3> canonical(uint32_t a, uint32_t b, uint32_t c) {
    if (b < a && b < c) return {b, c, a};
    if (c < a && c < b) return {c, a, b};
    return {a, b, c};
}

std::vector<std::array<uint32_t, 3>> triangles(const std::vector<uint32_t>& idx, uint32_t first, uint32_t count) {
    std::vector<std::array<uint32_t, 3>> t;
    for (uint32_t i = 0; i < count; i += 3)
        t.push_back(canonical(idx[first + i], idx[first + i + 1], idx[first + i + 2]));
    std::sort(t.begin(), t.end());
    return t;
}

glm::vec3 position(const SceneData& s, const sieve::gpu::MeshPrimitive& p, uint32_t index) {
    const auto& v = s.vertices[size_t(p.vertexOffset) + index];
    return {v.px, v.py, v.pz};
}

void checkScene(SceneData scene) {
    const SceneData before = scene;
    auto built = buildClusters(scene);
    ASSERT_TRUE(built) << built.error();
    const ClusterData& c = built.value();
    ASSERT_EQ(c.ranges.size(), scene.primitives.size() * sieve::gpu::SIEVE_MAX_LODS);
    for (size_t p = 0; p < scene.primitives.size(); ++p) {
        const auto& prim = scene.primitives[p];
        for (uint32_t l = 0; l < prim.lodCount; ++l) {
            const auto& lod = prim.lods[l];
            ASSERT_EQ(triangles(before.indices, lod.firstIndex, lod.indexCount),
                      triangles(scene.indices, lod.firstIndex, lod.indexCount))
                << "primitive " << p << " LOD " << l;
            const auto& r = c.ranges[p * sieve::gpu::SIEVE_MAX_LODS + l];
            ASSERT_GT(r.clusterCount, 0u);
            uint32_t next = lod.firstIndex;
            for (uint32_t k = 0; k < r.clusterCount; ++k) {
                const sieve::gpu::Cluster& cl = c.clusters[r.firstCluster + k];
                ASSERT_EQ(cl.firstIndex, next) << "clusters tile the LOD's range in order";
                ASSERT_GE(cl.triangleCount, 1u);
                ASSERT_LE(cl.triangleCount, sieve::gpu::SIEVE_CLUSTER_MAX_TRIANGLES);
                ASSERT_LE(cl.vertexCount, sieve::gpu::SIEVE_CLUSTER_MAX_VERTICES);
                next += 3 * cl.triangleCount;
                const glm::vec3 centre(cl.sphere.x, cl.sphere.y, cl.sphere.z);
                const glm::vec3 axis(cl.cone.x, cl.cone.y, cl.cone.z);
                for (uint32_t t = 0; t < cl.triangleCount; ++t) {
                    const uint32_t packed = c.triangles[cl.triangleOffset + t];
                    glm::vec3 v[3];
                    for (uint32_t j = 0; j < 3; ++j) {
                        const uint32_t local = clusterTriangleVertex(packed, j);
                        ASSERT_LT(local, cl.vertexCount);
                        const uint32_t index = c.vertices[cl.vertexOffset + local];
                        ASSERT_EQ(index, scene.indices[cl.firstIndex + 3 * t + j]) << "meshlet == index range";
                        v[j] = position(scene, prim, index);
                        EXPECT_LE(glm::length(v[j] - centre), cl.sphere.w * (1 + 1e-5f) + 1e-6f) << "sphere";
                    }
                    const glm::vec3 n = glm::cross(v[1] - v[0], v[2] - v[0]);
                    const float len = glm::length(n);
                    // Every real triangle's normal lies inside the cone (angle cutoff), so back-facing
                    // cone => back-facing triangle.
                    if (cl.cone.w < 1.0f && len > 1e-6f) {
                        const float cosAngle = glm::dot(n / len, axis);
                        EXPECT_GE(cosAngle, std::sqrt(std::max(0.0f, 1.0f - cl.cone.w * cl.cone.w)) - 1e-3f)
                            << "normal outside the cone";
                    }
                }
            }
            EXPECT_EQ(next, lod.firstIndex + lod.indexCount);
        }
    }
    uint64_t slots = 0;
    for (size_t i = 0; i < scene.instances.size(); ++i) {
        EXPECT_EQ(c.instanceSlots[i], slots);
        slots += c.meshSlots[scene.instances[i].mesh];
    }
    EXPECT_EQ(c.visibilitySlots, slots);
}

}  // namespace

TEST(Meshlets, SphereLodsAreTiledByClustersThatBoundTheirTriangles) {
    Geometry g;
    appendSphere(g, 2.0f, 64, 48);
    MeshBuilder b;
    ASSERT_TRUE(b.addPrimitive({g.positions, g.normals, g.indices, 0}));
    SceneData scene;
    ASSERT_TRUE(b.finish(scene, "sphere"));
    scene.addInstance(makeInstance(glm::mat4(1.0f), 0, scene.meshes[0]));
    checkScene(scene);
}

TEST(Meshlets, TheProceduralCityIsTiledByClusters) {
    auto city = makeCity(50, 9);
    ASSERT_TRUE(city) << city.error();
    checkScene(std::move(city).value());
}

TEST(Meshlets, BadSettingsAreRefused) {
    SceneData scene;
    EXPECT_FALSE(buildClusters(scene, {2, 10, 0.25f}));
    EXPECT_FALSE(buildClusters(scene, {64, 0, 0.25f}));
    EXPECT_FALSE(buildClusters(scene, {64, 200, 0.25f}));
    EXPECT_FALSE(buildClusters(scene, {64, 124, 2.0f}));
}

// assignInstanceSlots with a filter: the slotted instances take consecutive slots in instance order, the
// others all point past the table (so that no slot of theirs is inside it), and the totals follow.
TEST(Meshlets, FilteredInstancesGetNoSlots) {
    auto city = makeCity(50, 9);
    ASSERT_TRUE(city) << city.error();
    SceneData scene = std::move(city).value();
    auto built = buildClusters(scene);
    ASSERT_TRUE(built) << built.error();
    ClusterData c = std::move(built).value();
    auto slots = assignInstanceSlots(c, scene, [](size_t i) { return i % 3 == 1; });
    ASSERT_TRUE(slots) << slots.error();
    uint64_t next = 0;
    for (size_t i = 0; i < scene.instances.size(); ++i)
        if (i % 3 == 1) {
            EXPECT_EQ(c.instanceSlots[i], next) << "instance " << i;
            next += c.meshSlots[scene.instances[i].mesh];
        }
    EXPECT_EQ(slots.value(), next);
    EXPECT_EQ(c.visibilitySlots, next);
    ASSERT_EQ(c.instanceSlots.size(), scene.instances.size());
    for (size_t i = 0; i < scene.instances.size(); ++i)
        if (i % 3 != 1) {
            EXPECT_EQ(c.instanceSlots[i], next) << "past the table: instance " << i;
        }
    // No filter: every instance again, as buildClusters left them.
    auto all = assignInstanceSlots(c, scene);
    ASSERT_TRUE(all) << all.error();
    EXPECT_GT(all.value(), next);
    EXPECT_EQ(c.instanceSlots[0], 0u);
}
