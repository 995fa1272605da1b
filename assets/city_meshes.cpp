#include "assets/city_meshes.h"

#include <functional>
#include <glm/gtc/matrix_transform.hpp>
#include <numbers>

#include "assets/materials.h"
#include "assets/shapes.h"

namespace sieve::assets {
namespace {

using glm::vec3;
const glm::mat4 kId(1.0f);

glm::mat4 at(vec3 p) {
    return glm::translate(kId, p);
}
// Cylinder axis along X (wheels), centred at p.
glm::mat4 axleX(vec3 p, float halfWidth) {
    return glm::rotate(glm::translate(kId, p + vec3(-halfWidth, 0, 0)), -std::numbers::pi_v<float> / 2, vec3(0, 0, 1));
}

struct Part {
    Geometry geometry;
    uint32_t material;
};

using PartFn = std::function<void(std::vector<Part>&)>;

Geometry unitBoxWalls() {
    Geometry g;
    appendBox(g, vec3(-0.5f, 0, -0.5f), vec3(0.5f, 1, 0.5f), false);
    // The roof is its own primitive: drop the top face (faces are emitted +X,-X,+Y,...; +Y is third).
    Geometry walls;
    for (size_t t = 0; t < g.indices.size(); t += 3)
        if (g.normals[g.indices[t]].y < 0.5f)
            for (int k = 0; k < 3; ++k) walls.indices.push_back(g.indices[t + k]);
    walls.positions = g.positions;
    walls.normals = g.normals;
    return walls;
}

Geometry unitRoof(float y) {
    Geometry g;
    appendBox(g, vec3(-0.5f, y - 0.02f, -0.5f), vec3(0.5f, y, 0.5f), false);
    return g;
}

void groundTile(std::vector<Part>& parts) {
    float h = kCityPitch / 2, c = kCityCurb, in = kCityBlockHalf - 10.0f;
    Geometry road, walk, grass;
    // The road is a shared-vertex grid, so a tile has interior vertices the simplifier may remove.
    const uint32_t n = 8;
    for (uint32_t j = 0; j <= n; ++j)
        for (uint32_t i = 0; i <= n; ++i) {
            road.positions.push_back(vec3(-h + kCityPitch * i / n, 0.0f, -h + kCityPitch * j / n));
            road.normals.push_back(vec3(0, 1, 0));
        }
    for (uint32_t j = 0; j < n; ++j)
        for (uint32_t i = 0; i < n; ++i) {
            uint32_t a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
            // (a, c, d) is counter-clockwise seen from +Y: x grows to the right, z towards the viewer.
            road.indices.insert(road.indices.end(), {a, c, d, a, d, b});
        }
    appendBox(walk, vec3(-c, 0.0f, -c), vec3(c, 0.15f, c), false);
    appendBox(grass, vec3(-in, 0.15f, -in), vec3(in, 0.2f, in), false);
    parts.push_back({road, kAsphalt});
    parts.push_back({walk, kPavement});
    parts.push_back({grass, kGrass});
}

void office(std::vector<Part>& parts) {
    Geometry bands;
    for (int f = 0; f < 10; ++f) {
        float y = 0.06f + f * 0.094f;
        appendBox(bands, vec3(-0.505f, y, -0.505f), vec3(0.505f, y + 0.05f, 0.505f), true);
    }
    parts.push_back({unitBoxWalls(), kConcrete});
    parts.push_back({bands, kGlass});
    parts.push_back({unitRoof(1.0f), kRoof});
}

void plainBuilding(std::vector<Part>& parts) {
    parts.push_back({unitBoxWalls(), kConcrete});
    parts.push_back({unitRoof(1.0f), kRoof});
}

void brickHouse(std::vector<Part>& parts) {
    Geometry walls;
    appendBox(walls, vec3(-0.5f, 0, -0.5f), vec3(0.5f, 0.8f, 0.5f), false);
    Geometry roof;
    appendGable(roof, vec3(-0.52f, 0.8f, -0.52f), vec3(0.52f, 1.0f, 0.52f));
    parts.push_back({walls, kBrick});
    parts.push_back({roof, kRoof});
}

void tower(std::vector<Part>& parts) {
    Geometry body, spire;
    appendFrustum(body, 0.5f, 0.45f, 0.85f, 8, kId);
    appendFrustum(spire, 0.3f, 0.0f, 0.15f, 8, at(vec3(0, 0.85f, 0)));
    parts.push_back({body, kGlass});
    parts.push_back({spire, kMetal});
}

void lampPost(std::vector<Part>& parts) {
    Geometry metal, light;
    appendFrustum(metal, 0.12f, 0.07f, 5.0f, 12, kId);
    appendBox(metal, vec3(-0.04f, 4.9f, -1.0f), vec3(0.04f, 5.0f, 0.0f));
    appendSphere(light, 0.25f, 12, 8, at(vec3(0, 4.75f, -1.0f)));
    parts.push_back({metal, kMetal});
    parts.push_back({light, kLampLight});
}

void bench(std::vector<Part>& parts) {
    Geometry wood, legs;
    appendBox(wood, vec3(-0.9f, 0.42f, -0.25f), vec3(0.9f, 0.47f, 0.2f));
    appendBox(wood, vec3(-0.9f, 0.5f, 0.2f), vec3(0.9f, 0.9f, 0.25f));
    for (float x : {-0.8f, 0.75f}) appendBox(legs, vec3(x, 0, -0.22f), vec3(x + 0.05f, 0.42f, 0.22f), false);
    parts.push_back({wood, kWood});
    parts.push_back({legs, kMetal});
}

void tree(std::vector<Part>& parts) {
    Geometry trunk, crown;
    appendFrustum(trunk, 0.22f, 0.15f, 3.2f, 10, kId);
    appendSphere(crown, 2.0f, 16, 12, at(vec3(0, 4.4f, 0)));
    parts.push_back({trunk, kBark});
    parts.push_back({crown, kLeaves});
}

void conifer(std::vector<Part>& parts) {
    Geometry trunk, cones;
    appendFrustum(trunk, 0.2f, 0.12f, 1.5f, 8, kId);
    appendFrustum(cones, 1.8f, 0.0f, 3.0f, 16, at(vec3(0, 1.2f, 0)));
    appendFrustum(cones, 1.4f, 0.0f, 2.6f, 16, at(vec3(0, 2.7f, 0)));
    appendFrustum(cones, 1.0f, 0.0f, 2.2f, 16, at(vec3(0, 4.0f, 0)));
    parts.push_back({trunk, kBark});
    parts.push_back({cones, kConifer});
}

void vehicle(std::vector<Part>& parts, float length, float width, float bodyHeight, float cabinStart, float cabinEnd,
             float cabinHeight, uint32_t paint) {
    Geometry body, glass, wheels;
    float hl = length / 2, hw = width / 2;
    appendBox(body, vec3(-hw, 0.3f, -hl), vec3(hw, 0.3f + bodyHeight, hl));
    appendBox(glass, vec3(-hw + 0.08f, 0.3f + bodyHeight, cabinStart),
              vec3(hw - 0.08f, 0.3f + bodyHeight + cabinHeight, cabinEnd));
    for (float z : {-hl + 0.8f, hl - 0.8f})
        for (float side : {-1.0f, 1.0f}) {
            glm::mat4 t = axleX(vec3(side * (hw - 0.1f), 0.35f, z), 0.12f);
            appendFrustum(wheels, 0.35f, 0.35f, 0.24f, 16, t);
        }
    parts.push_back({body, paint});
    parts.push_back({glass, kGlass});
    parts.push_back({wheels, kTyre});
}

void car(std::vector<Part>& parts) {
    vehicle(parts, 4.2f, 1.8f, 0.7f, -1.0f, 1.0f, 0.55f, kPaintRed);
}
void van(std::vector<Part>& parts) {
    vehicle(parts, 5.2f, 2.0f, 1.6f, -2.5f, -1.6f, 0.3f, kPaintBlue);
}

void crate(std::vector<Part>& parts) {
    Geometry g;
    appendBox(g, vec3(-0.5f, 0, -0.5f), vec3(0.5f, 1, 0.5f), false);
    parts.push_back({g, kCrate});
}

void barrel(std::vector<Part>& parts) {
    Geometry g;
    appendFrustum(g, 0.3f, 0.3f, 0.9f, 16, kId);
    for (float y : {0.2f, 0.7f}) appendTorus(g, 0.3f, 0.025f, 16, 4, at(vec3(0, y, 0)));
    parts.push_back({g, kMetal});
}

void hydrant(std::vector<Part>& parts) {
    Geometry g;
    appendFrustum(g, 0.15f, 0.13f, 0.6f, 12, kId);
    appendSphere(g, 0.14f, 12, 6, at(vec3(0, 0.6f, 0)));
    appendFrustum(g, 0.05f, 0.05f, 0.4f, 8, axleX(vec3(0, 0.45f, 0), 0.2f));
    parts.push_back({g, kPaintRed});
}

void bollard(std::vector<Part>& parts) {
    Geometry g;
    appendFrustum(g, 0.1f, 0.1f, 0.8f, 12, kId);
    appendSphere(g, 0.1f, 12, 6, at(vec3(0, 0.8f, 0)));
    parts.push_back({g, kMetal});
}

void fountain(std::vector<Part>& parts) {
    Geometry stone, water;
    appendTorus(stone, 3.0f, 0.35f, 32, 8, at(vec3(0, 0.35f, 0)));
    appendFrustum(stone, 0.4f, 0.25f, 2.0f, 16, kId);
    appendFrustum(stone, 0.9f, 0.0f, 0.3f, 16, at(vec3(0, 2.0f, 0)));
    appendFrustum(water, 3.0f, 3.0f, 0.5f, 32, kId);
    parts.push_back({stone, kConcrete});
    parts.push_back({water, kWater});
}

void planter(std::vector<Part>& parts) {
    Geometry box, bush;
    appendBox(box, vec3(-0.6f, 0, -0.6f), vec3(0.6f, 0.5f, 0.6f), false);
    appendSphere(bush, 0.7f, 10, 8, at(vec3(0, 0.9f, 0)));
    parts.push_back({box, kConcrete});
    parts.push_back({bush, kLeaves});
}

void kiosk(std::vector<Part>& parts) {
    Geometry booth, roof;
    appendBox(booth, vec3(-1.2f, 0, -1.0f), vec3(1.2f, 2.4f, 1.0f), false);
    appendFrustum(roof, 1.8f, 0.0f, 1.0f, 8, at(vec3(0, 2.4f, 0)));
    parts.push_back({booth, kWood});
    parts.push_back({roof, kPaintBlue});
}

struct MeshRecipe {
    const char* name;
    void (*build)(std::vector<Part>&);
};

const MeshRecipe kRecipes[kCityMeshCount] = {
    {"ground_tile", groundTile},
    {"office", office},
    {"plain_building", plainBuilding},
    {"brick_house", brickHouse},
    {"tower", tower},
    {"lamp_post", lampPost},
    {"bench", bench},
    {"tree", tree},
    {"conifer", conifer},
    {"car", car},
    {"van", van},
    {"crate", crate},
    {"barrel", barrel},
    {"hydrant", hydrant},
    {"bollard", bollard},
    {"fountain", fountain},
    {"planter", planter},
    {"kiosk", kiosk},
};

// The meshes are the same every time; building them (simplification and LOD error measurement) takes a
// noticeable fraction of a second, so it happens once per process.
Expected<SceneData> buildCityMeshes() {
    SceneData scene;
    for (const MeshRecipe& recipe : kRecipes) {
        std::vector<Part> parts;
        recipe.build(parts);
        MeshBuilder builder;
        for (const Part& part : parts) {
            auto added = builder.addPrimitive(part.geometry.input(part.material));
            if (!added) return Unexpected{std::string("city mesh '") + recipe.name + "': " + added.error()};
        }
        auto mesh = builder.finish(scene, recipe.name);
        if (!mesh) return Unexpected{mesh.error()};
    }
    return scene;
}

}  // namespace

Expected<uint32_t> appendCityMeshes(SceneData& scene) {
    if (!scene.meshes.empty()) return Unexpected{"appendCityMeshes: the scene already has meshes"};
    static const Expected<SceneData> built = buildCityMeshes();
    if (!built) return Unexpected{built.error()};
    // The scene has no meshes, but may have vertices or indices already: offset the copied ranges.
    const SceneData& m = *built;
    int32_t vertexBase = static_cast<int32_t>(scene.vertices.size());
    uint32_t indexBase = static_cast<uint32_t>(scene.indices.size());
    uint32_t primitiveBase = static_cast<uint32_t>(scene.primitives.size());
    scene.vertices.insert(scene.vertices.end(), m.vertices.begin(), m.vertices.end());
    scene.indices.insert(scene.indices.end(), m.indices.begin(), m.indices.end());
    for (gpu::MeshPrimitive prim : m.primitives) {
        prim.vertexOffset += vertexBase;
        for (uint32_t l = 0; l < prim.lodCount; ++l) prim.lods[l].firstIndex += indexBase;
        scene.primitives.push_back(prim);
    }
    for (gpu::Mesh mesh : m.meshes) {
        mesh.firstPrimitive += primitiveBase;
        scene.meshes.push_back(mesh);
    }
    scene.meshNames.insert(scene.meshNames.end(), m.meshNames.begin(), m.meshNames.end());
    return static_cast<uint32_t>(scene.meshes.size());
}

}  // namespace sieve::assets
