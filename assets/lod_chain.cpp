#include "assets/lod_chain.h"

#include <meshoptimizer.h>

#include <algorithm>
#include <bit>
#include <future>
#include <optional>
#include <system_error>
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

// A mesh this large measures its LODs on worker threads (below, a thread costs more than it saves).
constexpr size_t kParallelTriangles = 20000;

// `fn` on its own thread when `parallel` (and a thread can be had), otherwise where get() is called.
template <class Fn>
std::future<float> launch(bool parallel, Fn fn) {
    if (parallel) try {
            return std::async(std::launch::async, fn);
        } catch (const std::system_error&) {
        }
    return std::async(std::launch::deferred, fn);
}

}  // namespace

namespace {

// One id per distinct position (bit-identical, +0 == -0).
std::vector<uint32_t> positionIds(std::span<const glm::vec3> positions) {
    std::unordered_map<PositionKey, uint32_t, PositionKeyHash> ids;
    ids.reserve(positions.size());
    std::vector<uint32_t> id(positions.size());
    for (size_t v = 0; v < positions.size(); ++v)
        id[v] = ids.try_emplace(keyOf(positions[v]), uint32_t(ids.size())).first->second;
    return id;
}

size_t boundaryEdges(std::span<const uint32_t> id, std::span<const uint32_t> indices) {
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

// LOD 0 simplified to successive targets: closed (no more boundary edges than LOD 0) and cache-ordered.
struct Simplifier {
    std::span<const glm::vec3> positions;
    const std::vector<uint32_t>& lod0;
    const std::vector<uint32_t>& ids;  // every LOD's boundary is counted over these
    size_t boundary0;
    float stallRatio;
    float maxError;
    float targetError;  // raised where a target stalls, kept for the next LOD

    // The next LOD after one of `prevCount` indices; empty where the chain ends. It depends on the previous
    // LOD's size only, not on its measured error.
    std::vector<uint32_t> next(size_t prevCount) {
        std::vector<uint32_t> next(lod0.size());
        while (true) {
            size_t target = (prevCount / 2) / 3 * 3;
            if (target < 3) return {};
            // From LOD 0 each time, so that the target error is measured against the original surface.
            size_t count =
                meshopt_simplify(next.data(), lod0.data(), lod0.size(), &positions[0].x, positions.size(),
                                 sizeof(glm::vec3), target, targetError, meshopt_SimplifyLockBorder, nullptr);
            if (count == 0) return {};
            if (double(count) > double(prevCount) * stallRatio) {
                // Not enough reduction at this error: try the next, larger target error.
                if (targetError >= maxError) return {};
                targetError = std::min(std::max(targetError * 2.0f, 1e-4f), maxError);
                continue;
            }
            next.resize(count);
            if (boundaryEdges(ids, next) > boundary0) return {};  // the LOD would open the mesh
            meshopt_optimizeVertexCache(next.data(), next.data(), count, positions.size());
            return next;
        }
    }
};

// Appends `lod` to the index buffer as the primitive's next LOD, its error at least the previous one's.
void appendLod(std::vector<uint32_t>& indices, gpu::MeshPrimitive& prim, const std::vector<uint32_t>& lod,
               float error) {
    gpu::MeshLod out{};
    out.firstIndex = static_cast<uint32_t>(indices.size());
    out.indexCount = static_cast<uint32_t>(lod.size());
    out.error = std::max(prim.lods[prim.lodCount - 1].error, error);
    indices.insert(indices.end(), lod.begin(), lod.end());
    prim.lods[prim.lodCount++] = out;
}

}  // namespace

size_t countBoundaryEdges(std::span<const glm::vec3> positions, std::span<const uint32_t> indices) {
    return boundaryEdges(positionIds(positions), indices);
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
    const std::vector<uint32_t> ids = positionIds(positions);  // every LOD's boundary is counted over these
    const size_t boundary0 = boundaryEdges(ids, lod0);
    glm::vec3 mn(positions[0]), mx(positions[0]);
    for (const glm::vec3& p : positions) mn = glm::min(mn, p), mx = glm::max(mx, p);
    const TriangleSurface surface0{positions, lod0};
    const SurfaceGrid grid0(surface0, mn, mx);
    const float spacing = settings.sampleRelativeSpacing * scale;
    const float maxError = std::max(settings.maxRelativeError, 0.0f);
    Simplifier simplifier{positions,
                          lod0,
                          ids,
                          boundary0,
                          settings.stallRatio,
                          maxError,
                          std::clamp(settings.firstRelativeError, 0.0f, maxError)};
    // Large meshes measure a candidate's two directions on two threads while this one simplifies the
    // next candidate (the chain is the same as one built in sequence); small ones stay on this thread.
    const bool parallel = lod0.size() / 3 >= kParallelTriangles;
    std::vector<uint32_t> candidate = simplifier.next(lod0.size());
    while (!candidate.empty()) {
        const TriangleSurface surface{positions, candidate};
        std::optional<SurfaceGrid> grid;
        auto toCandidate = launch(parallel, [&] {
            grid.emplace(surface, mn, mx);
            return surfaceDistanceBound(surface0, *grid, spacing, settings.measureRelativeSlack);
        });
        auto toLod0 = launch(
            parallel, [&] { return surfaceDistanceBound(surface, grid0, spacing, settings.measureRelativeSlack); });
        std::vector<uint32_t> following;
        if (prim.lodCount + 1 < maxLods) following = simplifier.next(candidate.size());
        const float error = std::max(toCandidate.get(), toLod0.get());
        // meshoptimizer's error is a mean over quadrics and misses whole parts that collapse away (a
        // lamp post's pole): a LOD measured far beyond the largest target is not a simplification.
        if (error > kErrorLimitFactor * maxError * scale) break;
        appendLod(indices, prim, candidate, error);
        if (settings.onLevel) settings.onLevel(prim.lodCount, maxLods);
        candidate = std::move(following);
    }
}

}  // namespace sieve::assets
