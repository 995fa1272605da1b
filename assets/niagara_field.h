#pragma once
// niagara's benchmark scene (zeux/niagara, src/niagara.cpp at 95f289b; the shared bench folder's
// README describes it): N draws of the loaded meshes scattered through a 600 m cube around the origin,
// each placed from one PCG32 stream, the camera at the origin. Placing them here exactly as niagara does
// lets Sieve's culling be measured on the same instances niagara culls.
#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "assets/expected.h"
#include "assets/procedural_city.h"
#include "assets/scene.h"

namespace sieve::assets {

// O'Neill's pcg32_random_r (XSH RR output, 64-bit LCG with multiplier 6364136223846793005), started as
// niagara starts it: state 0x42, increment 0xda3e39cb94b95bdb (no pcg32_srandom_r seeding step).
struct Pcg32 {
    uint64_t state = 0x42;
    uint64_t inc = 0xda3e39cb94b95bdbull;

    uint32_t rand32();
    double rand01() { return rand32() / double(1ull << 32); }  // in [0, 1), exact
};

// One of niagara's draws: its mesh and its transform (vertex -> rotate(vertex * scale) + position).
struct NiagaraDraw {
    uint32_t meshIndex = 0;
    glm::vec3 position{0.0f};
    float scale = 1.0f;
    glm::vec3 axis{0.0f, 0.0f, 1.0f};  // unit rotation axis
    float angle = 0.0f;                // radians, in [0, pi/2)
    glm::quat orientation{1.0f, 0.0f, 0.0f, 0.0f};
};

// The next draw from the stream, with niagara's calls in niagara's order and its float conversions:
// meshIndex = rand32() % meshCount (one call even with one mesh; a meshCount of 0 counts as 1); position x, y, z =
// float(rand01()) * 300 * 2 - 300; scale = (float(rand01()) + 1) * 2; axis = normalize(float(rand01()) * 2 - 1
// for x, y, z); angle = radians(float(rand01()) * 90); orientation (cos(angle / 2), axis * sin(angle / 2)).
// Nine outputs per draw. The axis components are drawn x, y, z as the shared README documents (niagara's
// source passes them as the three arguments of one vec3 constructor, whose evaluation order C++ leaves to
// the compiler; it only matters to a mesh whose bounding sphere is not centred at its origin).
NiagaraDraw nextNiagaraDraw(Pcg32& rng, uint32_t meshCount);

// The draw's object-to-world transform: translate(position) * rotate(orientation) * scale(scale).
glm::mat4 niagaraTransform(const NiagaraDraw& draw);

// niagara's camera: at the origin with the identity orientation (looking down -Z, +Y up), vertical field
// of view 70 degrees, near plane 0.1, infinite reverse-Z projection, 1920x1080. niagara culls draws
// whose sphere lies wholly beyond kNiagaraDrawDistance along the view axis (its far plane, view-space z).
inline constexpr float kNiagaraFovYDegrees = 70.0f;
inline constexpr float kNiagaraNear = 0.1f;
inline constexpr float kNiagaraDrawDistance = 200.0f;
inline constexpr uint32_t kNiagaraWidth = 1920, kNiagaraHeight = 1080;

// The scene of `meshes` (its meshes, primitives, vertices, indices and materials; its instances are
// dropped) with `draws` instances placed by nextNiagaraDraw over the meshes, in stream order: instance i
// is draw i. The first k instances of a field equal a field of k draws. Errors: a scene without meshes,
// more than kMaxCityInstances draws, out of memory.
Expected<SceneData> makeNiagaraField(SceneData meshes, uint64_t draws);

}  // namespace sieve::assets
