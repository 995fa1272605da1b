// MeshBuilder, bounding spheres, normal packing and shape winding.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <random>

#include "assets/bounding_sphere.h"
#include "assets/glm_interop.h"
#include "assets/mesh_builder.h"
#include "assets/normal_packing.h"
#include "assets/shapes.h"

using namespace sieve::assets;

namespace {

// A finely tessellated sphere: enough triangles for a long LOD chain.
Geometry denseSphere() {
    Geometry g;
    appendSphere(g, 2.0f, 64, 48);
    return g;
}

}  // namespace

TEST(NormalPacking, RoundTripsWithinQuantisationAndUsesTenBitFields) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    for (int i = 0; i < 1000; ++i) {
        glm::vec3 n = glm::normalize(glm::vec3(d(rng), d(rng), d(rng)) + glm::vec3(1e-3f));
        uint32_t p = packNormal(n);
        EXPECT_EQ(p >> 30, 0u);
        glm::vec3 u = unpackNormal(p);
        EXPECT_LE(glm::length(u - n), 2.0f / 511.0f);
    }
    EXPECT_EQ(packNormal({1, 0, 0}), 511u);
    EXPECT_EQ(packNormal({-1, 0, 0}), 0x201u);  // -511 in 10-bit two's complement
    EXPECT_EQ(packNormal({0, 1, 0}), 511u << 10);
    EXPECT_EQ(packNormal({0, 0, -1}), 0x201u << 20);
    EXPECT_EQ(packNormal({NAN, 0, 0}), 0u);
}

TEST(BoundingSphere, ContainsEveryPoint) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> d(-50.0f, 50.0f);
    for (int trial = 0; trial < 50; ++trial) {
        std::vector<glm::vec3> pts(1 + trial * 13);
        glm::vec3 offset(d(rng) * 100.0f, d(rng), d(rng));
        for (auto& p : pts) p = offset + glm::vec3(d(rng), d(rng) * 0.1f * float(trial % 7), d(rng));
        glm::vec4 s = boundingSphere(pts);
        for (const auto& p : pts) EXPECT_LE(glm::distance(p, glm::vec3(s)), s.w);
        // Not absurdly loose: within the AABB's circumsphere.
        glm::vec3 mn(1e30f), mx(-1e30f);
        for (const auto& p : pts) mn = glm::min(mn, p), mx = glm::max(mx, p);
        EXPECT_LE(s.w, glm::length(mx - mn) * 0.5f * 1.001f + 1e-5f * glm::length(offset) + 1e-3f);
    }
    EXPECT_EQ(boundingSphere({}), glm::vec4(0.0f));
}

TEST(Shapes, FacesPointOutwardsCounterClockwise) {
    Geometry g;
    appendBox(g, glm::vec3(-1, 0, -2), glm::vec3(1, 3, 2));
    appendFrustum(g, 1.0f, 0.5f, 2.0f, 12);
    appendFrustum(g, 1.0f, 0.0f, 2.0f, 12);
    appendSphere(g, 1.5f, 16, 12);
    appendTorus(g, 3.0f, 0.5f, 16, 8);
    appendGable(g, glm::vec3(-1, 0, -1), glm::vec3(1, 1, 1));
    ASSERT_EQ(g.indices.size() % 3, 0u);
    for (size_t t = 0; t < g.indices.size(); t += 3) {
        glm::vec3 a = g.positions[g.indices[t]], b = g.positions[g.indices[t + 1]], c = g.positions[g.indices[t + 2]];
        glm::vec3 face = glm::cross(b - a, c - a);
        ASSERT_GT(glm::length(face), 0.0f) << "degenerate triangle " << t / 3;
        glm::vec3 n = g.normals[g.indices[t]] + g.normals[g.indices[t + 1]] + g.normals[g.indices[t + 2]];
        EXPECT_GT(glm::dot(face, n), 0.0f) << "triangle " << t / 3 << " is wound against its normals";
    }
}

TEST(MeshBuilder, LodChainDecreasesIndicesAndNeverDecreasesError) {
    Geometry g = denseSphere();
    MeshBuilder builder;
    ASSERT_TRUE(builder.addPrimitive(g.input(3)));
    SceneData scene;
    auto mesh = builder.finish(scene, "sphere");
    ASSERT_TRUE(mesh) << mesh.error();
    EXPECT_EQ(scene.validate(), "");
    const sieve::gpu::MeshPrimitive& prim = scene.primitives[0];
    EXPECT_EQ(prim.material, 3u);
    EXPECT_GE(prim.lodCount, 4u);
    EXPECT_LE(prim.lodCount, sieve::gpu::SIEVE_MAX_LODS);
    EXPECT_EQ(prim.lods[0].error, 0.0f);
    EXPECT_EQ(prim.lods[0].indexCount, g.indices.size());
    for (uint32_t l = 1; l < prim.lodCount; ++l) {
        EXPECT_LT(prim.lods[l].indexCount, prim.lods[l - 1].indexCount);
        EXPECT_LE(double(prim.lods[l].indexCount), double(prim.lods[l - 1].indexCount) * 0.85);
        EXPECT_GE(prim.lods[l].error, prim.lods[l - 1].error);
        EXPECT_EQ(prim.lods[l].indexCount % 3, 0u);
    }
    EXPECT_GT(prim.lods[prim.lodCount - 1].error, 0.0f);
    // The sphere's vertices are deduplicated: the seam column and the pole rows collapse.
    EXPECT_LT(scene.vertices.size(), g.positions.size());
}

TEST(MeshBuilder, BoundingSphereContainsAllPrimitives) {
    Geometry a, b;
    appendBox(a, glm::vec3(-1, 0, -1), glm::vec3(1, 8, 1));
    appendSphere(b, 3.0f, 12, 8, glm::translate(glm::mat4(1.0f), glm::vec3(5, 10, -2)));
    MeshBuilder builder;
    ASSERT_TRUE(builder.addPrimitive(a.input(0)));
    ASSERT_TRUE(builder.addPrimitive(b.input(1)));
    SceneData scene;
    scene.vertices.push_back({0, 0, 0, 0});  // an existing vertex: offsets must be applied
    ASSERT_TRUE(builder.finish(scene, "two"));
    ASSERT_EQ(scene.meshes.size(), 1u);
    const sieve::gpu::Mesh& m = scene.meshes[0];
    EXPECT_EQ(m.primitiveCount, 2u);
    EXPECT_EQ(scene.primitives[0].vertexOffset, 1);
    for (size_t v = 1; v < scene.vertices.size(); ++v) {
        glm::vec3 p(scene.vertices[v].px, scene.vertices[v].py, scene.vertices[v].pz);
        EXPECT_LE(glm::distance(p, sieve::toGlm3(m.sphere)), m.sphere.w);
    }
    EXPECT_EQ(scene.validate(), "");
}

TEST(MeshBuilder, RejectsBadInput) {
    std::vector<glm::vec3> pos = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    std::vector<uint32_t> outOfRange = {0, 1, 3};
    std::vector<uint32_t> notTriangles = {0, 1};
    std::vector<glm::vec3> nanPos = {{0, 0, 0}, {NAN, 0, 0}, {0, 1, 0}};
    std::vector<glm::vec3> twoNormals = {{0, 0, 1}, {0, 0, 1}};
    MeshBuilder builder;
    EXPECT_FALSE(builder.addPrimitive({pos, {}, outOfRange, 0}));
    EXPECT_FALSE(builder.addPrimitive({pos, {}, notTriangles, 0}));
    EXPECT_FALSE(builder.addPrimitive({nanPos, {}, {}, 0}));
    EXPECT_FALSE(builder.addPrimitive({pos, twoNormals, {}, 0}));
    EXPECT_FALSE(builder.addPrimitive({{}, {}, {}, 0}));
    SceneData scene;
    EXPECT_FALSE(builder.finish(scene, "empty"));
    // Unindexed input is a triangle list; missing normals are computed (+Z for this triangle).
    ASSERT_TRUE(builder.addPrimitive({pos, {}, {}, 0}));
    ASSERT_TRUE(builder.finish(scene, "tri"));
    EXPECT_EQ(scene.meshTriangles(0), 1u);
    EXPECT_GT(unpackNormal(scene.vertices[0].normal).z, 0.99f);
}

// A unit quad far out on one axis: the seam weld's cells are a fraction of the largest side (1 here), so
// y / cell is about 5e24, past int64 (UBSan in the sanitizer job reported the conversion; the fuzzer
// found it). The quad loads whole and keeps its normal.
TEST(MeshBuilder, FarFromTheOriginOnOneAxisWeldsWithoutOverflow) {
    const std::vector<glm::vec3> pos = {{0, 1e20f, 0}, {1, 1e20f, 0}, {1, 1e20f, 1}, {0, 1e20f, 1}};
    const std::vector<uint32_t> idx = {0, 2, 1, 0, 3, 2};
    MeshBuilder builder;
    ASSERT_TRUE(builder.addPrimitive({pos, {}, idx, 0}));
    SceneData scene;
    ASSERT_TRUE(builder.finish(scene, "far quad"));
    EXPECT_EQ(scene.meshTriangles(0), 2u);
    EXPECT_GT(unpackNormal(scene.vertices[0].normal).y, 0.99f);
}

TEST(SceneValidate, ReportsTheFirstBrokenRange) {
    Geometry g;
    appendBox(g, glm::vec3(0), glm::vec3(1));
    MeshBuilder builder;
    ASSERT_TRUE(builder.addPrimitive(g.input(0)));
    SceneData scene;
    ASSERT_TRUE(builder.finish(scene, "box"));
    scene.addInstance(makeInstance(glm::mat4(1.0f), 0, scene.meshes[0]));
    ASSERT_EQ(scene.validate(), "");

    SceneData bad = scene;
    bad.indices[0] = uint32_t(bad.vertices.size());
    EXPECT_NE(bad.validate().find("index"), std::string::npos);
    bad = scene;
    bad.primitives[0].lods[0].indexCount += 3;
    EXPECT_NE(bad.validate().find("outside the index buffer"), std::string::npos);
    bad = scene;
    bad.primitives[0].lodCount = 0;
    EXPECT_NE(bad.validate().find("lodCount"), std::string::npos);
    bad = scene;
    bad.primitives[0].vertexOffset = -1;
    EXPECT_NE(bad.validate().find("vertexOffset"), std::string::npos);
    bad = scene;
    bad.meshes[0].primitiveCount = 2;
    EXPECT_NE(bad.validate().find("primitive range"), std::string::npos);
    bad = scene;
    bad.instances[0].mesh = 1;
    EXPECT_NE(bad.validate().find("instance 0"), std::string::npos);
    bad = scene;
    bad.instances[0].rows[1].w = INFINITY;
    EXPECT_NE(bad.validate().find("transform"), std::string::npos);
}

TEST(SceneInstances, MaxAxisScaleBoundsShear) {
    glm::mat3 rs = glm::mat3(glm::rotate(glm::mat4(1.0f), 0.7f, glm::vec3(0, 1, 0))) *
                   glm::mat3(glm::scale(glm::mat4(1.0f), glm::vec3(2, 5, 3)));
    EXPECT_NEAR(maxAxisScale(rs), 5.0f, 1e-3f);
    glm::mat3 shear(1.0f);
    shear[1][0] = 3.0f;  // x += 3y
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    float s = maxAxisScale(shear);
    for (int i = 0; i < 1000; ++i) {
        glm::vec3 v = glm::normalize(glm::vec3(d(rng), d(rng), d(rng)));
        EXPECT_LE(glm::length(shear * v), s * 1.0001f);
    }
}
