#pragma once
// The shared meshes of the procedural city (procedural_city.h). Object space: metres, base on y = 0,
// centred on the Y axis; vehicles face -Z. Boxy meshes (buildings, crates) are unit-sized and take a
// non-uniform scale per instance; round ones are placed with uniform scale.
#include <cstdint>

#include "assets/expected.h"
#include "assets/scene.h"

namespace sieve::assets {

// Street grid: block pitch, building line, curb. Block (i, j) is centred on (i * kPitch, 0, j * kPitch).
inline constexpr float kCityPitch = 80.0f;
inline constexpr float kCityBlockHalf = 32.0f;  // buildings stand inside [-32, 32]^2
inline constexpr float kCityCurb = 35.0f;       // sidewalks to +-35, road from 35 to 45

enum CityMesh : uint32_t {
    kMeshGroundTile,     // road + sidewalk + courtyard grass for one block pitch (3 primitives)
    kMeshOffice,         // unit box: walls, window bands, roof (3 primitives)
    kMeshPlainBuilding,  // unit box: walls, roof (2)
    kMeshBrickHouse,     // unit box + gable roof (2)
    kMeshTower,          // octagonal prism + spire (2)
    kMeshLampPost,       // pole + arm, lamp (2)
    kMeshBench,          // seat + back, legs (2)
    kMeshTree,           // trunk, round crown (2)
    kMeshConifer,        // trunk, stacked cones (2)
    kMeshCar,            // body, cabin glass, wheels (3)
    kMeshVan,            // body, windows, wheels (3)
    kMeshCrate,          // unit box (1)
    kMeshBarrel,         // cylinder with rims (1)
    kMeshHydrant,        // (1)
    kMeshBollard,        // (1)
    kMeshFountain,       // basin rim + column, water (2)
    kMeshPlanter,        // box planter, bush (2)
    kMeshKiosk,          // booth, roof (2)
    kCityMeshCount
};

// Appends every CityMesh, in enum order, to `scene` (which must have no meshes yet).
Expected<uint32_t> appendCityMeshes(SceneData& scene);

}  // namespace sieve::assets
