#include "assets/lod_chain.h"

#include <meshoptimizer.h>

#include <algorithm>
#include <bit>
#include <unordered_map>

#include "assets/surface_distance.h"

namespace sieve::assets {
namespace {

// A LOD may stray this many times the largest target error from LOD 0 (the measured bound includes the
// sampling slack and the simplifier's quadric error underestimates the largest distance).
constexpr float kErrorLimitFactor = 2.0f;

struct PositionKey {
    uint32_t x, y, z;
    bool operator==(const PositionKey&) const = default;
};
struct PositionKeyHash {
    size_t operator()(const PositionKey& k) const {
        return (size_t(k.x) * 73856093u) ^ (size_t(k.y) * 19349663u) ^ (size_t(k.z) * 83492791u);
    }
};

// Adding +0 turns -0 into +0, so that the bit patterns of equal coordinates are equal.
PositionKey keyOf(glm::vec3 p) {
    return {std::bit_cast<uint32_t>(p.x + 0.0f), std::bit_cast<uint32_t>(p.y + 0.0f),
            std::bit_cast<uint32_t>(p.z + 0.0f)};
}

// The largest distance of the two surfaces from each other (a certified upper bound).
float hausdorffBound(TriangleSurface a, const SurfaceGrid& gridA, TriangleSurface b, const SurfaceGrid& gridB,
                     float spacing, float relativeSlack) {
    return std::max(surfaceDistanceBound(a, gridB, spacing, relativeSlack),
                    surfaceDistanceBound(b, gridA, spacing, relativeSlack));
}

}  // namespace

size_t countBoundaryEdges(std::span<const glm::vec3> positions, std::span<const uint32_t> indices) {
    std::unordered_map<PositionKey, uint32_t, PositionKeyHash> ids;
    std::vector<uint32_t> id(positions.size());
    for (size_t v = 0; v < positions.size(); ++v)
        id[v] = ids.try_emplace(keyOf(positions[v]), uint32_t(ids.size())).first->second;
    std::vector<uint64_t> edges;
    edges.reserve(indices.size());
    for (size_t t = 0; t + 2 < indices.size(); t += 3)
        for (int k = 0; k < 3; ++k) {
            uint32_t a = id[indices[t + k]], b = id[indices[t + (k + 1) % 3]];
            if (a != b) edges.push_back(uint64_t(std::min(a, b)) << 32 | std::max(a, b));
        }
    std::sort(edges.begin(), edges.end());
    size_t boundary = 0;
    for (size_t i = 0; i < edges.size();) {
        size_t j = i;
        while (j < edges.size() && edges[j] == edges[i]) ++j;
        boundary += (j - i == 1);
        i = j;
    }
    return boundary;
}

void buildLodChain(std::vector<uint32_t>& indices, std::span<const glm::vec3> positions, const LodSettings& settings,
                   gpu::MeshPrimitive& prim) {
    uint32_t maxLods = std::clamp<uint32_t>(settings.maxLods, 1, gpu::SIEVE_MAX_LODS);
    prim.lodCount = 1;
    prim.lods[0] = gpu::MeshLod{0, static_cast<uint32_t>(indices.size()), 0.0f, 0};
    if (maxLods == 1 || positions.empty()) return;
    const float* pos = &positions[0].x;
    const float scale = meshopt_simplifyScale(pos, positions.size(), sizeof(glm::vec3));
    if (!(scale > 0.0f)) return;  // every vertex at one point: nothing to simplify

    const std::vector<uint32_t> lod0 = indices;
    const size_t boundary0 = countBoundaryEdges(positions, lod0);
    glm::vec3 mn(positions[0]), mx(positions[0]);
    for (const glm::vec3& p : positions) mn = glm::min(mn, p), mx = glm::max(mx, p);
    const TriangleSurface surface0{positions, lod0};
    const SurfaceGrid grid0(surface0, mn, mx);
    const float spacing = settings.sampleRelativeSpacing * scale;
    const float maxError = std::max(settings.maxRelativeError, 0.0f);
    float targetError = std::clamp(settings.firstRelativeError, 0.0f, maxError);

    std::vector<uint32_t> next(lod0.size());
    while (prim.lodCount < maxLods) {
        const gpu::MeshLod prev = prim.lods[prim.lodCount - 1];
        size_t target = (prev.indexCount / 2) / 3 * 3;
        if (target < 3) break;
        // From LOD 0 each time, so that the target error is measured against the original surface.
        size_t count = meshopt_simplify(next.data(), lod0.data(), lod0.size(), pos, positions.size(), sizeof(glm::vec3),
                                        target, targetError, meshopt_SimplifyLockBorder, nullptr);
        if (count == 0) break;
        if (double(count) > double(prev.indexCount) * settings.stallRatio) {
            // Not enough reduction at this error: try the next, larger target error.
            if (targetError >= maxError) break;
            targetError = std::min(std::max(targetError * 2.0f, 1e-4f), maxError);
            continue;
        }
        std::span<uint32_t> lod(next.data(), count);
        if (countBoundaryEdges(positions, lod) > boundary0) break;  // the LOD would open the mesh
        meshopt_optimizeVertexCache(lod.data(), lod.data(), count, positions.size());
        const TriangleSurface surface{positions, lod};
        const SurfaceGrid grid(surface, mn, mx);
        const float error = hausdorffBound(surface0, grid0, surface, grid, spacing, settings.measureRelativeSlack);
        // meshoptimizer's error is a mean over quadrics and misses whole parts that collapse away (a
        // lamp post's pole): a LOD measured far beyond the largest target is not a simplification.
        if (error > kErrorLimitFactor * maxError * scale) break;
        gpu::MeshLod out{};
        out.firstIndex = static_cast<uint32_t>(indices.size());
        out.indexCount = static_cast<uint32_t>(count);
        out.error = std::max(prev.error, error);
        indices.insert(indices.end(), lod.begin(), lod.end());
        prim.lods[prim.lodCount++] = out;
    }
}

}  // namespace sieve::assets
