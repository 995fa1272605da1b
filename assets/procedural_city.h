#pragma once
// The default scene: a procedural city, deterministic for a given (instances, seed) on a given build.
//
// Layout: square blocks on a kCityPitch (80 m) grid (city_meshes.h), added ring by ring around block
// (0, 0) until exactly `instances` instances exist, so density stays constant and the city's area grows
// with the count (about 160 instances per block: 1M instances is ~80 x 80 blocks, ~6.5 km wide).
// Each block: a ground tile, a closed ring of buildings (offices, plain blocks with set-backs, brick
// houses, the odd tower, occasional alleys) around a courtyard full of small props (trees, benches,
// crates, barrels, planters, a fountain), sidewalk props (lamp posts, trees, benches, hydrants,
// bollards, kiosks) and parked/driving cars on the roads east and south of the block. At street level
// the buildings hide most of the city, so occlusion culling matters.
// Instances are written straight into the instance and bounds tables (64 + 16 bytes each, no intermediate storage):
// 10M instances take ~0.8 GB.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "assets/camera.h"
#include "assets/expected.h"
#include "assets/scene.h"

namespace sieve::assets {

// Called with a stage name ("meshes", "instances", "bounds") and the stage's progress in [0, 1].
using ProgressFn = std::function<void(std::string_view stage, float fraction)>;

inline constexpr uint64_t kMaxCityInstances = 0xffffffffull;  // instance ids are 32-bit on the GPU

// Builds the city with exactly `instances` instances (0 gives the meshes only). Same (instances, seed)
// -> identical bytes; the first instances of a bigger city equal a smaller city of the same seed.
// Errors: too many instances, out of memory.
Expected<SceneData> makeCity(uint64_t instances, uint32_t seed, const ProgressFn& progress = {});

// Street level at the crossing of the roads east and south of block (0, 0), looking down -X along
// the street: buildings on both sides, props behind them.
CameraPose defaultCityCamera();

// Named viewpoints; the first one is defaultCityCamera(). "overview" depends on the city's bounds.
// Names: street, avenue, courtyard, rooftop, overview.
std::vector<CameraPreset> cameraPresets(const SceneData& city);

// Names accepted by cameraPath: "street" (walk along the street z = 40 from east to west), "flyover"
// (circle around the city centre, looking at it), "descend" (from the overview down to the street).
std::vector<std::string> cameraPathNames();

// Scripted camera for repeatable runs: t in [0, 1] is the position along the path (wrapped for
// "street" and "flyover"). Returns nothing for an unknown name.
std::optional<CameraPose> cameraPath(const SceneData& city, std::string_view name, float t);

}  // namespace sieve::assets
