#pragma once
// Internal to procedural_city.cpp: fills one city block with instances. Split out to keep files small.
#include <cstdint>
#include <random>

#include "assets/scene.h"

namespace sieve::assets {

// Appends instances to scene.instances until `limit` is reached. Only integer-exact generators of the
// standard library are used (std::mt19937); float conversions are our own, so the sequence does not
// depend on the standard library's distribution implementations.
class InstanceEmitter {
public:
    InstanceEmitter(SceneData& scene, uint64_t limit) : scene_(scene), limit_(limit) {}
    bool full() const { return scene_.instances.size() >= limit_; }
    // Positions passed to emit() are relative to this point (the current block's centre).
    void setOrigin(glm::vec3 origin) { origin_ = origin; }
    // Object-to-world = translate(origin + local) * rotateY(yaw) * scale(scale).
    void emit(uint32_t mesh, glm::vec3 local, float yaw, glm::vec3 scale);

private:
    SceneData& scene_;
    uint64_t limit_;
    glm::vec3 origin_{0.0f};
};

class CityRng {
public:
    explicit CityRng(uint32_t seed) : engine_(seed) {}
    float uniform() { return float(engine_() >> 8) * (1.0f / 16777216.0f); }  // [0, 1)
    float range(float lo, float hi) { return lo + (hi - lo) * uniform(); }
    bool chance(float p) { return uniform() < p; }

private:
    std::mt19937 engine_;
};

// Seed of block (i, j) for a city seed (splitmix64 of both).
uint32_t blockSeed(uint32_t seed, int32_t i, int32_t j);

// Generates block (i, j); stops early when the emitter is full.
void generateBlock(InstanceEmitter& out, int32_t i, int32_t j, uint32_t seed);

}  // namespace sieve::assets
