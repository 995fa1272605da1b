#include "assets/procedural_dense.h"

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <numbers>
#include <random>
#include <string>

#include "assets/mesh_builder.h"
#include "assets/shapes.h"

namespace sieve::assets {

namespace {

constexpr uint32_t kMaxDenseInstances = 1u << 24;

// The unique meshes: every one high-polygon, closed, counter-clockwise from outside.
Expected<uint32_t> appendDenseMeshes(SceneData& scene, uint32_t lodLevels) {
    LodSettings lod;
    lod.maxLods = lodLevels;
    auto build = [&](const Geometry& g, uint32_t material, const char* name) -> Expected<uint32_t> {
        MeshBuilder b(lod);
        if (auto p = b.addPrimitive(g.input(material)); !p) return Unexpected{std::string(name) + ": " + p.error()};
        return b.finish(scene, name);
    };
    Geometry sphere, torus, blob, ring;
    appendSphere(sphere, 2.0f, 224, 160, glm::translate(glm::mat4(1.0f), glm::vec3(0, 2.0f, 0)));
    appendTorus(torus, 1.8f, 0.7f, 288, 144, glm::translate(glm::mat4(1.0f), glm::vec3(0, 0.7f, 0)));
    for (int k = 0; k < 4; ++k) {
        const float a = float(k) * std::numbers::pi_v<float> / 2;
        appendSphere(
            blob, 1.0f, 112, 80,
            glm::translate(glm::mat4(1.0f), glm::vec3(1.1f * std::cos(a), 1.0f + 0.6f * k, 1.1f * std::sin(a))));
    }
    appendTorus(ring, 1.2f, 0.35f, 256, 96,
                glm::rotate(glm::translate(glm::mat4(1.0f), glm::vec3(0, 1.6f, 0)), std::numbers::pi_v<float> / 2,
                            glm::vec3(1, 0, 0)));
    const struct {
        const Geometry* g;
        uint32_t material;
        const char* name;
    } meshes[] = {
        {&sphere, 5, "dense sphere"}, {&torus, 1, "dense torus"}, {&blob, 2, "dense blob"}, {&ring, 4, "dense ring"}};
    for (const auto& m : meshes)
        if (auto r = build(*m.g, m.material, m.name); !r) return r;
    return uint32_t(std::size(meshes));
}

}  // namespace

Expected<SceneData> makeDenseScene(uint32_t instances, uint32_t seed, uint32_t lodLevels, const ProgressFn& progress) {
    if (instances == 0 || instances > kMaxDenseInstances)
        return Unexpected{"makeDenseScene: " + std::to_string(instances) + " instances (1.." +
                          std::to_string(kMaxDenseInstances) + ")"};
    auto report = [&](std::string_view stage, float f) {
        if (progress) progress(stage, f);
    };
    SceneData scene;
    report("meshes", 0.0f);
    auto meshes = appendDenseMeshes(scene, lodLevels);
    if (!meshes) return Unexpected{"makeDenseScene: " + meshes.error()};
    report("meshes", 1.0f);
    const uint32_t columns = uint32_t(std::ceil(std::sqrt(double(instances))));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u01(0.0f, 1.0f);
    scene.instances.reserve(instances);
    for (uint32_t i = 0; i < instances; ++i) {
        const uint32_t mesh = rng() % meshes.value();
        const float x = (float(i % columns) + 0.5f) * kDensePitch, z = -(float(i / columns) + 0.5f) * kDensePitch;
        const float jx = (u01(rng) - 0.5f) * 2.0f, jz = (u01(rng) - 0.5f) * 2.0f;
        glm::mat4 m = glm::translate(glm::mat4(1.0f), glm::vec3(x + jx, 0.0f, z + jz));
        m = glm::rotate(m, u01(rng) * 2.0f * std::numbers::pi_v<float>, glm::vec3(0, 1, 0));
        m = glm::scale(m, glm::vec3(0.8f + 0.6f * u01(rng)));
        scene.addInstance(makeInstance(m, mesh, scene.meshes[mesh]));
        if (i % 4096 == 4095) report("instances", float(i + 1) / float(instances));
    }
    report("instances", 1.0f);
    scene.updateBounds();
    return scene;
}

CameraPose defaultDenseCamera(const SceneData& dense) {
    const glm::vec3 from(-4.0f, 3.0f, 4.0f);
    const glm::vec3 centre = (dense.boundsMin + dense.boundsMax) * 0.5f;
    return lookAtPose(from, glm::vec3(centre.x, 1.5f, centre.z));
}

}  // namespace sieve::assets
