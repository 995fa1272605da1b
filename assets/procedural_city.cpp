#include "assets/procedural_city.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <numbers>
#include <stdexcept>

#include "assets/city_blocks.h"
#include "assets/city_meshes.h"
#include "assets/materials.h"

namespace sieve::assets {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;
constexpr float kTau = 2.0f * kPi;
constexpr float kEyeHeight = 1.7f;
constexpr float kStreetZ = kCityPitch / 2;  // centre line of the road south of block row 0

// Block k of the ring order: ring 0 is (0, 0), ring r >= 1 is the perimeter of [-r, r]^2 (8r blocks),
// walked east side (north to south), south side, west side, north side.
struct RingWalker {
    int32_t ring = 0, step = 0;
    glm::ivec2 next() {
        if (ring == 0) {
            ring = 1;
            return {0, 0};
        }
        int32_t r = ring, s = step, side = s / (2 * r), k = s % (2 * r);
        glm::ivec2 b;
        switch (side) {
            case 0: b = {r, -r + 1 + k}; break;
            case 1: b = {r - 1 - k, r}; break;
            case 2: b = {-r, r - 1 - k}; break;
            default: b = {-r + 1 + k, -r}; break;
        }
        if (++step == 8 * r) step = 0, ++ring;
        return b;
    }
};

float halfExtent(const SceneData& city) {
    if (city.boundsMin.x > city.boundsMax.x) return kCityPitch;
    glm::vec3 e = glm::max(glm::abs(city.boundsMin), glm::abs(city.boundsMax));
    return std::max(kCityPitch, std::max(e.x, e.z));
}

CameraPose overview(const SceneData& city) {
    float e = halfExtent(city);
    return lookAtPose(glm::vec3(0.0f, 0.8f * e + 60.0f, 1.1f * e + 40.0f), glm::vec3(0.0f));
}

float wrap01(float t) {
    return t - std::floor(t);
}

}  // namespace

Expected<SceneData> makeCity(uint64_t instances, uint32_t seed, const ProgressFn& progress) {
    if (instances > kMaxCityInstances)
        return Unexpected{"makeCity: " + std::to_string(instances) + " instances exceed the limit of " +
                          std::to_string(kMaxCityInstances)};
    auto report = [&](std::string_view stage, float f) {
        if (progress) progress(stage, f);
    };
    try {
        SceneData scene;
        scene.materials = paletteMaterials();
        report("meshes", 0.0f);
        auto meshes = appendCityMeshes(scene);
        if (!meshes) return Unexpected{"makeCity: " + meshes.error()};
        report("meshes", 1.0f);

        scene.instances.reserve(instances);
        scene.bounds.reserve(instances);
        InstanceEmitter emitter(scene, instances);
        RingWalker walker;
        uint64_t reportEvery = std::max<uint64_t>(instances / 64, 1), nextReport = reportEvery;
        report("instances", 0.0f);
        while (!emitter.full()) {
            glm::ivec2 b = walker.next();
            generateBlock(emitter, b.x, b.y, seed);
            if (scene.instances.size() >= nextReport) {
                report("instances", float(double(scene.instances.size()) / double(instances)));
                nextReport = scene.instances.size() + reportEvery;
            }
        }
        report("instances", 1.0f);
        scene.updateBounds();
        report("bounds", 1.0f);
        return scene;
    } catch (const std::bad_alloc&) {
        return Unexpected{"makeCity: out of memory for " + std::to_string(instances) + " instances"};
    } catch (const std::length_error&) {
        return Unexpected{"makeCity: out of memory for " + std::to_string(instances) + " instances"};
    }
}

CameraPose defaultCityCamera() {
    CameraPose p;
    p.position = glm::vec3(kCityPitch / 2, kEyeHeight, kStreetZ);
    p.yaw = kPi / 2;  // down -X
    return p;
}

std::vector<CameraPreset> cameraPresets(const SceneData& city) {
    std::vector<CameraPreset> presets;
    presets.push_back({"street", defaultCityCamera()});
    CameraPose avenue = defaultCityCamera();
    avenue.yaw = 0.0f;  // down -Z along the road east of block (0, 0)
    presets.push_back({"avenue", avenue});
    CameraPose court;
    court.position = glm::vec3(0.0f, kEyeHeight, 14.0f);
    presets.push_back({"courtyard", court});
    presets.push_back(
        {"rooftop", lookAtPose(glm::vec3(kCityPitch / 2, 45.0f, kStreetZ), glm::vec3(-200.0f, 0.0f, -200.0f))});
    presets.push_back({"overview", overview(city)});
    return presets;
}

std::vector<std::string> cameraPathNames() {
    return {"street", "flyover", "descend"};
}

std::optional<CameraPose> cameraPath(const SceneData& city, std::string_view name, float t) {
    if (!std::isfinite(t)) t = 0.0f;
    float e = halfExtent(city);
    if (name == "street") {
        float u = wrap01(t);
        float length = std::max(kCityPitch, e - kCityPitch / 2);
        CameraPose p = defaultCityCamera();
        p.position.x = length * (1.0f - 2.0f * u);
        p.yaw += 0.15f * std::sin(kTau * 3.0f * u);  // look around a little
        return p;
    }
    if (name == "flyover") {
        float a = kTau * wrap01(t);
        float radius = 0.6f * e + 60.0f, height = std::max(60.0f, 0.3f * e);
        return lookAtPose(glm::vec3(radius * std::sin(a), height, radius * std::cos(a)), glm::vec3(0.0f));
    }
    if (name == "descend") {
        float u = std::clamp(t, 0.0f, 1.0f);
        u = u * u * (3.0f - 2.0f * u);
        CameraPose from = overview(city), to = defaultCityCamera();
        CameraPose p;
        p.position = glm::mix(from.position, to.position, u);
        p.yaw = from.yaw + (to.yaw - from.yaw) * u;
        p.pitch = from.pitch + (to.pitch - from.pitch) * u;
        return p;
    }
    return std::nullopt;
}

}  // namespace sieve::assets
