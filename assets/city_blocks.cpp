#include "assets/city_blocks.h"

#include <cmath>
#include <numbers>

#include "assets/city_meshes.h"
#include "assets/glm_interop.h"

namespace sieve::assets {
namespace {

constexpr float kHalfPi = std::numbers::pi_v<float> / 2;
constexpr float kPi = std::numbers::pi_v<float>;
constexpr float kWalkTop = 0.15f;  // sidewalk slab height (ground tile)

// One side of a block: an axis along the side and the outward direction (towards the road). Local
// coordinates (along, out) map to block coordinates; `yawOut` turns a mesh's -Z towards the road.
struct Side {
    glm::vec2 along, out;
    float yawOut;
    glm::vec3 at(float a, float o, float y = 0.0f) const {
        glm::vec2 p = along * a + out * o;
        return {p.x, y, p.y};
    }
};
// North (-Z), south (+Z), west (-X), east (+X).
const Side kSides[4] = {
    {{1, 0}, {0, -1}, 0.0f}, {{1, 0}, {0, 1}, kPi}, {{0, 1}, {-1, 0}, kHalfPi}, {{0, 1}, {1, 0}, -kHalfPi}};

void building(InstanceEmitter& out, CityRng& rng, glm::vec3 centre, float yaw, float length, float depth) {
    // One rng call per statement: the evaluation order of operands and arguments is unspecified.
    float u0 = rng.uniform();
    float u1 = rng.uniform();
    float h = 8.0f + 30.0f * u0 * u1;
    if (rng.chance(0.08f)) h = rng.range(50.0f, 90.0f);
    float kind = rng.uniform();
    if (rng.chance(0.05f)) {
        float d = std::min(length, depth);
        out.emit(kMeshTower, centre, yaw, {d, h * 1.3f, d});
        return;
    }
    uint32_t mesh = kind < 0.45f ? kMeshOffice : (kind < 0.8f || h > 20.0f ? kMeshPlainBuilding : kMeshBrickHouse);
    if (mesh == kMeshBrickHouse) h = rng.range(8.0f, 14.0f);
    out.emit(mesh, centre, yaw, {length, h, depth});
    if (mesh != kMeshBrickHouse && h > 20.0f && rng.chance(0.35f)) {
        float shrink = rng.range(0.6f, 0.8f);
        out.emit(mesh, centre + glm::vec3(0, h, 0), yaw, {length * shrink, rng.range(6.0f, 20.0f), depth * shrink});
    }
}

// The closed ring of buildings of depth `depth` along the block edge. North/south strips span the
// full width; west/east strips fill between them.
void buildingRing(InstanceEmitter& out, CityRng& rng, float depth) {
    const float b = kCityBlockHalf;
    for (int s = 0; s < 4 && !out.full(); ++s) {
        const Side& side = kSides[s];
        float a0 = s < 2 ? -b : -b + depth, a1 = s < 2 ? b : b - depth;
        float mid = b - depth * 0.5f;
        float yaw = s < 2 ? 0.0f : kHalfPi;  // the mesh's X axis along the side
        for (float a = a0; a < a1 - 1.0f && !out.full();) {
            float len = rng.range(12.0f, 26.0f);
            if (a1 - (a + len) < 8.0f) len = a1 - a;
            if (!rng.chance(0.06f))  // the odd alley opens the courtyard to the street
                building(out, rng, side.at(a + len * 0.5f, mid), yaw, len, depth);
            a += len;
        }
    }
}

void sidewalk(InstanceEmitter& out, CityRng& rng) {
    for (int s = 0; s < 4 && !out.full(); ++s) {
        const Side& side = kSides[s];
        for (int k = 0; k <= 12 && !out.full(); ++k) {
            float a = -30.0f + 5.0f * float(k);
            if (k % 3 == 0) {
                out.emit(kMeshLampPost, side.at(a, 34.4f, kWalkTop), side.yawOut, glm::vec3(1.0f));
                continue;
            }
            float r = rng.uniform();
            float jitter = rng.range(-1.0f, 1.0f);
            if (r < 0.35f) {
                float yaw = rng.range(0.0f, 2 * kPi);
                out.emit(kMeshTree, side.at(a + jitter, 33.8f, kWalkTop), yaw, glm::vec3(rng.range(0.8f, 1.2f)));
            } else if (r < 0.50f)
                out.emit(kMeshBench, side.at(a + jitter, 32.8f, kWalkTop), side.yawOut, glm::vec3(1.0f));
            else if (r < 0.60f)
                out.emit(kMeshPlanter, side.at(a + jitter, 33.2f, kWalkTop), 0.0f, glm::vec3(1.0f));
            else if (r < 0.68f) {
                out.emit(kMeshBollard, side.at(a - 0.8f, 34.6f, kWalkTop), 0.0f, glm::vec3(1.0f));
                out.emit(kMeshBollard, side.at(a + 0.8f, 34.6f, kWalkTop), 0.0f, glm::vec3(1.0f));
            } else if (r < 0.73f)
                out.emit(kMeshHydrant, side.at(a + jitter, 34.5f, kWalkTop), rng.range(0.0f, 2 * kPi), glm::vec3(1.0f));
            else if (r < 0.76f)
                out.emit(kMeshKiosk, side.at(a + jitter, 33.2f, kWalkTop), side.yawOut, glm::vec3(1.0f));
        }
    }
}

// Cars on the roads east (s = 3) and south (s = 1) of the block: parking lanes at the curbs, two
// driving lanes that leave the road's centre line (40 m) free for the street camera.
void roads(InstanceEmitter& out, CityRng& rng) {
    const int sides[2] = {3, 1};
    struct Lane {
        float offset, probability;
        bool towardsAlong;
    };
    const Lane lanes[4] = {{36.2f, 0.55f, true}, {38.4f, 0.15f, true}, {41.6f, 0.15f, false}, {43.8f, 0.55f, false}};
    for (int s : sides) {
        const Side& side = kSides[s];
        // A mesh yaw that points the vehicle's -Z along +along.
        float yawAlong = s == 3 ? kPi : -kHalfPi;
        for (const Lane& lane : lanes)
            for (int k = 0; k <= 10 && !out.full(); ++k) {
                if (!rng.chance(lane.probability)) continue;
                float a = -30.0f + 6.0f * float(k) + rng.range(-0.6f, 0.6f);
                uint32_t mesh = rng.chance(0.8f) ? kMeshCar : kMeshVan;
                out.emit(mesh, side.at(a, lane.offset), yawAlong + (lane.towardsAlong ? 0.0f : kPi), glm::vec3(1.0f));
            }
    }
}

void courtyard(InstanceEmitter& out, CityRng& rng, float depth) {
    float inner = kCityBlockHalf - depth - 1.0f;
    bool fountain = rng.chance(0.5f);
    if (fountain) out.emit(kMeshFountain, glm::vec3(0.0f, 0.2f, 0.0f), 0.0f, glm::vec3(1.0f));
    const float cell = 4.0f;
    int n = int(2.0f * inner / cell);
    for (int j = 0; j < n && !out.full(); ++j)
        for (int i = 0; i < n && !out.full(); ++i) {
            float jx = rng.range(0.25f, 0.75f);
            float jz = rng.range(0.25f, 0.75f);
            glm::vec3 p(-inner + cell * (float(i) + jx), 0.2f, -inner + cell * (float(j) + jz));
            if (fountain && glm::length(glm::vec2(p.x, p.z)) < 5.0f) continue;
            float yaw = rng.range(0.0f, 2 * kPi);
            float r = rng.uniform();
            if (r < 0.25f)
                out.emit(kMeshTree, p, yaw, glm::vec3(rng.range(0.7f, 1.3f)));
            else if (r < 0.35f)
                out.emit(kMeshConifer, p, yaw, glm::vec3(rng.range(0.8f, 1.4f)));
            else if (r < 0.47f)
                out.emit(kMeshBench, p, yaw, glm::vec3(1.0f));
            else if (r < 0.62f) {
                float size = rng.range(0.6f, 1.2f);
                out.emit(kMeshCrate, p, yaw, glm::vec3(size));
                if (rng.chance(0.3f))
                    out.emit(kMeshCrate, p + glm::vec3(0, size, 0), yaw + 0.3f, glm::vec3(size * 0.8f));
            } else if (r < 0.70f)
                out.emit(kMeshBarrel, p, yaw, glm::vec3(1.0f));
            else if (r < 0.78f)
                out.emit(kMeshPlanter, p, yaw, glm::vec3(1.0f));
            else if (r < 0.83f)
                out.emit(kMeshCar, p, yaw, glm::vec3(1.0f));
        }
}

}  // namespace

void InstanceEmitter::emit(uint32_t mesh, glm::vec3 local, float yaw, glm::vec3 scale) {
    if (full()) return;
    glm::vec3 position = origin_ + local;
    const gpu::Mesh& m = scene_.meshes[mesh];
    float c = std::cos(yaw), s = std::sin(yaw);
    PlacedInstance placed{};
    gpu::Instance& inst = placed.instance;
    // rotateY(yaw) * scale: x' = c x + s z, z' = -s x + c z.
    inst.rows[0] = glm::vec4(c * scale.x, 0.0f, s * scale.z, position.x);
    inst.rows[1] = glm::vec4(0.0f, scale.y, 0.0f, position.y);
    inst.rows[2] = glm::vec4(-s * scale.x, 0.0f, c * scale.z, position.z);
    glm::vec4 oc(toGlm3(m.sphere), 1.0f);
    float maxScale = std::max(scale.x, std::max(scale.y, scale.z));
    placed.bounds.sphere = glm::vec4(glm::dot(toGlm(inst.rows[0]), oc), glm::dot(toGlm(inst.rows[1]), oc),
                                     glm::dot(toGlm(inst.rows[2]), oc), m.sphere.w * maxScale * (1.0f + 1e-6f));
    inst.mesh = mesh;
    inst.scale = maxScale;
    inst.flags = gpu::SIEVE_INSTANCE_DEFAULT_FLAGS;  // as assets::makeInstance: casts and receives shadows
    scene_.addInstance(placed);
}

uint32_t blockSeed(uint32_t seed, int32_t i, int32_t j) {
    uint64_t x = (uint64_t(seed) << 32) ^ (uint64_t(uint32_t(i)) << 16) ^ uint64_t(uint32_t(j)) ^
                 (uint64_t(uint32_t(i)) * 0x9E3779B97F4A7C15ull);
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return uint32_t(x ^ (x >> 31));
}

void generateBlock(InstanceEmitter& out, int32_t i, int32_t j, uint32_t seed) {
    CityRng rng(blockSeed(seed, i, j));
    out.setOrigin(glm::vec3(float(i) * kCityPitch, 0.0f, float(j) * kCityPitch));
    float depth = rng.range(10.0f, 15.0f);
    out.emit(kMeshGroundTile, glm::vec3(0.0f), 0.0f, glm::vec3(1.0f));
    buildingRing(out, rng, depth);
    sidewalk(out, rng);
    roads(out, rng);
    courtyard(out, rng, depth);
}

}  // namespace sieve::assets
