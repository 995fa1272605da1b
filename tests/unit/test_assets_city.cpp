// The procedural city: determinism, exact counts, valid tables, conservative instance spheres.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "assets/city_meshes.h"
#include "assets/glm_interop.h"
#include "assets/procedural_city.h"

using namespace sieve::assets;

namespace {

template <typename T>
bool sameBytes(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool sameScene(const SceneData& a, const SceneData& b) {
    return sameBytes(a.vertices, b.vertices) && sameBytes(a.indices, b.indices) &&
           sameBytes(a.primitives, b.primitives) && sameBytes(a.meshes, b.meshes) &&
           sameBytes(a.instances, b.instances);
}

SceneData city(uint64_t n, uint32_t seed) {
    auto c = makeCity(n, seed);
    EXPECT_TRUE(c) << c.error();
    return std::move(c).value();
}

}  // namespace

TEST(ProceduralCity, SameSeedSameBytesDifferentSeedDiffers) {
    SceneData a = city(5000, 42), b = city(5000, 42), c = city(5000, 43);
    EXPECT_TRUE(sameScene(a, b));
    EXPECT_TRUE(sameBytes(a.meshes, c.meshes));  // the shared meshes do not depend on the seed
    EXPECT_FALSE(sameBytes(a.instances, c.instances));
}

TEST(ProceduralCity, InstanceCountIsExact) {
    for (uint64_t n : {0ull, 1ull, 2ull, 17ull, 999ull, 1000ull, 1001ull, 12345ull}) {
        SceneData s = city(n, 1);
        EXPECT_EQ(s.instances.size(), n);
        EXPECT_EQ(s.validate(), "") << n;
    }
}

TEST(ProceduralCity, SmallerCityIsAPrefixOfABiggerOne) {
    SceneData small = city(3000, 9), big = city(20000, 9);
    ASSERT_EQ(small.instances.size(), 3000u);
    EXPECT_EQ(std::memcmp(small.instances.data(), big.instances.data(), 3000 * sizeof(sieve::gpu::Instance)), 0);
}

TEST(ProceduralCity, MeshesAreSharedAndSeveralHaveManyPrimitives) {
    SceneData s = city(20000, 5);
    EXPECT_EQ(s.validate(), "");
    EXPECT_EQ(s.meshes.size(), size_t(kCityMeshCount));
    EXPECT_GE(s.meshes.size(), 10u);
    EXPECT_LE(s.meshes.size(), 20u);
    EXPECT_EQ(s.meshNames.size(), s.meshes.size());
    int multi = 0;
    for (const auto& m : s.meshes) multi += m.primitiveCount > 1;
    EXPECT_GE(multi, 5);
    std::set<uint32_t> used;
    for (const auto& inst : s.instances) used.insert(inst.mesh);
    EXPECT_EQ(used.size(), s.meshes.size()) << "every mesh appears in a 20k city";
    // Some meshes simplify: LOD chains longer than 1 exist.
    uint32_t longest = 0;
    for (const auto& p : s.primitives) longest = std::max(longest, p.lodCount);
    EXPECT_GE(longest, 3u);
    SceneStats st = s.stats();
    EXPECT_EQ(st.instances, 20000u);
    EXPECT_GT(st.instancedDraws, st.instances);
    EXPECT_GT(st.instancedTriangles, st.uniqueTriangles);
}

TEST(ProceduralCity, LodChainsDecreaseAndErrorsGrow) {
    SceneData s = city(0, 1);
    for (const auto& p : s.primitives) {
        EXPECT_EQ(p.lods[0].error, 0.0f);
        for (uint32_t l = 1; l < p.lodCount; ++l) {
            EXPECT_LT(p.lods[l].indexCount, p.lods[l - 1].indexCount);
            EXPECT_GE(p.lods[l].error, p.lods[l - 1].error);
        }
    }
}

TEST(ProceduralCity, InstanceSpheresContainTheirTransformedVertices) {
    SceneData s = city(40000, 11);
    // Every 37th instance: all vertices of all primitives of its mesh, transformed by its rows.
    for (size_t i = 0; i < s.instances.size(); i += 37) {
        const auto& inst = s.instances[i];
        const auto& sphere = s.bounds[i].sphere;
        const auto& mesh = s.meshes[inst.mesh];
        glm::vec3 c = sieve::toGlm3(sphere);
        float slack = 1e-5f * (sphere.w + glm::length(c));
        for (uint32_t p = mesh.firstPrimitive; p < mesh.firstPrimitive + mesh.primitiveCount; ++p) {
            const auto& prim = s.primitives[p];
            uint32_t maxIndex = 0;
            for (uint32_t k = 0; k < prim.lods[0].indexCount; ++k)
                maxIndex = std::max(maxIndex, s.indices[prim.lods[0].firstIndex + k]);
            for (uint32_t v = 0; v <= maxIndex; ++v) {
                const auto& vx = s.vertices[prim.vertexOffset + v];
                glm::vec4 o(vx.px, vx.py, vx.pz, 1.0f);
                glm::vec3 w(glm::dot(sieve::toGlm(inst.rows[0]), o), glm::dot(sieve::toGlm(inst.rows[1]), o),
                            glm::dot(sieve::toGlm(inst.rows[2]), o));
                ASSERT_LE(glm::distance(w, c), sphere.w + slack) << "instance " << i << " mesh " << inst.mesh;
            }
        }
        EXPECT_GE(inst.scale, 0.1f);
    }
}

TEST(ProceduralCity, AreaGrowsWithInstanceCountAtRoughlyConstantDensity) {
    SceneData a = city(10000, 2), b = city(40000, 2);
    auto area = [](const SceneData& s) {
        return double(s.boundsMax.x - s.boundsMin.x) * double(s.boundsMax.z - s.boundsMin.z);
    };
    double ratio = area(b) / area(a);
    EXPECT_GT(ratio, 2.5);
    EXPECT_LT(ratio, 6.0);
    // Every instance sphere lies inside the bounds.
    ASSERT_EQ(b.bounds.size(), b.instances.size());
    for (const auto& bounds : b.bounds) {
        ASSERT_GE(bounds.sphere.x - bounds.sphere.w, b.boundsMin.x - 1e-3f);
        ASSERT_LE(bounds.sphere.z + bounds.sphere.w, b.boundsMax.z + 1e-3f);
    }
}

TEST(ProceduralCity, ProgressIsReportedAndEndsComplete) {
    std::vector<std::pair<std::string, float>> calls;
    auto c = makeCity(5000, 3, [&](std::string_view stage, float f) { calls.emplace_back(std::string(stage), f); });
    ASSERT_TRUE(c);
    ASSERT_FALSE(calls.empty());
    float last = -1.0f;
    for (const auto& [stage, f] : calls)
        if (stage == "instances") {
            EXPECT_GE(f, last);
            last = f;
        }
    EXPECT_EQ(last, 1.0f);
}

TEST(ProceduralCity, RejectsMoreInstancesThanIdsCanAddress) {
    auto c = makeCity(kMaxCityInstances + 1, 1);
    EXPECT_FALSE(c);
    EXPECT_NE(c.error().find("instances"), std::string::npos);
}

TEST(CityCamera, ConventionAndPresets) {
    CameraPose p;
    EXPECT_NEAR(cameraForward(p).z, -1.0f, 1e-6f);  // yaw 0 looks down -Z
    p.yaw = 3.14159265f / 2;
    EXPECT_NEAR(cameraForward(p).x, -1.0f, 1e-6f);  // yaw +90 degrees looks down -X
    glm::vec4 ahead = viewMatrix(p) * glm::vec4(p.position + glm::vec3(-5, 0, 0), 1.0f);
    EXPECT_NEAR(ahead.z, -5.0f, 1e-4f);  // in view space the camera looks down -Z
    CameraPose look = lookAtPose(glm::vec3(0, 10, 10), glm::vec3(0, 0, 0));
    EXPECT_NEAR(look.yaw, 0.0f, 1e-6f);
    EXPECT_NEAR(look.pitch, -3.14159265f / 4, 1e-5f);

    SceneData s = city(20000, 1);
    auto presets = cameraPresets(s);
    ASSERT_GE(presets.size(), 3u);
    EXPECT_EQ(presets[0].name, "street");
    EXPECT_EQ(presets[0].pose.position, defaultCityCamera().position);
    EXPECT_LT(defaultCityCamera().position.y, 2.0f);
    for (const std::string& name : cameraPathNames())
        for (float t : {0.0f, 0.3f, 1.0f}) {
            auto pose = cameraPath(s, name, t);
            ASSERT_TRUE(pose) << name;
            EXPECT_TRUE(std::isfinite(pose->position.x) && std::isfinite(pose->yaw) && std::isfinite(pose->pitch));
        }
    EXPECT_FALSE(cameraPath(s, "nope", 0.0f));
    // Same t, same pose: paths are repeatable.
    EXPECT_EQ(cameraPath(s, "flyover", 0.25f)->position, cameraPath(s, "flyover", 0.25f)->position);
}
