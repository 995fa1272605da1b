#include "scene_setup.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <tuple>

#include "assets/gltf_loader.h"
#include "assets/procedural_city.h"
#include "assets/procedural_dense.h"
#include "assets/replicate.h"
#include "assets/scene_bounds.h"

namespace viewer {

namespace {
constexpr uintmax_t kProgressBytes = uintmax_t(4) << 20;

void progress(std::string_view stage, float fraction) {
    static std::string last;
    static int lastPercent = -1;
    const int percent = int(fraction * 100.0f);
    if (stage != last || percent / 10 != lastPercent / 10 || (percent == 100 && lastPercent != 100)) {
        std::printf("  %.*s: %d%%\n", int(stage.size()), stage.data(), percent);
        std::fflush(stdout);
    }
    last = std::string(stage);
    lastPercent = percent;
}
}  // namespace

sieve::assets::Expected<LoadedScene> loadScene(const ViewerOptions& o) {
    const auto start = std::chrono::steady_clock::now();
    LoadedScene out;
    if (o.scene == "dense") {
        std::printf("building the dense scene: %u instances, seed %llu\n", o.instances, (unsigned long long)o.seed);
        // LOD chains only when LOD selection is on (they take a while on meshes this large).
        auto dense = sieve::assets::makeDenseScene(o.instances, uint32_t(o.seed),
                                                   o.culling.lod ? sieve::gpu::SIEVE_MAX_LODS : 1u, progress);
        if (!dense) return sieve::assets::Unexpected{dense.error()};
        out.data = std::move(dense).value();
        out.start = sieve::assets::defaultDenseCamera(out.data);
    } else if (o.scene.empty()) {
        std::printf("building the procedural city: %u instances, seed %llu\n", o.instances, (unsigned long long)o.seed);
        auto city = sieve::assets::makeCity(o.instances, uint32_t(o.seed), progress);
        if (!city) return sieve::assets::Unexpected{city.error()};
        out.data = std::move(city).value();
        out.start = sieve::assets::defaultCityCamera();
    } else {
        std::error_code ec;
        const uintmax_t bytes = std::filesystem::file_size(o.scene, ec);
        // Progress for files that take a while (the LOD chains of their meshes): over a few MB.
        const bool large = !ec && bytes > kProgressBytes;
        if (large)
            std::printf("loading %s (%.1f MB)\n", o.scene.c_str(), double(bytes) / 1e6);
        else
            std::printf("loading %s\n", o.scene.c_str());
        std::fflush(stdout);
        auto scene = sieve::assets::loadGltf(
            o.scene, large ? sieve::assets::LoadProgressFn(progress) : sieve::assets::LoadProgressFn());
        if (!scene) return sieve::assets::Unexpected{scene.error()};
        out.data = std::move(scene).value();
        for (const std::string& w : out.data.warnings) std::printf("warning: %s\n", w.c_str());
        if (o.gridX > 1 || o.gridY > 1) {
            auto cameras = std::move(out.data.cameras);  // they look at the copy the file placed
            auto grid = sieve::assets::replicateGrid(out.data, std::max(o.gridX, 1u), std::max(o.gridY, 1u));
            if (!grid) return sieve::assets::Unexpected{grid.error()};
            out.data = std::move(grid).value();
            out.data.cameras = std::move(cameras);
        }
        out.procedural = false;  // the camera frames the bounds (camera_setup.h)
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("scene: %zu instances, %zu meshes, %zu primitives, %zu vertices, %zu indices (built in %.2f s)\n",
                out.data.instances.size(), out.data.meshes.size(), out.data.primitives.size(), out.data.vertices.size(),
                out.data.indices.size(), seconds);
    std::tie(out.boundsMin, out.boundsMax) = sieve::assets::geometryBounds(out.data);
    const glm::vec3 mn = out.boundsMin, mx = out.boundsMax, size = mx - mn;
    if (size.x >= 0.0f)
        std::printf("bounds: min (%.4g, %.4g, %.4g), max (%.4g, %.4g, %.4g), size %.4g x %.4g x %.4g\n", mn.x, mn.y,
                    mn.z, mx.x, mx.y, mx.z, size.x, size.y, size.z);
    return out;
}

}  // namespace viewer
