#include "assets/niagara_field.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <new>
#include <string>

namespace sieve::assets {

uint32_t Pcg32::rand32() {
    const uint64_t old = state;
    state = old * 6364136223846793005ull + (inc | 1);
    const uint32_t xorshifted = uint32_t(((old >> 18u) ^ old) >> 27u);
    const uint32_t rot = uint32_t(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

NiagaraDraw nextNiagaraDraw(Pcg32& rng, uint32_t meshCount) {
    constexpr float kSceneRadius = 300.0f;
    NiagaraDraw d;
    d.meshIndex = rng.rand32() % std::max(meshCount, 1u);
    // One statement per output, so that the stream is consumed in the documented order.
    for (int c = 0; c < 3; ++c) d.position[c] = float(rng.rand01()) * kSceneRadius * 2 - kSceneRadius;
    d.scale = float(rng.rand01()) + 1;
    d.scale *= 2;
    glm::vec3 a;
    for (int c = 0; c < 3; ++c) a[c] = float(rng.rand01()) * 2 - 1;
    d.axis = glm::normalize(a);
    d.angle = glm::radians(float(rng.rand01()) * 90.0f);
    d.orientation = glm::quat(std::cos(d.angle * 0.5f), d.axis * std::sin(d.angle * 0.5f));
    return d;
}

glm::mat4 niagaraTransform(const NiagaraDraw& draw) {
    return glm::translate(glm::mat4(1.0f), draw.position) * glm::mat4_cast(draw.orientation) *
           glm::scale(glm::mat4(1.0f), glm::vec3(draw.scale));
}

Expected<SceneData> makeNiagaraField(SceneData scene, uint64_t draws) {
    if (scene.meshes.empty()) return Unexpected{"makeNiagaraField: the scene has no meshes to place"};
    if (draws > kMaxCityInstances)
        return Unexpected{"makeNiagaraField: " + std::to_string(draws) + " draws exceed the limit of " +
                          std::to_string(kMaxCityInstances)};
    try {
        scene.instances.clear();
        scene.instances.shrink_to_fit();
        scene.instances.reserve(draws);
        scene.bounds.clear();
        scene.bounds.shrink_to_fit();
        scene.bounds.reserve(draws);
        const uint32_t meshCount = uint32_t(scene.meshes.size());
        Pcg32 rng;
        for (uint64_t i = 0; i < draws; ++i) {
            const NiagaraDraw d = nextNiagaraDraw(rng, meshCount);
            scene.addInstance(makeInstance(niagaraTransform(d), d.meshIndex, scene.meshes[d.meshIndex]));
        }
        scene.updateBounds();
        return scene;
    } catch (const std::bad_alloc&) {  // the one allocation: reserve (draws <= 2^32 - 1 fit a vector's size)
        return Unexpected{"makeNiagaraField: out of memory for " + std::to_string(draws) + " instances"};
    }
}

}  // namespace sieve::assets
