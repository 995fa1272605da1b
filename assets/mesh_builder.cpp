#include "assets/mesh_builder.h"

#include <meshoptimizer.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "assets/bounding_sphere.h"
#include "assets/normal_packing.h"

namespace sieve::assets {
namespace {

constexpr float kWeldRelativeTolerance = 1e-5f;

bool finite(const glm::vec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

struct CellKey {
    int64_t x, y, z;
    bool operator==(const CellKey&) const = default;
};
struct CellKeyHash {
    size_t operator()(const CellKey& k) const {
        return size_t(k.x) * 73856093u ^ size_t(k.y) * 19349663u ^ size_t(k.z) * 83492791u;
    }
};

// Moves every position within `tolerance` of an earlier kept position onto the earliest such one (and -0
// to +0), so that nearly coincident seam vertices become bit-identical. Cells are twice the tolerance: a
// match lies in the cells that p -+ tolerance fall in on each axis (at most 8, usually 1). Kept positions
// of a cell form a list (head per cell, next per vertex), so that no cell allocates.
// The cell of coordinate v, clamped so that any float (huge or not finite: a hostile file) converts without
// overflow; positions that far out share the outermost cells, where the distance test still decides.
// Computed in double: p -+ tolerance in float overflowed to infinity next to FLT_MAX, and the cell range
// then ran from the outermost cell to p's, 4e18 lookups (found by the fuzzer: a 944-byte GLB with a
// z of -3.4e38 hung in weldPositions).
int64_t cellOf(double v, double cell) {
    const double c = std::floor(v / cell);
    constexpr double kLimit = 4.0e18;  // < 2^62, so that neighbouring cells stay in range too
    if (!(c > -kLimit)) return c != c ? 0 : int64_t(-kLimit);
    return c < kLimit ? int64_t(c) : int64_t(kLimit);
}

void weldPositions(std::vector<glm::vec3>& positions, float tolerance) {
    for (glm::vec3& p : positions) p += glm::vec3(0.0f);
    if (!(tolerance > 0.0f)) return;
    const float cell = 2.0f * tolerance;
    std::unordered_map<CellKey, uint32_t, CellKeyHash> head;  // last kept vertex of a cell
    head.reserve(positions.size());
    std::vector<uint32_t> next(positions.size(), UINT32_MAX);  // the previously kept vertex of the same cell
    for (size_t v = 0; v < positions.size(); ++v) {
        const glm::vec3 p = positions[v];
        glm::i64vec3 lo, hi;
        for (int k = 0; k < 3; ++k) {
            lo[k] = cellOf(double(p[k]) - double(tolerance), cell);
            hi[k] = cellOf(double(p[k]) + double(tolerance), cell);
        }
        uint32_t match = UINT32_MAX;
        for (int64_t z = lo.z; z <= hi.z; ++z)
            for (int64_t y = lo.y; y <= hi.y; ++y)
                for (int64_t x = lo.x; x <= hi.x; ++x) {
                    auto it = head.find(CellKey{x, y, z});
                    if (it == head.end()) continue;
                    for (uint32_t k = it->second; k != UINT32_MAX; k = next[k])
                        if (k < match && glm::distance(positions[k], p) <= tolerance) match = k;
                }
        if (match != UINT32_MAX) {
            positions[v] = positions[match];
            continue;
        }
        auto [it, fresh] =
            head.try_emplace(CellKey{cellOf(p.x, cell), cellOf(p.y, cell), cellOf(p.z, cell)}, uint32_t(v));
        if (!fresh) next[v] = it->second, it->second = uint32_t(v);
    }
}

}  // namespace

std::vector<glm::vec3> computeNormals(std::span<const glm::vec3> positions, std::span<const uint32_t> indices) {
    std::vector<glm::vec3> normals(positions.size(), glm::vec3(0.0f));
    for (size_t t = 0; t + 2 < indices.size(); t += 3) {
        uint32_t a = indices[t], b = indices[t + 1], c = indices[t + 2];
        if (a >= positions.size() || b >= positions.size() || c >= positions.size()) continue;
        // The unnormalised cross product weights each face by its area.
        glm::vec3 n = glm::cross(positions[b] - positions[a], positions[c] - positions[a]);
        normals[a] += n, normals[b] += n, normals[c] += n;
    }
    for (glm::vec3& n : normals) {
        float len = glm::length(n);
        n = (len > 0.0f && std::isfinite(len)) ? n / len : glm::vec3(0.0f, 1.0f, 0.0f);
    }
    return normals;
}

namespace {

// What addPrimitive refuses in the positions, normals and UVs (empty when nothing).
std::string vertexError(const PrimitiveInput& in) {
    if (in.positions.empty()) return "primitive has no positions";
    if (in.positions.size() > std::numeric_limits<int32_t>::max())
        return "primitive has too many vertices (" + std::to_string(in.positions.size()) + ")";
    for (size_t v = 0; v < in.positions.size(); ++v)
        if (!finite(in.positions[v])) return "position " + std::to_string(v) + " is NaN or infinite";
    if (!in.normals.empty() && in.normals.size() != in.positions.size())
        return "primitive has " + std::to_string(in.normals.size()) + " normals for " +
               std::to_string(in.positions.size()) + " positions";
    if (!in.uvs.empty() && in.uvs.size() != in.positions.size())
        return "primitive has " + std::to_string(in.uvs.size()) + " UVs for " + std::to_string(in.positions.size()) +
               " positions";
    return {};
}

// The triangle list: the input's indices, checked, or consecutive triangles of the positions.
Expected<std::vector<uint32_t>> triangleList(const PrimitiveInput& in) {
    std::vector<uint32_t> indices;
    if (in.indices.empty()) {
        indices.resize(in.positions.size() - in.positions.size() % 3);
        for (size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<uint32_t>(i);
    } else {
        if (in.indices.size() % 3 != 0)
            return Unexpected{"index count " + std::to_string(in.indices.size()) + " is not a multiple of 3"};
        for (size_t i = 0; i < in.indices.size(); ++i)
            if (in.indices[i] >= in.positions.size())
                return Unexpected{"index " + std::to_string(i) + " (" + std::to_string(in.indices[i]) +
                                  ") is out of range for " + std::to_string(in.positions.size()) + " vertices"};
        indices.assign(in.indices.begin(), in.indices.end());
    }
    if (indices.empty()) return Unexpected{"primitive has no triangles"};
    if (indices.size() > std::numeric_limits<uint32_t>::max() / 4)
        return Unexpected{"primitive has too many indices (" + std::to_string(indices.size()) + ")"};
    return indices;
}

// The positions with those closer than a fraction of the bounding box's largest side merged.
std::vector<glm::vec3> weldedPositions(std::span<const glm::vec3> positions) {
    std::vector<glm::vec3> welded(positions.begin(), positions.end());
    glm::vec3 mn(welded[0]), mx(welded[0]);
    for (const glm::vec3& p : welded) mn = glm::min(mn, p), mx = glm::max(mx, p);
    glm::vec3 extent = mx - mn;
    weldPositions(welded, kWeldRelativeTolerance * std::max({extent.x, extent.y, extent.z}));
    return welded;
}

// The input's normals, normalised, when all are finite; otherwise the area-weighted normals of the welded mesh.
std::vector<glm::vec3> vertexNormals(const PrimitiveInput& in, const std::vector<glm::vec3>& welded,
                                     const std::vector<uint32_t>& indices) {
    if (in.normals.empty() || !std::all_of(in.normals.begin(), in.normals.end(), finite))
        return computeNormals(welded, indices);
    std::vector<glm::vec3> normals;
    normals.reserve(in.normals.size());
    for (const glm::vec3& n : in.normals) {
        float len = glm::length(n);
        // + 0: -0 and +0 components must not split a vertex in the bytewise deduplication below.
        normals.push_back((len > 0.0f ? n / len : glm::vec3(0.0f, 1.0f, 0.0f)) + glm::vec3(0.0f));
    }
    return normals;
}

}  // namespace

Expected<uint32_t> MeshBuilder::addPrimitive(const PrimitiveInput& in) {
    if (std::string error = vertexError(in); !error.empty()) return Unexpected{std::move(error)};
    auto triangles = triangleList(in);
    if (!triangles) return Unexpected{triangles.error()};
    std::vector<uint32_t> indices = std::move(triangles).value();
    const std::vector<glm::vec3> welded = weldedPositions(in.positions);
    const std::vector<glm::vec3> normals = vertexNormals(in, welded, indices);

    // Non-finite UVs become 0 (+ 0: -0 and +0 must not split a vertex below).
    const bool hasUvs = !in.uvs.empty();
    std::vector<glm::vec2> uvs;
    uvs.reserve(in.uvs.size());
    for (const glm::vec2& uv : in.uvs)
        uvs.push_back(std::isfinite(uv.x) && std::isfinite(uv.y) ? uv + glm::vec2(0.0f) : glm::vec2(0.0f));

    // Deduplicate identical (position, normal, UV) vertices so that the cache optimiser and the simplifier
    // see the real connectivity.
    size_t vertexCount = in.positions.size();
    std::vector<uint32_t> remap(vertexCount);
    meshopt_Stream streams[] = {{welded.data(), sizeof(glm::vec3), sizeof(glm::vec3)},
                                {normals.data(), sizeof(glm::vec3), sizeof(glm::vec3)},
                                {uvs.data(), sizeof(glm::vec2), sizeof(glm::vec2)}};
    vertexCount = meshopt_generateVertexRemapMulti(remap.data(), indices.data(), indices.size(), vertexCount, streams,
                                                   hasUvs ? 3 : 2);
    std::vector<glm::vec3> positions(vertexCount), dedupNormals(vertexCount);
    std::vector<glm::vec2> dedupUvs(hasUvs ? vertexCount : 0);
    meshopt_remapIndexBuffer(indices.data(), indices.data(), indices.size(), remap.data());
    meshopt_remapVertexBuffer(positions.data(), welded.data(), welded.size(), sizeof(glm::vec3), remap.data());
    meshopt_remapVertexBuffer(dedupNormals.data(), normals.data(), normals.size(), sizeof(glm::vec3), remap.data());
    if (hasUvs) meshopt_remapVertexBuffer(dedupUvs.data(), uvs.data(), uvs.size(), sizeof(glm::vec2), remap.data());

    meshopt_optimizeVertexCache(indices.data(), indices.data(), indices.size(), vertexCount);
    // Vertex fetch order also drops vertices no triangle references.
    remap.assign(vertexCount, 0);
    size_t used = meshopt_optimizeVertexFetchRemap(remap.data(), indices.data(), indices.size(), vertexCount);
    meshopt_remapIndexBuffer(indices.data(), indices.data(), indices.size(), remap.data());
    Processed p;
    p.positions.resize(used);
    std::vector<glm::vec3> fetchNormals(used);
    meshopt_remapVertexBuffer(p.positions.data(), positions.data(), vertexCount, sizeof(glm::vec3), remap.data());
    meshopt_remapVertexBuffer(fetchNormals.data(), dedupNormals.data(), vertexCount, sizeof(glm::vec3), remap.data());
    p.normals.resize(used);
    for (size_t v = 0; v < used; ++v) p.normals[v] = packNormal(fetchNormals[v]);
    if (hasUvs) {
        std::vector<glm::vec2> fetchUvs(used);
        meshopt_remapVertexBuffer(fetchUvs.data(), dedupUvs.data(), vertexCount, sizeof(glm::vec2), remap.data());
        p.uvs.reserve(used);
        for (const glm::vec2& uv : fetchUvs) p.uvs.push_back(gpu::VertexUv{uv.x, uv.y});
    }

    p.indices = std::move(indices);
    p.primitive.material = in.material;
    p.primitive.bin = in.bin;
    buildLodChain(p.indices, p.positions, settings_, p.primitive);
    primitives_.push_back(std::move(p));
    return static_cast<uint32_t>(primitives_.size() - 1);
}

Expected<uint32_t> MeshBuilder::finish(SceneData& scene, std::string name) {
    if (primitives_.empty()) return Unexpected{"mesh '" + name + "' has no primitives"};
    uint64_t vertices = scene.vertices.size(), indices = scene.indices.size();
    std::vector<glm::vec3> allPositions;
    for (const Processed& p : primitives_) {
        vertices += p.positions.size();
        indices += p.indices.size();
        allPositions.insert(allPositions.end(), p.positions.begin(), p.positions.end());
    }
    // vertexOffset is a signed 32-bit draw parameter; firstIndex is unsigned 32-bit.
    if (vertices > uint64_t(std::numeric_limits<int32_t>::max()))
        return Unexpected{"mesh '" + name + "': the shared vertex buffer would exceed 2^31 vertices"};
    if (indices > uint64_t(std::numeric_limits<uint32_t>::max()))
        return Unexpected{"mesh '" + name + "': the shared index buffer would exceed 2^32 indices"};
    if (scene.meshes.size() >= std::numeric_limits<uint32_t>::max()) return Unexpected{"too many meshes"};

    gpu::Mesh mesh{};
    mesh.sphere = boundingSphere(allPositions);
    mesh.firstPrimitive = static_cast<uint32_t>(scene.primitives.size());
    mesh.primitiveCount = static_cast<uint32_t>(primitives_.size());
    // UVs stay parallel to the vertices: padded with zeros once any mesh has some.
    const bool uvs = !scene.uvs.empty() || std::any_of(primitives_.begin(), primitives_.end(),
                                                       [](const Processed& p) { return !p.uvs.empty(); });
    if (uvs) scene.uvs.resize(scene.vertices.size(), gpu::VertexUv{0.0f, 0.0f});
    for (Processed& p : primitives_) {
        gpu::MeshPrimitive prim = p.primitive;
        prim.vertexOffset = static_cast<int32_t>(scene.vertices.size());
        uint32_t base = static_cast<uint32_t>(scene.indices.size());
        for (uint32_t l = 0; l < prim.lodCount; ++l) prim.lods[l].firstIndex += base;
        for (size_t v = 0; v < p.positions.size(); ++v)
            scene.vertices.push_back(gpu::Vertex{p.positions[v].x, p.positions[v].y, p.positions[v].z, p.normals[v]});
        if (uvs) {
            if (p.uvs.empty())
                scene.uvs.resize(scene.vertices.size(), gpu::VertexUv{0.0f, 0.0f});
            else
                scene.uvs.insert(scene.uvs.end(), p.uvs.begin(), p.uvs.end());
        }
        scene.indices.insert(scene.indices.end(), p.indices.begin(), p.indices.end());
        scene.primitives.push_back(prim);
    }
    scene.meshes.push_back(mesh);
    scene.meshNames.push_back(std::move(name));
    primitives_.clear();
    return static_cast<uint32_t>(scene.meshes.size() - 1);
}

}  // namespace sieve::assets
