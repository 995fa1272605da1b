#include "assets/surface_distance.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sieve::assets {
namespace {

// A surface is 2D: an axis of 512 cells keeps the cells of a 1M-triangle mesh at a few triangles each,
// and the cell budget bounds the grid's memory (4 bytes a cell) for meshes that fill a volume.
constexpr int kMaxGridDim = 512;
constexpr double kMaxGridCells = double(1u << 22);
constexpr uint32_t kMaxSplits = 6;  // at most 4^6 pieces per triangle

// Squared distance to a segment: the square root is taken once per triangle, of the smallest.
float segmentDistance2(glm::vec3 p, glm::vec3 a, glm::vec3 b) {
    glm::vec3 ab = b - a;
    float len2 = glm::dot(ab, ab);
    float t = len2 > 0.0f ? std::clamp(glm::dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
    glm::vec3 d = p - (a + ab * t);
    return glm::dot(d, d);
}

}  // namespace

float pointTriangleDistance(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c) {
    // The nearest point by the Voronoi regions of the corners, edges and face (Ericson, Real-Time
    // Collision Detection 5.1.5): dot products only, one square root. Degenerate triangles (no area, or
    // too large to square) count as their edges.
    const glm::vec3 ab = b - a, ac = c - a, n = glm::cross(ab, ac);
    const float nn = glm::dot(n, n);
    if (!(nn > 0.0f) || !std::isfinite(nn))
        return std::sqrt(std::min({segmentDistance2(p, a, b), segmentDistance2(p, b, c), segmentDistance2(p, c, a)}));
    auto at = [&](glm::vec3 q) { return glm::length(p - q); };
    const glm::vec3 ap = p - a;
    const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f) return at(a);
    const glm::vec3 bp = p - b;
    const float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
    if (d3 >= 0.0f && d4 <= d3) return at(b);
    const float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) return at(a + ab * (d1 / (d1 - d3)));
    const glm::vec3 cp = p - c;
    const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
    if (d6 >= 0.0f && d5 <= d6) return at(c);
    const float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) return at(a + ac * (d2 / (d2 - d6)));
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0.0f && d4 - d3 >= 0.0f && d5 - d6 >= 0.0f)
        return at(b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))));
    // Inside the face: the distance to the plane (exact, rather than to the barycentric point).
    return std::abs(glm::dot(ap, n)) / std::sqrt(nn);
}

SurfaceGrid::SurfaceGrid(TriangleSurface surface, glm::vec3 boundsMin, glm::vec3 boundsMax) : surface_(surface) {
    size_t triangles = surface.indices.size() / 3;
    glm::vec3 extent = glm::max(boundsMax - boundsMin, glm::vec3(0.0f));
    float longest = std::max({extent.x, extent.y, extent.z});
    origin_ = boundsMin;
    // About two triangles per cell the surface passes through (a cell face holds the area of two
    // triangles; a mesh spread through its volume is bounded by two per cell of the volume), no axis over
    // kMaxGridDim cells; flat axes get one cell. A mesh so small that its smallest cell underflows to 0
    // keeps one cell (cell counts must stay finite).
    const float minCell = longest / float(kMaxGridDim);
    if (std::isfinite(longest) && minCell > 0.0f) {
        glm::vec3 padded = glm::max(extent, glm::vec3(minCell));
        float volume = padded.x * padded.y * padded.z;
        const float perCell = 2.0f / float(std::max<size_t>(1, triangles));
        double area = 0.0;
        for (size_t t = 0; t < triangles; ++t) {
            const uint32_t* i = &surface.indices[3 * t];
            glm::vec3 a = surface.positions[i[0]], b = surface.positions[i[1]], c = surface.positions[i[2]];
            area += 0.5 * double(glm::length(glm::cross(b - a, c - a)));
        }
        const float areaCell = std::sqrt(float(area) * perCell);
        const float volumeCell = std::cbrt(volume * perCell * 0.25f);
        cell_ =
            std::max(minCell, std::isfinite(areaCell) && areaCell > 0.0f ? std::min(areaCell, volumeCell) : volumeCell);
        // Over the cell budget (a mesh filling a volume): cells grow until the budget holds.
        for (int k = 0; k < 3; ++k) dims_[k] = std::clamp(int(std::ceil(extent[k] / cell_)), 1, kMaxGridDim);
        while (double(dims_.x) * dims_.y * dims_.z > kMaxGridCells) {
            cell_ *= 1.25f;
            for (int k = 0; k < 3; ++k) dims_[k] = std::clamp(int(std::ceil(extent[k] / cell_)), 1, kMaxGridDim);
        }
    }
    size_t cells = size_t(dims_.x) * size_t(dims_.y) * size_t(dims_.z);
    cellStart_.assign(cells + 1, 0);
    auto forEachCell = [&](size_t t, auto&& fn) {
        glm::vec3 a = surface.positions[surface.indices[3 * t]], b = surface.positions[surface.indices[3 * t + 1]],
                  c = surface.positions[surface.indices[3 * t + 2]];
        glm::ivec3 lo = cellOf(glm::min(a, glm::min(b, c))), hi = cellOf(glm::max(a, glm::max(b, c)));
        for (int z = lo.z; z <= hi.z; ++z)
            for (int y = lo.y; y <= hi.y; ++y)
                for (int x = lo.x; x <= hi.x; ++x) fn((size_t(z) * dims_.y + y) * dims_.x + x);
    };
    for (size_t t = 0; t < triangles; ++t) forEachCell(t, [&](size_t c) { ++cellStart_[c + 1]; });
    for (size_t c = 0; c < cells; ++c) cellStart_[c + 1] += cellStart_[c];
    cellTriangles_.resize(cellStart_[cells]);
    std::vector<uint32_t> fill(cellStart_.begin(), cellStart_.end() - 1);
    for (size_t t = 0; t < triangles; ++t) forEachCell(t, [&](size_t c) { cellTriangles_[fill[c]++] = uint32_t(t); });
    stamp_.assign(triangles, 0);
    boxMin_.resize(triangles);
    boxMax_.resize(triangles);
    for (size_t t = 0; t < triangles; ++t) {
        const uint32_t* i = &surface.indices[3 * t];
        glm::vec3 a = surface.positions[i[0]], b = surface.positions[i[1]], c = surface.positions[i[2]];
        boxMin_[t] = glm::min(a, glm::min(b, c));
        boxMax_[t] = glm::max(a, glm::max(b, c));
    }
}

glm::ivec3 SurfaceGrid::cellOf(glm::vec3 p) const {
    glm::ivec3 c;
    for (int k = 0; k < 3; ++k) {
        float f = std::floor((p[k] - origin_[k]) / cell_);
        c[k] = std::isfinite(f) ? int(std::clamp(f, 0.0f, float(dims_[k] - 1))) : 0;
    }
    return c;
}

float SurfaceGrid::triangleDistance(glm::vec3 p, uint32_t t) const {
    const uint32_t* i = &surface_.indices[3 * size_t(t)];
    return pointTriangleDistance(p, surface_.positions[i[0]], surface_.positions[i[1]], surface_.positions[i[2]]);
}

SurfaceGrid::Nearest SurfaceGrid::nearest(glm::vec3 p, uint32_t hint) const {
    if (++query_ == 0) std::fill(stamp_.begin(), stamp_.end(), 0), query_ = 1;
    float best = std::numeric_limits<float>::infinity();
    uint32_t bestTriangle = UINT32_MAX;
    // A hint's distance is a true distance to the surface: it only lets the box test skip more.
    if (hint < stamp_.size()) best = triangleDistance(p, hint), bestTriangle = hint, stamp_[hint] = query_;
    glm::ivec3 c = cellOf(p);
    int maxRing = std::max({dims_.x, dims_.y, dims_.z});
    auto visit = [&](int x, int y, int z) {
        size_t cell = (size_t(z) * dims_.y + y) * dims_.x + x;
        for (uint32_t k = cellStart_[cell]; k < cellStart_[cell + 1]; ++k) {
            uint32_t t = cellTriangles_[k];
            if (stamp_[t] == query_) continue;
            stamp_[t] = query_;
            // The box distance is a lower bound of the triangle distance: skip what cannot be nearer.
            glm::vec3 outside = glm::max(glm::max(boxMin_[t] - p, p - boxMax_[t]), glm::vec3(0.0f));
            if (glm::dot(outside, outside) >= best * best) continue;
            float d = triangleDistance(p, t);
            if (d < best) best = d, bestTriangle = t;
        }
    };
    for (int r = 0; r <= maxRing; ++r) {
        // The shell of cells at Chebyshev distance r from c: whole rows where z or y is on the shell,
        // otherwise only the two ends of the row.
        glm::ivec3 lo = glm::max(c - r, glm::ivec3(0)), hi = glm::min(c + r, dims_ - 1);
        for (int z = lo.z; z <= hi.z; ++z)
            for (int y = lo.y; y <= hi.y; ++y) {
                if (std::abs(z - c.z) == r || std::abs(y - c.y) == r) {
                    for (int x = lo.x; x <= hi.x; ++x) visit(x, y, z);
                } else {
                    if (c.x - r >= 0) visit(c.x - r, y, z);
                    if (r > 0 && c.x + r < dims_.x) visit(c.x + r, y, z);
                }
            }
        // Triangles not seen yet lie outside the searched block of cells; where the block reaches the
        // grid's edge there are none beyond it.
        float gap = std::numeric_limits<float>::infinity();
        for (int k = 0; k < 3; ++k) {
            if (c[k] - r > 0) gap = std::min(gap, p[k] - (origin_[k] + float(c[k] - r) * cell_));
            if (c[k] + r < dims_[k] - 1) gap = std::min(gap, origin_[k] + float(c[k] + r + 1) * cell_ - p[k]);
        }
        if (best <= std::max(gap, 0.0f)) break;
    }
    return {best, bestTriangle};
}

namespace {

// A (sub-)triangle of surfaceDistanceBound's search: corners, their distances to `to` and nearest triangles.
struct Piece {
    glm::vec3 p[3];
    float d[3];
    uint32_t nearest[3];  // the nearest triangle of `to` to each corner
    uint32_t splits;
};

// The distance of every vertex of `from` that its triangles use to `to` (distance -1 for the others).
std::vector<SurfaceGrid::Nearest> cornerDistances(TriangleSurface from, const SurfaceGrid& to) {
    // Once per vertex: corners are shared by several triangles.
    // Consecutive corners are close (the triangles are in vertex-cache order): the last query's nearest
    // triangle is the hint for the next.
    std::vector<SurfaceGrid::Nearest> atVertex(from.positions.size(), {-1.0f, UINT32_MAX});
    // A LOD and its original share one vertex array: a vertex that `to` uses lies on `to` (distance 0,
    // through any triangle that uses it) and needs no query.
    const TriangleSurface& target = to.surface();
    if (target.positions.data() == from.positions.data() && target.positions.size() == from.positions.size())
        for (size_t i = 0; i < target.indices.size() / 3 * 3; ++i)
            if (atVertex[target.indices[i]].distance < 0.0f) atVertex[target.indices[i]] = {0.0f, uint32_t(i / 3)};
    uint32_t hint = UINT32_MAX;
    for (size_t i = 0; i < from.indices.size() / 3 * 3; ++i) {
        SurfaceGrid::Nearest& n = atVertex[from.indices[i]];
        if (n.distance < 0.0f) n = to.nearest(from.positions[from.indices[i]], hint);
        hint = n.triangle;
    }
    return atVertex;
}

// An upper bound of the distances of `piece`'s points to `to`, given the longest edge: the smaller of (1) the
// largest at its corners plus the covering radius and (2) the largest distance of its corners to the nearest
// triangle of one corner; once at most `bound`, the rest is not computed.
float pieceUpper(const Piece& piece, const SurfaceGrid& to, float longest, float bound) {
    const float cover = 1.0f / std::sqrt(3.0f);
    float upper = std::max({piece.d[0], piece.d[1], piece.d[2]}) + longest * cover;
    // The cheap bound first: on fine meshes it drops most pieces without a distance computed.
    for (int k = 0; k < 3 && upper > bound; ++k) {  // the convex bound through each corner's nearest triangle
        float through = piece.d[k];
        for (int i = 0; i < 3 && through < upper; ++i)
            if (i != k) through = std::max(through, to.triangleDistance(piece.p[i], piece.nearest[k]));
        upper = std::min(upper, through);
    }
    return upper;
}

// Pushes the four halves of `piece` (edge midpoints queried); returns the largest midpoint distance.
float split(const Piece& piece, const SurfaceGrid& to, std::vector<Piece>& stack) {
    glm::vec3 m[3];
    float dm[3];
    uint32_t nm[3];
    for (int k = 0; k < 3; ++k) {
        m[k] = (piece.p[k] + piece.p[(k + 1) % 3]) * 0.5f;  // midpoint of edge k -> k + 1
        SurfaceGrid::Nearest n = to.nearest(m[k], piece.nearest[k]);
        dm[k] = n.distance, nm[k] = n.triangle;
    }
    uint32_t splits = piece.splits + 1;
    const uint32_t* nc = piece.nearest;
    stack.push_back({{piece.p[0], m[0], m[2]}, {piece.d[0], dm[0], dm[2]}, {nc[0], nm[0], nm[2]}, splits});
    stack.push_back({{m[0], piece.p[1], m[1]}, {dm[0], piece.d[1], dm[1]}, {nm[0], nc[1], nm[1]}, splits});
    stack.push_back({{m[2], m[1], piece.p[2]}, {dm[2], dm[1], piece.d[2]}, {nm[2], nm[1], nc[2]}, splits});
    stack.push_back({{m[0], m[1], m[2]}, {dm[0], dm[1], dm[2]}, {nm[0], nm[1], nm[2]}, splits});
    return std::max({dm[0], dm[1], dm[2]});
}

}  // namespace

float surfaceDistanceBound(TriangleSurface from, const SurfaceGrid& to, float spacing, float relativeSlack) {
    // Branch and bound. A (sub-)triangle's distances are at most (1) the largest at its corners plus the
    // covering radius (longest edge / sqrt 3: every point is that close to a corner, or closer), and
    // (2) the largest distance of its corners to any one triangle of `to` (tried: each corner's nearest).
    // A piece whose bound cannot raise the result is dropped; others are split into four until their
    // edges are at most `spacing`, their bound is within `relativeSlack` of the largest true distance
    // seen, or after kMaxSplits halvings; then their bound counts.
    const size_t triangles = from.indices.size() / 3;
    // The corner distances first: they seed the result (each is a true distance), so that pruning
    // starts early.
    const std::vector<SurfaceGrid::Nearest> atVertex = cornerDistances(from, to);
    float lower = 0.0f;  // the largest true distance (at a corner or midpoint) so far
    for (size_t i = 0; i < triangles * 3; ++i) lower = std::max(lower, atVertex[from.indices[i]].distance);
    float bound = lower;                      // the largest bound of a kept piece, or true distance, so far
    if (!std::isfinite(bound)) return bound;  // `to` has no triangles
    // Last triangle first, each with its pieces before the next: the stack holds one triangle's splits
    // (at most 3 * kMaxSplits + 1 pieces), not a piece per triangle.
    std::vector<Piece> stack;
    for (size_t t = triangles; t-- > 0;) {
        Piece whole{};
        for (int k = 0; k < 3; ++k) {
            const uint32_t v = from.indices[3 * t + k];
            whole.p[k] = from.positions[v];
            whole.d[k] = atVertex[v].distance, whole.nearest[k] = atVertex[v].triangle;
        }
        stack.push_back(whole);
        while (!stack.empty()) {
            Piece piece = stack.back();
            stack.pop_back();
            float longest = std::max({glm::distance(piece.p[0], piece.p[1]), glm::distance(piece.p[1], piece.p[2]),
                                      glm::distance(piece.p[2], piece.p[0])});
            const float upper = pieceUpper(piece, to, longest, bound);
            if (upper <= bound) continue;
            if (!(longest > spacing) || upper <= (1.0f + relativeSlack) * lower || piece.splits >= kMaxSplits) {
                bound = upper;
                continue;
            }
            lower = std::max(lower, split(piece, to, stack));
            bound = std::max(bound, lower);
        }
    }
    return bound;
}

}  // namespace sieve::assets
