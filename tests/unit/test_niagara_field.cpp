// niagara's benchmark scene (assets/niagara_field.h): the PCG32 stream and the first draws equal an
// independent reference, the field's instances are those draws (transform, mesh, conservative sphere), in
// stream order.
//
// The constants below were printed by tests/unit/niagara_field_reference.py (/usr/bin/python3 with numpy),
// which implements the documented algorithm on its own: PCG32 in Python integers, the float steps in numpy
// float32. Positions and scales are float products and sums, so they must match bit for bit; the axis,
// angle and quaternion go through sqrt, sin and cos, whose last bit may differ between libraries.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <glm/gtc/quaternion.hpp>

#include "assets/glm_interop.h"
#include "assets/niagara_field.h"
#include "assets/shapes.h"

using namespace sieve::assets;

namespace {

struct ReferenceDraw {
    glm::vec3 position;
    float scale;
    glm::vec3 axis;
    float angle;
    glm::vec4 q;  // w, x, y, z
};

// draw 0..2 of tests/unit/niagara_field_reference.py (mesh index 0 each: one mesh).
const ReferenceDraw kReference[] = {
    {{-199.855133f, 264.004272f, 221.047485f},
     2.12567496f,
     {-0.41170606f, 0.458965749f, 0.78730464f},
     1.32375705f,
     {0.788839102f, -0.253034443f, 0.282080233f, 0.483877242f}},
    {{256.280457f, -60.9035492f, 282.520142f},
     3.01922321f,
     {0.609644294f, -0.75307548f, -0.247408926f},
     0.192159921f,
     {0.995387852f, 0.058484517f, -0.0722441897f, -0.023734482f}},
    {{177.330414f, -164.978134f, 284.487976f},
     3.1589365f,
     {-0.909286976f, 0.05404827f, 0.412645042f},
     0.744412184f,
     {0.931527317f, -0.330681622f, 0.0196558088f, 0.15006718f}},
};

// Two meshes, both off their origin (the sphere centre then moves with the rotation): a box and a
// smaller, flatter box.
SceneData twoMeshes() {
    SceneData scene;
    const glm::vec3 boxes[2][2] = {{{0.2f, -0.1f, 0.3f}, {1.0f, 0.7f, 0.9f}},
                                   {{-1.0f, 0.0f, -0.4f}, {-0.2f, 0.2f, 0.4f}}};
    for (const auto& b : boxes) {
        Geometry g;
        appendBox(g, b[0], b[1]);
        MeshBuilder builder;
        EXPECT_TRUE(builder.addPrimitive(g.input(0)));
        auto m = builder.finish(scene, "box");
        EXPECT_TRUE(m) << m.error();
    }
    return scene;
}

}  // namespace

TEST(NiagaraField, Pcg32StreamEqualsTheReference) {
    const uint32_t raw[] = {0x00000000u, 0x2aba7d7cu, 0xf0a44f58u, 0xde50487eu, 0x10161e42u,
                            0x3d7bbcbeu, 0xca26eee6u, 0xff331bacu, 0xd7bd2738u, 0x92b3e058u};
    Pcg32 rng;
    for (uint32_t want : raw) EXPECT_EQ(rng.rand32(), want);
    Pcg32 again;
    again.rand32();
    EXPECT_EQ(again.rand01(), 0.16690811421722174);
    EXPECT_EQ(again.rand01(), 0.9400071706622839);
    EXPECT_EQ(again.rand01(), 0.8684125239960849);
}

TEST(NiagaraField, FirstDrawsEqualTheReference) {
    Pcg32 rng;
    for (const ReferenceDraw& want : kReference) {
        const NiagaraDraw d = nextNiagaraDraw(rng, 1);
        EXPECT_EQ(d.meshIndex, 0u);
        EXPECT_EQ(d.position.x, want.position.x);
        EXPECT_EQ(d.position.y, want.position.y);
        EXPECT_EQ(d.position.z, want.position.z);
        EXPECT_EQ(d.scale, want.scale);
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(d.axis[c], want.axis[c], 2e-7f) << c;
        EXPECT_NEAR(d.angle, want.angle, 2e-7f);
        EXPECT_NEAR(d.orientation.w, want.q[0], 2e-7f);
        EXPECT_NEAR(d.orientation.x, want.q[1], 2e-7f);
        EXPECT_NEAR(d.orientation.y, want.q[2], 2e-7f);
        EXPECT_NEAR(d.orientation.z, want.q[3], 2e-7f);
    }
    // Draw 999: nine outputs per draw keep the stream in step with the reference.
    Pcg32 far;
    for (int i = 0; i < 999; ++i) nextNiagaraDraw(far, 1);
    const NiagaraDraw d = nextNiagaraDraw(far, 1);
    EXPECT_EQ(d.position.x, -256.986816f);
    EXPECT_EQ(d.position.y, 167.438477f);
    EXPECT_EQ(d.position.z, -16.6730957f);
    EXPECT_EQ(d.scale, 3.20424938f);
}

TEST(NiagaraField, TransformIsScaleThenRotationThenTranslation) {
    Pcg32 rng;
    for (int i = 0; i < 50; ++i) {
        const NiagaraDraw d = nextNiagaraDraw(rng, 3);
        EXPECT_LT(d.meshIndex, 3u);
        EXPECT_GE(d.scale, 2.0f);
        EXPECT_LE(d.scale, 4.0f);
        EXPECT_NEAR(glm::length(d.axis), 1.0f, 1e-6f);
        EXPECT_NEAR(glm::length(d.orientation), 1.0f, 1e-6f);
        const glm::mat4 m = niagaraTransform(d);
        // niagara's vertex transform: rotateQuat(v * scale, orientation) + position.
        for (const glm::vec3 v : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0.3f, -0.7f, 0.2f)}) {
            const glm::vec3 want = d.orientation * (v * d.scale) + d.position;
            const glm::vec3 got = glm::vec3(m * glm::vec4(v, 1.0f));
            EXPECT_NEAR(glm::distance(got, want), 0.0f, 1e-4f) << i;
        }
    }
}

TEST(NiagaraField, InstancesAreTheDrawsInStreamOrderWithConservativeSpheres) {
    const SceneData meshes = twoMeshes();
    ASSERT_EQ(meshes.meshes.size(), 2u);
    auto field = makeNiagaraField(meshes, 2000);
    ASSERT_TRUE(field) << field.error();
    const SceneData& s = field.value();
    EXPECT_EQ(s.validate(), "");
    ASSERT_EQ(s.instances.size(), 2000u);
    EXPECT_EQ(s.meshes.size(), 2u);
    EXPECT_EQ(s.vertices.size(), meshes.vertices.size());
    Pcg32 rng;
    uint32_t perMesh[2] = {0, 0};
    for (uint32_t i = 0; i < s.instances.size(); ++i) {
        const NiagaraDraw d = nextNiagaraDraw(rng, 2);
        const sieve::gpu::Instance& inst = s.instances[i];
        const sieve::gpu::vec4& sphere = s.bounds[i].sphere;
        ASSERT_EQ(inst.mesh, d.meshIndex) << i;
        ++perMesh[inst.mesh];
        const glm::mat4 m = niagaraTransform(d);
        const glm::mat4 got = instanceTransform(inst);
        ASSERT_EQ(std::memcmp(&got, &m, sizeof m), 0) << i;
        // The sphere: the mesh's sphere moved by the transform, its radius scaled (rotation and uniform
        // scale: by the scale), and every corner of the box inside it, up to the rounding of a float world
        // position (the culling's SIEVE_CULL_RADIUS_ABS_EPS term covers that): the corners of a box lie on
        // its sphere.
        const glm::vec4 ms = sieve::toGlm(s.meshes[inst.mesh].sphere);
        const glm::vec3 centre = d.orientation * (glm::vec3(ms) * d.scale) + d.position;
        EXPECT_NEAR(glm::distance(sieve::toGlm3(sphere), centre), 0.0f, 1e-4f) << i;
        EXPECT_GE(sphere.w, ms.w * d.scale) << i;
        EXPECT_LE(sphere.w, ms.w * d.scale * (1.0f + 1e-5f)) << i;
        EXPECT_NEAR(inst.scale, d.scale, d.scale * 1e-5f) << i;
        const sieve::gpu::MeshPrimitive& prim = s.primitives[s.meshes[inst.mesh].firstPrimitive];
        for (uint32_t k = 0; k < 8; ++k) {
            const sieve::gpu::Vertex& v = s.vertices[prim.vertexOffset + k];
            const glm::dvec3 w = glm::dvec3(glm::dmat4(m) * glm::dvec4(v.px, v.py, v.pz, 1.0));
            const glm::dvec3 c = sieve::toGlm3(sphere);
            const double rounding = 0x1p-20 * (std::abs(c.x) + std::abs(c.y) + std::abs(c.z));
            EXPECT_LE(glm::distance(w, c), sphere.w * (1.0 + 1e-5) + rounding) << i;
        }
        EXPECT_LE(std::abs(sphere.x), 300.0f + 4.0f * 2.0f);
        EXPECT_LE(std::abs(sphere.y), 300.0f + 4.0f * 2.0f);
        EXPECT_LE(std::abs(sphere.z), 300.0f + 4.0f * 2.0f);
    }
    EXPECT_GT(perMesh[0], 800u);
    EXPECT_GT(perMesh[1], 800u);
    EXPECT_LT(s.boundsMin.x, -290.0f);
    EXPECT_GT(s.boundsMax.z, 290.0f);

    // A smaller field is the start of a bigger one.
    auto small = makeNiagaraField(meshes, 500);
    ASSERT_TRUE(small) << small.error();
    ASSERT_EQ(small->instances.size(), 500u);
    EXPECT_EQ(std::memcmp(small->instances.data(), s.instances.data(), 500 * sizeof(sieve::gpu::Instance)), 0);
}

TEST(NiagaraField, RefusesASceneWithoutMeshesAndTooManyDraws) {
    auto none = makeNiagaraField(SceneData{}, 10);
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().find("no meshes"), std::string::npos) << none.error();
    auto many = makeNiagaraField(twoMeshes(), kMaxCityInstances + 1);
    ASSERT_FALSE(many);
    EXPECT_NE(many.error().find("exceed the limit"), std::string::npos) << many.error();
    auto empty = makeNiagaraField(twoMeshes(), 0);
    ASSERT_TRUE(empty) << empty.error();
    EXPECT_TRUE(empty->instances.empty());
}
