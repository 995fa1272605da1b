#pragma once
// Up-front memory check of a scene before anything is uploaded: what the scene tables and the culling
// plugin's per-instance buffers need against the device memory that is left, so that a scene too large
// for the device fails with a message saying how many instances fit instead of an allocation failure
// halfway through.
#include <cstdint>
#include <string>

#include "assets/scene.h"

namespace engine {

class Context;

struct SceneFootprint {
    uint64_t instances = 0;
    uint64_t fixedBytes = 0;        // vertices, UVs, indices, primitive, mesh and material tables, textures
    uint64_t perInstanceBytes = 0;  // instance record, culling buffers, both draw lists' records
    uint64_t totalBytes() const { return fixedBytes + instances * perInstanceBytes; }
};

// Device bytes the scene and the culling buffers sized for it need (an estimate that ignores alignment
// and the scan's scratch, both small next to the tables).
SceneFootprint sceneFootprint(const sieve::assets::SceneData& scene);

// Empty when the scene fits in `deviceBytes`; otherwise
// "N instances need X MiB, the device has Y MiB: at most M fit".
std::string checkSceneFits(const SceneFootprint& footprint, uint64_t deviceBytes);

struct DeviceMemory {
    uint64_t bytes = 0;       // device-local memory still free for the scene
    const char* source = "";  // how it was found: "VK_EXT_memory_budget", "heap size", "test override"
};

// With VK_EXT_memory_budget: the largest device-local heap's budget minus its usage; otherwise that
// heap's size minus what the context's allocator already holds.
DeviceMemory deviceMemoryAvailable(Context& ctx);

// Test hook: pretend the device has `bytes` free (0 restores the real query).
void overrideDeviceMemoryBytes(uint64_t bytes);

}  // namespace engine
